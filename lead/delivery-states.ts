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
