import type { LeadPayload } from '../store/lead-store.ts';
import type { CrmAnswer } from './delivery-policy.ts';
import { signWebhook } from './signature.ts';

// The one place that talks to the CRM: it sets the headers (JSON, Idempotency-Key = lead id, the
// Standard Webhooks signature when a secret is configured), the per-attempt timeout, and turns
// whatever happens into a CrmAnswer value; it never throws.

export const CRM_TIMEOUT_MS = 10_000;
// The answer body is kept with the attempt; more than this is never needed to understand it.
const MAX_BODY_CHARS = 16_384;
const USER_AGENT = 'lead-relay/1';
const MS_PER_SECOND = 1_000;

export type CrmClientOptions = {
  readonly url: string;
  readonly secret: string | undefined;
  readonly timeoutMs?: number;
  /** Milliseconds since the epoch (signature timestamps). */
  readonly now?: () => number;
};

export type CrmClient = {
  send(leadId: string, payload: LeadPayload): Promise<CrmAnswer>;
};

export function createCrmClient({ url, secret, timeoutMs = CRM_TIMEOUT_MS, now = Date.now }: CrmClientOptions): CrmClient {
  return {
    async send(leadId, payload) {
      const body = JSON.stringify(payload);
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        'idempotency-key': leadId,
        ...(secret === undefined ? {} : signWebhook(secret, leadId, Math.floor(now() / MS_PER_SECOND), body)),
      };
      const started = performance.now();
      const elapsed = (): number => Math.round(performance.now() - started);
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers,
          body,
          redirect: 'manual',
          signal: AbortSignal.timeout(timeoutMs),
        });
        const text = (await response.text()).slice(0, MAX_BODY_CHARS);
        return {
          kind: 'answered',
          status: response.status,
          body: text,
          retryAfter: response.headers.get('retry-after') ?? undefined,
          durationMs: elapsed(),
        };
      } catch (error) {
        return { kind: 'unanswered', error: describeFailure(error, timeoutMs), durationMs: elapsed() };
      }
    },
  };
}

function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return `timeout after ${timeoutMs} ms`;
  }
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  const message = cause instanceof Error ? cause.message : String(cause);
  return `network error: ${code ?? message}`;
}
