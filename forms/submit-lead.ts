// The one way the browser sends a lead: method, headers, timeout, the
// Idempotency-Key and the single automatic retry live here; callers get a result value, never a throw.

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
// The home and ROI forms mark their requests as XMLHttpRequest.
export const REQUESTED_WITH_HEADER = 'X-Requested-With';
export const REQUESTED_WITH_VALUE = 'XMLHttpRequest';
export const JSON_CONTENT_TYPE = 'application/json';

// A lead that has not been answered by then is treated as lost (and retried once, see below).
export const LEAD_REQUEST_TIMEOUT_MS = 15_000;
// A request that never reached an answer (network down, timeout), or that the relay asked to send
// again (503: its store was busy; 409: the same submission is still being stored), is sent once
// more after this pause, or after the relay's Retry-After up to RETRY_AFTER_MAX_MS.
export const NETWORK_RETRY_DELAY_MS = 1_000;
export const NETWORK_RETRIES = 1;
export const RETRY_AFTER_MAX_MS = 5_000;
// The relay's answers that mean "not stored yet, send the same submission again".
const TRY_AGAIN_STATUSES: ReadonlySet<number> = new Set([409, 503]);

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
  | { readonly ok: true; readonly status: number; readonly leadId?: string }
  | { readonly ok: false; readonly reason: 'http'; readonly status: number; readonly retryAfterMs?: number }
  | { readonly ok: false; readonly reason: 'network' | 'timeout' };

export type FetchLike = (
  input: string,
  init: RequestInit,
) => Promise<Pick<Response, 'ok' | 'status'> & { readonly headers?: Pick<Headers, 'get'>; readonly json?: () => Promise<unknown> }>;

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
    // Any 2xx is success. Our relay's answer names the stored lead (`{ "id": … }`), which the booking
    // page carries back in its webhook; any other body (a CRM posted to directly) is ignored.
    if (response.ok) {
      const leadId = await readLeadId(response);
      return { ok: true, status: response.status, ...(leadId === undefined ? {} : { leadId }) };
    }
    const retryAfterMs = readRetryAfterMs(response.headers?.get('retry-after') ?? null);
    return { ok: false, reason: 'http', status: response.status, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
  } catch (error) {
    return { ok: false, reason: isTimeout(error) ? 'timeout' : 'network' };
  }
}

/** The relay's lead id from a success answer's body, if it has one; a body that is not that JSON is no failure. */
async function readLeadId(response: { readonly json?: () => Promise<unknown> }): Promise<string | undefined> {
  try {
    const body = await response.json?.();
    const id = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).id : undefined;
    return typeof id === 'string' && /^[\w-]{1,64}$/.test(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

/** Retry-After in whole seconds, as the relay sends it; anything else is ignored. */
function readRetryAfterMs(value: string | null): number | undefined {
  return value !== null && /^\d{1,6}$/.test(value.trim()) ? Number(value.trim()) * 1_000 : undefined;
}

/**
 * A request that got no answer is retried, and so is a 503 or 409 (the relay saying "not stored
 * yet, send it again"); any other HTTP error is the server's considered reply.
 */
export function isRetryableFailure(result: SubmitLeadResult): boolean {
  if (result.ok) return false;
  return result.reason !== 'http' || TRY_AGAIN_STATUSES.has(result.status);
}

function retryDelayFor(result: SubmitLeadResult, defaultDelayMs: number): number {
  if (result.ok || result.reason !== 'http' || result.retryAfterMs === undefined) return defaultDelayMs;
  return Math.min(Math.max(result.retryAfterMs, defaultDelayMs), RETRY_AFTER_MAX_MS);
}

/** POSTs the submission as JSON; a retryable failure is retried once with the same key and body. */
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
    await sleep(retryDelayFor(result, retryDelayMs));
    result = await sendOnce(submission, fetchLead, timeoutMs);
  }
  return result;
}
