// The chaos run's visitors: lead posts and page-view beacons through the balancer, each from a
// source address of its own on the loopback network (127.x.y.z all reach this machine), so the
// balancer's X-Forwarded-For names a different visitor per address, as real traffic would, and
// nothing in the request can choose the address the servers' rate limits count.
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { LEAD_FORM_IDS } from '../../lead/rules.ts';
import { validLeadBody } from '../../server/testing/lead-bodies.ts';

// Idle connections are closed well before the balancer's 5 s keep-alive timeout, so a request never
// goes out on a connection the balancer is closing at that moment.
const agent = new Agent({ keepAlive: true, maxSockets: 2, timeout: 3_000 });
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

export type Answer = { status: number | undefined; body: string; ms: number; retryAfter: number | undefined; error?: string };

/** One HTTP request from `localAddress`; never rejects (a network error is an answer without status). */
export function send(
  baseUrl: string,
  localAddress: string,
  method: string,
  pathname: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs = 30_000,
): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve) => {
    const url = new URL(pathname, baseUrl);
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method,
        localAddress,
        agent,
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
        timeout: timeoutMs,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const retryAfter = Number(response.headers['retry-after']);
          resolve({
            status: response.statusCode,
            body: Buffer.concat(chunks).toString('utf8'),
            ms: performance.now() - started,
            retryAfter: Number.isFinite(retryAfter) ? retryAfter : undefined,
          });
        });
        response.on('error', (error) =>
          resolve({ status: undefined, body: '', ms: performance.now() - started, retryAfter: undefined, error: error.message }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (error) =>
      resolve({ status: undefined, body: '', ms: performance.now() - started, retryAfter: undefined, error: error.message }),
    );
    req.end(body);
  });
}

/** The n-th address of a block of loopback addresses (`127.<block>.x.y`, never .0 or .255). */
export function loopbackAddress(block: number, n: number): string {
  const host = n % 60_000;
  return `127.${block}.${Math.floor(host / 250) + 1}.${(host % 250) + 1}`;
}

let leadNumber = 0;

export type LeadOutcome = {
  readonly email: string;
  readonly key: string;
  /** The id of the stored lead once a 201 named it. */
  id: string | undefined;
  /** Every answer, in order (the first is the one a person waited for). */
  readonly answers: Answer[];
};

/**
 * One person sending a lead as the page's form does: a new Idempotency-Key for the submission, sent
 * again with the same key after a network error, a 503 or a 409 (another request with the key still
 * being stored), waiting Retry-After (at most 5 s), up to `tries` times in all.
 */
export async function sendLead(
  baseUrl: string,
  localAddress: string,
  options: { tries?: number; onAnswer?: (answer: Answer, started: number) => void } = {},
): Promise<LeadOutcome> {
  leadNumber += 1;
  const form = LEAD_FORM_IDS[leadNumber % LEAD_FORM_IDS.length] ?? 'home';
  const email = `chaos-${leadNumber}-${randomUUID().slice(0, 8)}@example.com`;
  const body = JSON.stringify({ ...validLeadBody(form), email });
  const outcome: LeadOutcome = { email, key: randomUUID(), id: undefined, answers: [] };
  const tries = options.tries ?? 8;
  for (let attempt = 0; attempt < tries; attempt++) {
    const started = Date.now();
    const answer = await send(
      baseUrl,
      localAddress,
      'POST',
      '/api/leads',
      { 'content-type': 'application/json', 'user-agent': BROWSER, 'idempotency-key': outcome.key },
      body,
    );
    outcome.answers.push(answer);
    options.onAnswer?.(answer, started);
    if (answer.status === 201) {
      outcome.id = (JSON.parse(answer.body) as { id: string }).id;
      return outcome;
    }
    const again = answer.status === undefined || answer.status === 503 || answer.status === 409;
    if (!again) return outcome;
    await new Promise((resolve) => setTimeout(resolve, Math.min(5, answer.retryAfter ?? 1) * 1_000));
  }
  return outcome;
}

let beaconNumber = 0;
const BEACON_PATHS = ['/', '/about'];

export function sendBeacon(baseUrl: string, localAddress: string): Promise<Answer> {
  beaconNumber += 1;
  return send(
    baseUrl,
    localAddress,
    'POST',
    '/api/events',
    { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': BROWSER },
    JSON.stringify({
      type: 'pageview',
      path: BEACON_PATHS[beaconNumber % BEACON_PATHS.length],
      referrer: beaconNumber % 3 === 0 ? 'https://news.example.org/story' : '',
    }),
    10_000,
  );
}

export type Pacer = {
  /** Resolves once the pacer stopped and every request it started has its answer. */
  stop(): Promise<void>;
  /** Requests not started because `maxInFlight` were still waiting (the clients, not the servers, were the limit). */
  readonly skipped: number;
  readonly started: number;
};

/** Starts `perSecond` calls of `task(n)` a second, evenly, never more than `maxInFlight` waiting at once. */
export function pace(perSecond: number, maxInFlight: number, task: (n: number) => Promise<unknown>): Pacer {
  const begin = performance.now();
  let started = 0;
  let skipped = 0;
  let inFlight = 0;
  const pending = new Set<Promise<unknown>>();
  const timer = setInterval(() => {
    const due = Math.floor(((performance.now() - begin) / 1_000) * perSecond);
    while (started + skipped < due) {
      if (inFlight >= maxInFlight) {
        skipped += 1;
        continue;
      }
      const n = started;
      started += 1;
      inFlight += 1;
      const run = task(n).finally(() => {
        inFlight -= 1;
        pending.delete(run);
      });
      pending.add(run);
    }
  }, 5);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.allSettled([...pending]);
    },
    get skipped() {
      return skipped;
    },
    get started() {
      return started;
    },
  };
}

/** Nearest rank. */
export function percentile(values: readonly number[], share: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))]!;
}
