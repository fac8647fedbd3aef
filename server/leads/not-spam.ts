import type { RoiParameters } from '../../lead/roi/engine.ts';
import { writeWithAudit, type Acting } from '../../back-office/accounts/audit-trail.ts';
import type { LeadRecord } from '../store/inbox/inbox-store.ts';
import { describeFieldErrors, rebuildLead } from './intake.ts';
import type { LeadOperationsStore } from './operations.ts';

// "Not spam", from the console and from `npm run leads -- not-spam`: the stored values are built
// again by the form's own checks, and only what they build is forwarded; a lead they refuse stays
// spam. One of the inbox's operations (operations.ts): the change and its audit entry, with the actor.

export type NotSpamOutcome =
  | { readonly kind: 'forwarded' }
  | { readonly kind: 'missing' }
  /** The lead is not spam (any more): nothing changed. */
  | { readonly kind: 'not-spam'; readonly lead: LeadRecord }
  /** Its values fail its form's checks: `message` says which, in plain words. */
  | { readonly kind: 'unsendable'; readonly message: string };

export async function forwardNotSpam(
  store: LeadOperationsStore,
  acting: Acting,
  id: string,
  loadRoiParameters: () => Promise<RoiParameters>,
): Promise<NotSpamOutcome> {
  const lead = await store.getLead(id);
  if (lead === undefined) return { kind: 'missing' };
  if (lead.state !== 'spam') return { kind: 'not-spam', lead };
  const rebuilt = rebuildLead(lead, await loadRoiParameters());
  if (rebuilt.kind === 'invalid') {
    return {
      kind: 'unsendable',
      message: `This lead cannot be sent, as its form would not accept it (${describeFieldErrors(rebuilt.formId, rebuilt.fields)}): it stays in spam.`,
    };
  }
  // Every stored lead carries its own id, as the relay stores a new one.
  const forwarded = await writeWithAudit(
    store,
    'markNotSpam',
    [id, acting.at, { ...rebuilt, payload: { ...rebuilt.payload, lead_id: id } }],
    acting,
    { action: 'lead.not-spam', detail: id },
  );
  if (forwarded) return { kind: 'forwarded' };
  const after = await store.getLead(id);
  return after === undefined ? { kind: 'missing' } : { kind: 'not-spam', lead: after };
}
