import type { InboxStore } from '../store/inbox/inbox-store.ts';
import type { RoiParameters } from '../../lead/roi/engine.ts';
import type { LeadRecord } from '../store/inbox/inbox-store.ts';
import { describeFieldErrors, rebuildLead } from './intake.ts';

// "Not spam", from the console and from `npm run leads -- not-spam`: the stored values are built
// again by the form's own checks, and only what they build is forwarded; a lead they refuse stays spam.

export type NotSpamOutcome =
  | { readonly kind: 'forwarded' }
  | { readonly kind: 'missing' }
  /** The lead is not spam (any more): nothing changed. */
  | { readonly kind: 'not-spam'; readonly lead: LeadRecord }
  /** Its values fail its form's checks: `message` says which, in plain words. */
  | { readonly kind: 'unsendable'; readonly message: string };

export async function forwardNotSpam(
  store: InboxStore,
  id: string,
  now: number,
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
  if (await store.markNotSpam(id, now, { ...rebuilt, payload: { ...rebuilt.payload, lead_id: id } })) return { kind: 'forwarded' };
  const after = await store.getLead(id);
  return after === undefined ? { kind: 'missing' } : { kind: 'not-spam', lead: after };
}
