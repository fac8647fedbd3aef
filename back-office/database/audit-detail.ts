import { leadStatusOf, type DeliveryState } from '../../lead/delivery-states.ts';

// The audit details that depend on what a change did (how many leads an erasure deleted, the role an
// account had before), worded from the change's result inside its own transaction. A store method
// runs on the SQLite worker thread, where no function can be sent, so the operation names the
// wording as data (an `AuditDetailKind`) and both engines turn it into the sentence here, with the
// words the console's audit screen has always shown. Pure: no store, no clock.

/** Lead ids named in one audit entry; beyond these the entry gives the count. */
const AUDITED_IDS = 20;

/** A lead a retry moved: the state it left and the attempts it had made. */
export type MovedLead = { readonly id: string; readonly from: DeliveryState; readonly attempts: number };

/** Each wording, and the result of the store method it words. */
export type AuditDetailResults = {
  /** eraseByEmail: "2 lead(s)", never the address. */
  readonly 'erased-count': readonly string[];
  /** setAccountRole, when it changed the role: "li@example.com: viewer → admin". */
  readonly 'role-change': { readonly account: { readonly email: string; readonly role: string }; readonly previousRole: string };
  /** purgeExpired: "3 leads, 1 spam". */
  readonly 'purge-counts': { readonly leads: number; readonly spam: number };
  /** retry of every failed lead: "every failed lead: sent 2 lead(s): a, b (2 failed)". */
  readonly 'every-failed-retry': readonly MovedLead[];
  /** releaseOwner: the leads a removed or demoted person no longer owns, "back to unassigned: 2 lead(s): a, b". */
  readonly 'released-leads': readonly string[];
  /**
   * A booking provider's webhook about a lead's meeting: "<lead id>: meeting booked for
   * 2026-12-01 15:00 UTC (Cal.com, matched by the e-mail address)". Never the invitee's address.
   */
  readonly 'booking-linked': {
    readonly leadId: string;
    readonly change: 'created' | 'rescheduled' | 'cancelled';
    readonly provider: string;
    readonly startsAt: number;
    readonly matchedBy: 'lead-id' | 'email';
  };
};

export type AuditDetailKind = keyof AuditDetailResults;

function describeIds(ids: readonly string[]): string {
  const named = ids.slice(0, AUDITED_IDS).join(', ');
  return `${ids.length} lead(s): ${named}${ids.length > AUDITED_IDS ? ', …' : ''}`;
}

/** "2 failed, 1 waiting": the non-zero counts of a retry's tally, in its order; "" when all are zero. */
function describeCounts(counts: Readonly<Record<string, number>>, words: Readonly<Record<string, string>> = {}): string {
  return Object.entries(counts)
    .filter(([, count]) => count > 0)
    .map(([kind, count]) => `${count} ${words[kind] ?? kind}`)
    .join(', ');
}

/** What a retry sent, by the status each lead had (the console's `RetrySent`). */
export type RetrySentCounts = { failed: number; held: number; waiting: number; retrying: number };
/** What a retry left alone, and why (the console's `RetrySkipped`). */
export type RetrySkippedCounts = { spam: number; delivered: number; sending: number; missing: number };

export const noneSent = (): RetrySentCounts => ({ failed: 0, held: 0, waiting: 0, retrying: 0 });
export const noneSkipped = (): RetrySkippedCounts => ({ spam: 0, delivered: 0, sending: 0, missing: 0 });

/** Counts a moved lead under the status it had. */
export function countSent(tally: RetrySentCounts, moved: MovedLead): void {
  const status = leadStatusOf(moved.from, moved.attempts);
  if (status === 'failed' || status === 'held' || status === 'waiting' || status === 'retrying') tally[status] += 1;
}

export function tallySent(moved: readonly MovedLead[]): RetrySentCounts {
  const sent = noneSent();
  for (const lead of moved) countSent(sent, lead);
  return sent;
}

const SKIPPED_WORDS: Readonly<Record<keyof RetrySkippedCounts, string>> = {
  spam: 'spam',
  delivered: 'already delivered',
  sending: 'being sent right now',
  missing: 'not found',
};

/** A retry's audit detail: exactly what was sent, by status, with the ids, and what was skipped and why. */
export function describeRetry(sentIds: readonly string[], sent: RetrySentCounts, skipped: RetrySkippedCounts): string {
  const kinds = describeCounts(sent);
  const skips = describeCounts(skipped, SKIPPED_WORDS);
  const what = sentIds.length === 0 ? 'sent nothing' : `sent ${describeIds(sentIds)} (${kinds})`;
  return `${what}${skips === '' ? '' : `; skipped ${skips}`}`;
}

const MEETING_CHANGE_WORDS = { created: 'booked for', rescheduled: 'moved to', cancelled: 'cancelled, it was for' } as const;

const DESCRIBED: { readonly [K in AuditDetailKind]: (result: AuditDetailResults[K]) => string } = {
  'erased-count': (ids) => `${ids.length} lead(s)`,
  'role-change': ({ account, previousRole }) => `${account.email}: ${previousRole} → ${account.role}`,
  'purge-counts': ({ leads, spam }) => `${leads} leads, ${spam} spam`,
  'every-failed-retry': (moved) =>
    `every failed lead: ${describeRetry(
      moved.map((lead) => lead.id),
      tallySent(moved),
      noneSkipped(),
    )}`,
  'released-leads': (ids) => `back to unassigned: ${describeIds(ids)}`,
  'booking-linked': ({ leadId, change, provider, startsAt, matchedBy }) =>
    `${leadId}: meeting ${MEETING_CHANGE_WORDS[change]} ${new Date(startsAt).toISOString().slice(0, 16).replace('T', ' ')} UTC ` +
    `(${provider}, matched by ${matchedBy === 'lead-id' ? 'the lead id the booking page carried' : 'the e-mail address'})`,
};

/** The detail `kind` words from `result`, the result of the change it describes. */
export function describeAuditDetail<Kind extends AuditDetailKind>(kind: Kind, result: AuditDetailResults[Kind]): string {
  const describe = DESCRIBED[kind] as ((result: AuditDetailResults[Kind]) => string) | undefined;
  // A kind sent from another thread is checked here, not only by the compiler.
  if (describe === undefined) throw new Error(`Unknown audit detail kind: ${String(kind)}`);
  return describe(result);
}
