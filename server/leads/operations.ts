import type { LeadFilter, RetrySent, RetrySkipped } from '../../console/api-types.ts';
import { LEAD_SOURCES } from '../../lead/rules.ts';
import { recordAudit, writeWithAudit, type Acting } from '../../back-office/accounts/audit-trail.ts';
import { countSent, describeRetry, noneSent, noneSkipped, tallySent } from '../../back-office/database/audit-detail.ts';
import type { AuditWriter } from '../store/audit/audit-store.ts';
import { SEND_AGAIN_STATES, type InboxStore, type LeadRecord, type RetriedLead } from '../store/inbox/inbox-store.ts';

// What the console and `npm run leads` do to the inbox: retry, send again, spam, erasure and
// export (not spam is forwardNotSpam, in not-spam.ts). Each operation makes its change and writes its
// audit entry (in the change's own transaction when it is one store call), with the actor its caller
// names (a console account's address, or the person at the terminal), so both leave the same trail
// in the same words. The callers decide what to refuse before (the console's erasure count, a CRM
// address) and how to answer.

export type LeadOperationsStore = Pick<InboxStore, 'getLead' | 'retry' | 'sendAgain' | 'markSpam' | 'markNotSpam' | 'eraseByEmail'> &
  AuditWriter;

/** The site's form names: an export filtered by one of them is recorded with its name. */
const FORM_NAMES: ReadonlySet<string> = new Set(Object.values(LEAD_SOURCES));

/** An export's filters: the console's inbox filters, or the command line's store state. */
export type ExportFilter = Omit<LeadFilter, 'state'> & { readonly state?: string };

/**
 * A filter as an audit entry reads it: which filters were used, with the values that cannot name a
 * person (a form of the site, a state, spam or not, days). Text typed into a filter (a search, a
 * campaign, a source, a form name the site does not have) is often a person's name, number or address,
 * and the audit log is kept after that person's leads are erased, so only its use is recorded.
 */
export function describeFilter(filter: ExportFilter): string {
  const parts = [
    filter.form === undefined ? undefined : FORM_NAMES.has(filter.form) ? `form=${filter.form}` : 'a form the site does not have',
    filter.state === undefined ? undefined : `state=${filter.state}`,
    filter.spam === undefined ? undefined : `spam=${filter.spam}`,
    filter.from === undefined ? undefined : `from=${filter.from}`,
    filter.to === undefined ? undefined : `to=${filter.to}`,
    filter.campaign === undefined ? undefined : 'campaign filter',
    filter.source === undefined ? undefined : 'source filter',
    filter.q === undefined ? undefined : 'text search',
  ].filter((part) => part !== undefined);
  return parts.length === 0 ? 'all leads' : parts.join(', ');
}

/** Records an export once its read has begun (an export that could not start is not recorded as made). */
export function recordLeadExport(store: AuditWriter, acting: Acting, format: 'csv' | 'json', filter: ExportFilter): Promise<void> {
  return recordAudit(store, acting, { action: 'leads.export', detail: `${format}: ${describeFilter(filter)}` });
}

/** What a retry did: the leads it moved (each with the state it left), counted by status, and what it skipped and why. */
export type RetryOutcome = { readonly moved: RetriedLead[]; readonly sent: RetrySent; readonly skipped: RetrySkipped };

/** Why a retry left a lead alone, read after the store refused to move it. */
function reasonSkipped(lead: LeadRecord | undefined): keyof RetrySkipped {
  if (lead === undefined) return 'missing';
  if (lead.state === 'spam') return 'spam';
  if (SEND_AGAIN_STATES.includes(lead.state)) return 'delivered';
  return 'sending';
}

/** Forwards every failed lead again (never spam, never a lead the CRM has). */
export async function retryEveryFailed(store: LeadOperationsStore, acting: Acting): Promise<RetryOutcome> {
  // "every failed lead: sent 2 lead(s): a, b (2 failed)", worded by the store from the leads it moved.
  const moved = await writeWithAudit(store, 'retry', [{ state: 'failed' }, acting.at], acting, {
    action: 'lead.retry',
    describe: 'every-failed-retry',
  });
  return { moved, sent: tallySent(moved), skipped: noneSkipped() };
}

/**
 * Forwards each of `ids` that may be retried. The store moves one lead at a time, and the console's
 * action is one entry (the audit screen shows one line for it), written once every id is tried, so
 * not in any one move's transaction; should the store fail part-way, the leads already moved are
 * still recorded before the failure is thrown: the audit log never misses a change made.
 */
export async function retryLeads(store: LeadOperationsStore, acting: Acting, ids: readonly string[]): Promise<RetryOutcome> {
  const unique = [...new Set(ids)];
  const done = { moved: [] as RetriedLead[], sent: noneSent(), skipped: noneSkipped() };
  let tried = 0;
  try {
    for (const id of unique) {
      const moved = await store.retry({ id }, acting.at);
      for (const lead of moved) {
        done.moved.push(lead);
        countSent(done.sent, lead);
      }
      if (moved.length === 0) done.skipped[reasonSkipped(await store.getLead(id))] += 1;
      tried += 1;
    }
  } catch (error) {
    if (done.moved.length > 0) {
      const detail = describeRetry(
        done.moved.map((lead) => lead.id),
        done.sent,
        done.skipped,
      );
      await recordAudit(store, acting, {
        action: 'lead.retry',
        detail: `${detail}; stopped by a server error before the other ${unique.length - tried} id(s)`,
      });
    }
    throw error;
  }
  const detail = describeRetry(
    done.moved.map((lead) => lead.id),
    done.sent,
    done.skipped,
  );
  await recordAudit(store, acting, { action: 'lead.retry', detail });
  return done;
}

/**
 * Sends a lead the CRM already has (delivered or delivered-test) once more. False: there is no such
 * lead, or it is in another state (the caller reads it again to say which).
 */
export async function sendLeadAgain(store: LeadOperationsStore, acting: Acting, id: string): Promise<boolean> {
  const before = await store.getLead(id);
  if (before === undefined) return false;
  const copy =
    before.state === 'delivered-test' ? 'the CRM had it only as a test; it gets it again' : 'the CRM already had it; it gets a second copy';
  return writeWithAudit(store, 'sendAgain', [id, acting.at], acting, { action: 'lead.send-again', detail: `${id} (${copy})` });
}

/** Takes a lead out of the outbox as spam, naming who judged it. False: no such lead, the CRM has it, or it is being sent. */
export function markLeadSpam(store: LeadOperationsStore, acting: Acting, id: string): Promise<boolean> {
  return writeWithAudit(store, 'markSpam', [id, `marked by ${acting.actor}`, acting.at], acting, { action: 'lead.spam', detail: id });
}

/** Deletes every lead of an address and its delivery history. The entry gives the count, never the address. */
export function eraseLeadsByEmail(store: LeadOperationsStore, acting: Acting, email: string): Promise<string[]> {
  return writeWithAudit(store, 'eraseByEmail', [email], acting, { action: 'leads.erase', describe: 'erased-count' });
}
