// What a retry will send and what it did, in words, from the leads themselves: the confirmation
// counts the selected rows the inbox shows, and the answer repeats the server's own tally, so the
// two can never disagree with the list or with the audit log.
import { leadStatusOf, type LeadSummary, type RetryResult, type RetrySent, type RetrySkipped } from '../../api-types.ts';
import { plural } from '../parts/format.tsx';

const SKIPPED_WORDS: Readonly<Record<keyof RetrySkipped, string>> = {
  spam: 'spam',
  delivered: 'already delivered',
  sending: 'being sent right now',
  missing: 'no longer there',
};

/** "a", "a and b", "a, b and c". */
function joinWords(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/** "1 failed, 2 waiting": the non-zero counts in the tally's order. */
function countsOf(counts: Readonly<Record<string, number>>, words: Readonly<Record<string, string>> = {}): string[] {
  return Object.entries(counts)
    .filter(([, count]) => count > 0)
    .map(([kind, count]) => `${count} ${words[kind] ?? kind}`);
}

const total = (counts: Readonly<Record<string, number>>) => Object.values(counts).reduce((sum, count) => sum + count, 0);

export type RetryPlan = { sent: RetrySent; skipped: Pick<RetrySkipped, 'spam' | 'delivered'> };

/** What a retry of these leads sends, by status, and what it skips, as the inbox shows them now. */
export function planRetry(leads: readonly LeadSummary[]): RetryPlan {
  const sent: RetrySent = { failed: 0, held: 0, waiting: 0, retrying: 0 };
  const skipped = { spam: 0, delivered: 0 };
  for (const lead of leads) {
    const status = leadStatusOf(lead.state, lead.attempts);
    if (status === 'spam') skipped.spam += 1;
    else if (status === 'delivered' || status === 'delivered-test') skipped.delivered += 1;
    else sent[status] += 1;
  }
  return { sent, skipped };
}

export const plannedCount = (plan: RetryPlan) => total(plan.sent);

/** The confirmation: "2 leads will be sent to the CRM: 1 failed and 1 waiting. 3 spam and 2 already delivered will be skipped." */
export function describePlan(plan: RetryPlan): string {
  const skipped = joinWords(countsOf(plan.skipped, SKIPPED_WORDS));
  const count = plannedCount(plan);
  if (count === 0) return `None of the selected leads can be retried: ${skipped}.`;
  const sent = `${plural(count, 'lead', 'leads')} will be sent to the CRM: ${joinWords(countsOf(plan.sent))}.`;
  return skipped === '' ? sent : `${sent} ${skipped} will be skipped.`;
}

/** The answer to a retry of chosen leads, from the server's tally of what it did. */
export function describeRetried(result: RetryResult): string {
  const skipped = joinWords(countsOf(result.skipped, SKIPPED_WORDS));
  const skippedSentence = skipped === '' ? '' : ` Skipped: ${skipped}.`;
  if (result.retried === 0) return `No lead was sent.${skippedSentence}`;
  return `${plural(result.retried, 'lead', 'leads')} will be sent to the CRM: ${joinWords(countsOf(result.sent))}.${skippedSentence}`;
}

/** The answer to "Retry every failed lead": only failed leads go; retrying ones keep their schedule. */
export function describeAllFailedRetried(result: RetryResult): string {
  return result.retried === 0
    ? 'No lead has failed: nothing was sent. Leads that are retrying are tried again on their own schedule.'
    : `${plural(result.retried, 'failed lead', 'failed leads')} will be sent to the CRM again.`;
}
