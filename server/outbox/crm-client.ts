import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { CrmAnswer } from './delivery-policy.ts';
import { LEAD_EVENT_HEADER } from './crm-events.ts';
import { signWebhook } from './signature.ts';

// The one place that talks to the CRM: it sets the headers (JSON, Idempotency-Key = the message id:
// the lead id for a lead, the event's own id for a follow-up event, the Standard Webhooks signature
// when a secret is configured, X-Lead-Event on an event only), the per-attempt timeout, and turns
// whatever happens into a CrmAnswer value; it never throws. node:http(s) with a keep-alive agent
// rather than fetch: it costs the server thread about half the CPU per delivery.

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
  /**
   * Posts `body` once, signed as message `messageId` (a lead's id, or an event's message id). `event`
   * names a follow-up event in the X-Lead-Event header; a lead is sent without it.
   */
  send(messageId: string, body: string, event?: string): Promise<CrmAnswer>;
  /** Closes idle keep-alive connections. */
  close(): void;
};

export function createCrmClient({ url, secret, timeoutMs = CRM_TIMEOUT_MS, now = Date.now }: CrmClientOptions): CrmClient {
  const target = new URL(url);
  const isHttps = target.protocol === 'https:';
  const agent = isHttps ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const request = isHttps ? httpsRequest : httpRequest;

  return {
    send(messageId, body, event) {
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': USER_AGENT,
        'idempotency-key': messageId,
        ...(event === undefined ? {} : { [LEAD_EVENT_HEADER]: event }),
        ...(secret === undefined ? {} : signWebhook(secret, messageId, Math.floor(now() / MS_PER_SECOND), body)),
      };
      const started = performance.now();
      const elapsed = (): number => Math.round(performance.now() - started);
      return new Promise<CrmAnswer>((resolve) => {
        let settled = false;
        const settle = (answer: CrmAnswer): void => {
          if (settled) return;
          settled = true;
          resolve(answer);
        };
        const fail = (error: unknown): void =>
          settle({ kind: 'unanswered', error: describeFailure(error, timeoutMs), durationMs: elapsed() });
        const outgoing = request(
          target,
          { method: 'POST', agent, headers, signal: AbortSignal.timeout(timeoutMs) },
          (response: IncomingMessage) => {
            let text = '';
            response.setEncoding('utf8');
            response.on('data', (chunk: string) => {
              if (text.length < MAX_BODY_CHARS) text += chunk;
            });
            response.on('end', () =>
              settle({
                kind: 'answered',
                status: response.statusCode ?? 0,
                body: text.slice(0, MAX_BODY_CHARS),
                retryAfter: firstHeader(response.headers['retry-after']),
                durationMs: elapsed(),
              }),
            );
            response.on('error', fail);
            // Cut off mid-body (the timeout fired): no 'end' will come.
            response.on('close', () => fail(new Error('connection closed before the answer was complete')));
          },
        );
        outgoing.on('error', fail);
        outgoing.end(body);
      });
    },
    close() {
      agent.destroy();
    },
  };
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
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
