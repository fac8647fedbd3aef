// Where a lead stands on its way to the CRM. The relay's store keeps one of these per lead, the
// console shows and filters by them and the CLI names them, so the names are defined once, here, in
// the lead domain every side may import.

export const DELIVERY_STATES = ['held', 'pending', 'delivered', 'delivered-test', 'failed', 'spam'] as const;
/**
 * held: no CRM_WEBHOOK_URL yet; pending: due at `nextAttemptAt`; delivered: the CRM answered 2xx;
 * delivered-test: a 2xx that says it was only a test (the lead reached no live workflow);
 * failed: out of attempts or the CRM answered 410; spam: kept, never forwarded.
 */
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/**
 * A lead's delivery in the console's words, one per lead, the same on every screen, filter, button,
 * answer and audit entry: held (no CRM is set up), waiting (due, not tried since it was last made
 * due), retrying (the CRM did not take the last attempt; more attempts are scheduled), delivered,
 * delivered-test, failed (given up: no attempts left, or refused for good) and spam.
 */
export const LEAD_STATUSES = ['held', 'waiting', 'retrying', 'delivered', 'delivered-test', 'failed', 'spam'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

/** The status of a lead in `state` with `attempts` made since it was last made due. */
export function leadStatusOf(state: DeliveryState, attempts: number): LeadStatus {
  if (state === 'pending') return attempts > 0 ? 'retrying' : 'waiting';
  return state;
}
