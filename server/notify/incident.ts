import type { DeliveryHealth, IncidentRecord } from '../store/notifications/notification-store.ts';

// A delivery incident: the CRM has taken no lead since a delivery first failed, and that was at
// least ALERT_AFTER_MINUTES ago. It opens once (one alert) and closes at the first success after
// it started (one recovery notice). Every process judges from the same stored record, so all of
// them reach the same `since`, which keys the alert: two processes never send it twice.

export type IncidentDecision =
  | { readonly kind: 'none' }
  /** Deliveries have failed since `since` (the first failure after the last success), long enough to alert. */
  | { readonly kind: 'open'; readonly since: number; readonly lastError: string | undefined }
  /** The open incident that started at `since` is over: a delivery succeeded at `recoveredAt`. */
  | { readonly kind: 'recover'; readonly since: number; readonly recoveredAt: number };

export type JudgeIncidentInput = {
  readonly health: DeliveryHealth;
  readonly open: Pick<IncidentRecord, 'since'> | undefined;
  readonly now: number;
  readonly alertAfterMs: number;
};

/** What to do about incidents now, from the CRM's delivery record and the incident already open. */
export function judgeIncident({ health, open, now, alertAfterMs }: JudgeIncidentInput): IncidentDecision {
  if (open !== undefined) {
    const { lastSuccessAt } = health;
    return lastSuccessAt !== undefined && lastSuccessAt >= open.since
      ? { kind: 'recover', since: open.since, recoveredAt: lastSuccessAt }
      : { kind: 'none' };
  }
  const { firstFailureAt } = health;
  if (firstFailureAt === undefined || now - firstFailureAt < alertAfterMs) return { kind: 'none' };
  return { kind: 'open', since: firstFailureAt, lastError: health.lastFailure };
}
