// What one CRM answer means for a lead, as pure functions of the answer, the attempt
// count, the schedule, the time and a random number: 2xx is delivered (or delivered-test when the
// body says it was only a test), 410 stops, anything else is retried on the schedule with jitter,
// never sooner than a 429/503's Retry-After; after the last scheduled wait the lead is failed.

export type CrmAnswer =
  | {
      readonly kind: 'answered';
      readonly status: number;
      readonly body: string;
      /** The Retry-After header as given, if any. */
      readonly retryAfter: string | undefined;
      readonly durationMs: number;
    }
  | { readonly kind: 'unanswered'; readonly error: string; readonly durationMs: number };

export type DeliveryDecision = {
  readonly nextState: 'delivered' | 'delivered-test' | 'failed' | 'pending';
  readonly nextAttemptAt: number | undefined;
  /** Why it was not delivered, for the log; undefined when delivered. */
  readonly reason: string | undefined;
};

// GoHighLevel answers 'Success: test request received' while its workflow is a draft.
export const TEST_REQUEST_PATTERN = /\btest request\b/i;
// 410 Gone: the webhook no longer exists; resending cannot help.
const GONE = 410;
const STATUSES_WITH_RETRY_AFTER: readonly number[] = [429, 503];
// Each wait is spread ±20% so leads that failed together do not retry in lockstep.
export const JITTER_RATIO = 0.2;
// A Retry-After beyond a day is treated as a day: the schedule's longest wait.
export const MAX_RETRY_AFTER_MS = 86_400_000;
const MS_PER_SECOND = 1_000;
const HTTP_DATE_START = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)/i;

export type DecideOptions = {
  /** Attempts made before this one. */
  readonly attemptsBefore: number;
  readonly retryDelaysMs: readonly number[];
  readonly now: number;
  /** A number in [0, 1), e.g. Math.random. */
  readonly random: () => number;
};

export function decideDelivery(answer: CrmAnswer, { attemptsBefore, retryDelaysMs, now, random }: DecideOptions): DeliveryDecision {
  if (answer.kind === 'answered' && isSuccess(answer.status)) {
    const nextState = TEST_REQUEST_PATTERN.test(answer.body) ? 'delivered-test' : 'delivered';
    return { nextState, nextAttemptAt: undefined, reason: undefined };
  }
  const reason = answer.kind === 'answered' ? `HTTP ${answer.status}` : answer.error;
  if (answer.kind === 'answered' && answer.status === GONE) return { nextState: 'failed', nextAttemptAt: undefined, reason };

  const scheduledDelayMs = retryDelaysMs[attemptsBefore];
  if (scheduledDelayMs === undefined) return { nextState: 'failed', nextAttemptAt: undefined, reason };
  let delayMs = applyJitter(scheduledDelayMs, random);
  if (answer.kind === 'answered' && STATUSES_WITH_RETRY_AFTER.includes(answer.status)) {
    const retryAfterMs = parseRetryAfterMs(answer.retryAfter, now);
    if (retryAfterMs !== undefined) delayMs = Math.max(delayMs, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS));
  }
  return { nextState: 'pending', nextAttemptAt: now + Math.round(delayMs), reason };
}

export function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

export function applyJitter(delayMs: number, random: () => number): number {
  return delayMs * (1 - JITTER_RATIO + 2 * JITTER_RATIO * random());
}

/** Retry-After as delay-seconds or an HTTP date (RFC 9110 §10.2.3), in ms from `now`; undefined if unreadable. */
export function parseRetryAfterMs(value: string | undefined, now: number): number | undefined {
  const text = value?.trim();
  if (text === undefined || text === '') return undefined;
  if (/^\d+$/.test(text)) return Number(text) * MS_PER_SECOND;
  // Only an HTTP date (it names a weekday, e.g. 'Wed, 21 Oct 2015 07:28:00 GMT'): Date.parse alone reads '-5' as a year.
  if (!HTTP_DATE_START.test(text)) return undefined;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
