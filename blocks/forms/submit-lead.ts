// The one way the browser sends a lead (STYLE.md convention 8): method, headers, timeout, the
// Idempotency-Key and the single automatic retry live here; callers get a result value, never a throw.

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
// Spec §7: the home and ROI forms mark their requests as XMLHttpRequest.
export const REQUESTED_WITH_HEADER = 'X-Requested-With';
export const REQUESTED_WITH_VALUE = 'XMLHttpRequest';
export const JSON_CONTENT_TYPE = 'application/json';

// A lead that has not been answered by then is treated as lost (and retried once, see below).
export const LEAD_REQUEST_TIMEOUT_MS = 15_000;
// A request that never reached an answer (network down, timeout) is sent once more after this pause.
export const NETWORK_RETRY_DELAY_MS = 1_000;
export const NETWORK_RETRIES = 1;

/**
 * One submission: the body is serialised and the key made once, so every resend of this submission
 * (the automatic retry, or the visitor pressing the button again with unchanged values) carries the
 * same bytes and the same Idempotency-Key, and the relay stores the lead at most once.
 */
export interface LeadSubmission {
  readonly endpoint: string;
  readonly body: string;
  readonly idempotencyKey: string;
  readonly markAsXhr: boolean;
}

export interface CreateLeadSubmissionOptions {
  readonly endpoint: string;
  readonly payload: Readonly<Record<string, unknown>>;
  readonly markAsXhr: boolean;
  /** Makes the Idempotency-Key; `crypto.randomUUID` in the browser. */
  readonly createKey?: () => string;
}

export function createLeadSubmission({
  endpoint,
  payload,
  markAsXhr,
  createKey = () => crypto.randomUUID(),
}: CreateLeadSubmissionOptions): LeadSubmission {
  return { endpoint, body: JSON.stringify(payload), idempotencyKey: createKey(), markAsXhr };
}

export type LeadFailureReason = 'http' | 'network' | 'timeout';

export type SubmitLeadResult =
  | { readonly ok: true; readonly status: number }
  | { readonly ok: false; readonly reason: 'http'; readonly status: number }
  | { readonly ok: false; readonly reason: 'network' | 'timeout' };

export type FetchLike = (input: string, init: RequestInit) => Promise<Pick<Response, 'ok' | 'status'>>;

export interface SubmitLeadOptions {
  readonly fetch?: FetchLike;
  readonly timeoutMs?: number;
  readonly retryDelayMs?: number;
  readonly networkRetries?: number;
  readonly sleep?: (ms: number) => Promise<void>;
}

export function leadRequestHeaders(submission: LeadSubmission): Record<string, string> {
  return {
    'Content-Type': JSON_CONTENT_TYPE,
    ...(submission.markAsXhr ? { [REQUESTED_WITH_HEADER]: REQUESTED_WITH_VALUE } : {}),
    [IDEMPOTENCY_KEY_HEADER]: submission.idempotencyKey,
  };
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
}

async function sendOnce(submission: LeadSubmission, fetchLead: FetchLike, timeoutMs: number): Promise<SubmitLeadResult> {
  try {
    const response = await fetchLead(submission.endpoint, {
      method: 'POST',
      headers: leadRequestHeaders(submission),
      body: submission.body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    // Spec §7: any 2xx is success; the body is not read.
    return response.ok ? { ok: true, status: response.status } : { ok: false, reason: 'http', status: response.status };
  } catch (error) {
    return { ok: false, reason: isTimeout(error) ? 'timeout' : 'network' };
  }
}

/** Only a request that got no answer is retried: an HTTP error is the server's considered reply. */
export function isRetryableFailure(result: SubmitLeadResult): boolean {
  return !result.ok && result.reason !== 'http';
}

/** POSTs the submission as JSON; a network failure or timeout is retried once with the same key and body. */
export async function submitLead(submission: LeadSubmission, options: SubmitLeadOptions = {}): Promise<SubmitLeadResult> {
  const {
    fetch: fetchLead = (input, init) => globalThis.fetch(input, init),
    timeoutMs = LEAD_REQUEST_TIMEOUT_MS,
    retryDelayMs = NETWORK_RETRY_DELAY_MS,
    networkRetries = NETWORK_RETRIES,
    sleep = wait,
  } = options;
  let result = await sendOnce(submission, fetchLead, timeoutMs);
  for (let retry = 0; retry < networkRetries && isRetryableFailure(result); retry += 1) {
    await sleep(retryDelayMs);
    result = await sendOnce(submission, fetchLead, timeoutMs);
  }
  return result;
}
