import { describe, expect, it } from 'vitest';
import {
  IDEMPOTENCY_KEY_HEADER,
  NETWORK_RETRY_DELAY_MS,
  RETRY_AFTER_MAX_MS,
  createLeadSubmission,
  submitLead,
  type FetchLike,
  type LeadSubmission,
} from './submit-lead.ts';

type Answer = number | 'network-error' | 'timeout' | { readonly status: number; readonly retryAfter: string };

/** A fetch that answers from a script and records every request it sees. */
function createFakeFetch(...answers: Answer[]) {
  const requests: { url: string; init: RequestInit }[] = [];
  const fetch: FetchLike = async (url, init) => {
    requests.push({ url, init });
    const answer = answers[Math.min(requests.length - 1, answers.length - 1)];
    if (answer === 'network-error') throw new TypeError('Failed to fetch');
    if (answer === 'timeout') throw new DOMException('The operation timed out.', 'TimeoutError');
    if (typeof answer === 'object') return { ok: false, status: answer.status, headers: new Headers({ 'retry-after': answer.retryAfter }) };
    const status = answer ?? 500;
    return { ok: status >= 200 && status < 300, status };
  };
  return { fetch, requests };
}

function createRecordingSleep() {
  const pausesMs: number[] = [];
  return { pausesMs, sleep: async (ms: number) => void pausesMs.push(ms) };
}

let keyCounter = 0;
const nextKey = () => `key-${(keyCounter += 1)}`;

function makeSubmission(markAsXhr = true): LeadSubmission {
  return createLeadSubmission({
    endpoint: '/api/leads',
    payload: { name: "Seán O'Brien", company: 'Smith & Sons' },
    markAsXhr,
    createKey: nextKey,
  });
}

const headersOf = (init: RequestInit) => init.headers as Record<string, string>;

describe('createLeadSubmission', () => {
  it('serialises the payload once and makes one key', () => {
    let calls = 0;
    const submission = createLeadSubmission({
      endpoint: '/api/leads',
      payload: { name: "Seán O'Brien", company: 'Smith & Sons' },
      markAsXhr: false,
      createKey: () => `only-${(calls += 1)}`,
    });
    expect(submission).toEqual({
      endpoint: '/api/leads',
      body: '{"name":"Seán O\'Brien","company":"Smith & Sons"}',
      idempotencyKey: 'only-1',
      markAsXhr: false,
    });
    expect(calls).toBe(1);
  });

  it('uses crypto.randomUUID by default', () => {
    const submission = createLeadSubmission({ endpoint: '/api/leads', payload: {}, markAsXhr: false });
    expect(submission.idempotencyKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe('submitLead request', () => {
  it('POSTs the body as JSON with the XMLHttpRequest marker and the key (home and ROI forms)', async () => {
    const { fetch, requests } = createFakeFetch(201);
    const submission = makeSubmission(true);
    await submitLead(submission, { fetch });
    expect(requests).toHaveLength(1);
    const [{ url, init }] = requests as [(typeof requests)[number]];
    expect(url).toBe('/api/leads');
    expect(init.method).toBe('POST');
    expect(init.body).toBe(submission.body);
    expect(headersOf(init)).toEqual({
      'Content-Type': 'application/json',
      'X-Requested-With': 'XMLHttpRequest',
      [IDEMPOTENCY_KEY_HEADER]: submission.idempotencyKey,
    });
    expect(init.signal).toBeInstanceOf(AbortSignal);
  });

  it('leaves the XMLHttpRequest marker out for the contact and landing forms', async () => {
    const { fetch, requests } = createFakeFetch(201);
    await submitLead(makeSubmission(false), { fetch });
    expect(Object.keys(headersOf(requests[0]!.init))).toEqual(['Content-Type', IDEMPOTENCY_KEY_HEADER]);
  });
});

describe('submitLead result', () => {
  it.each([200, 201, 202, 204, 299])('any 2xx is success (%i)', async (status) => {
    const { fetch } = createFakeFetch(status);
    await expect(submitLead(makeSubmission(), { fetch })).resolves.toEqual({ ok: true, status });
  });

  it("reads the stored lead's id from the relay's answer, so the booking page can carry it", async () => {
    const fetch = async () => ({ ok: true, status: 201, json: async () => ({ id: '0b6f8a52-4c1e-4c55-9f0e-2d7f3c1a9e11' }) });
    await expect(submitLead(makeSubmission(), { fetch })).resolves.toEqual({
      ok: true,
      status: 201,
      leadId: '0b6f8a52-4c1e-4c55-9f0e-2d7f3c1a9e11',
    });
  });

  it.each([
    ['a body that is not JSON', async () => Promise.reject(new SyntaxError('Unexpected token'))],
    ['a CRM answer without an id', async () => ({ received: true })],
    ['an id that is not an identifier', async () => ({ id: '<script>' })],
  ])('a success with %s is still a success, without a lead id', async (_what, json) => {
    const fetch = async () => ({ ok: true, status: 200, json });
    await expect(submitLead(makeSubmission(), { fetch })).resolves.toEqual({ ok: true, status: 200 });
  });

  it.each([301, 400, 404, 413, 422, 429, 500])('%i is an HTTP failure, not retried (the server answered)', async (status) => {
    const { fetch, requests } = createFakeFetch(status, 201);
    const { sleep, pausesMs } = createRecordingSleep();
    await expect(submitLead(makeSubmission(), { fetch, sleep })).resolves.toEqual({ ok: false, reason: 'http', status });
    expect(requests).toHaveLength(1);
    expect(pausesMs).toEqual([]);
  });

  it('retries a network failure once, after a pause, with the same key and body', async () => {
    const { fetch, requests } = createFakeFetch('network-error', 201);
    const { sleep, pausesMs } = createRecordingSleep();
    const submission = makeSubmission();
    await expect(submitLead(submission, { fetch, sleep })).resolves.toEqual({ ok: true, status: 201 });
    expect(requests).toHaveLength(2);
    expect(pausesMs).toEqual([NETWORK_RETRY_DELAY_MS]);
    for (const { init } of requests) {
      expect(headersOf(init)[IDEMPOTENCY_KEY_HEADER]).toBe(submission.idempotencyKey);
      expect(init.body).toBe(submission.body);
    }
  });

  it.each([
    ['503 (the relay’s store was busy)', 503, '2', 2_000],
    ['409 (the same submission is still being stored)', 409, '1', NETWORK_RETRY_DELAY_MS],
    ['503 with a Retry-After beyond the cap', 503, '120', RETRY_AFTER_MAX_MS],
  ])('retries a %s once after its Retry-After, with the same key and body', async (_case, status, retryAfter, pauseMs) => {
    const { fetch, requests } = createFakeFetch({ status, retryAfter }, 201);
    const { sleep, pausesMs } = createRecordingSleep();
    const submission = makeSubmission();
    await expect(submitLead(submission, { fetch, sleep })).resolves.toEqual({ ok: true, status: 201 });
    expect(pausesMs).toEqual([pauseMs]);
    expect(requests.map(({ init }) => [headersOf(init)[IDEMPOTENCY_KEY_HEADER], init.body])).toEqual([
      [submission.idempotencyKey, submission.body],
      [submission.idempotencyKey, submission.body],
    ]);
  });

  it('reports a 503 that lasts past the retry as an HTTP failure', async () => {
    const { fetch, requests } = createFakeFetch({ status: 503, retryAfter: '2' });
    const { sleep } = createRecordingSleep();
    await expect(submitLead(makeSubmission(), { fetch, sleep })).resolves.toEqual({
      ok: false,
      reason: 'http',
      status: 503,
      retryAfterMs: 2_000,
    });
    expect(requests).toHaveLength(2);
  });

  it('gives up after the single retry and reports the network failure', async () => {
    const { fetch, requests } = createFakeFetch('network-error');
    const { sleep } = createRecordingSleep();
    await expect(submitLead(makeSubmission(), { fetch, sleep })).resolves.toEqual({ ok: false, reason: 'network' });
    expect(requests).toHaveLength(2);
  });

  it('reports a timeout as such, and retries it like a network failure', async () => {
    const { fetch, requests } = createFakeFetch('timeout');
    const { sleep } = createRecordingSleep();
    await expect(submitLead(makeSubmission(), { fetch, sleep })).resolves.toEqual({ ok: false, reason: 'timeout' });
    expect(requests).toHaveLength(2);
  });

  it('sending the same submission again (the visitor retries) reuses its key; a new submission gets a new one', async () => {
    const { fetch, requests } = createFakeFetch(500, 201, 201);
    const first = makeSubmission();
    await submitLead(first, { fetch });
    await submitLead(first, { fetch });
    await submitLead(makeSubmission(), { fetch });
    const keys = requests.map(({ init }) => headersOf(init)[IDEMPOTENCY_KEY_HEADER]);
    expect(keys[0]).toBe(keys[1]);
    expect(keys[2]).not.toBe(keys[0]);
  });

  it('never throws, even when fetch itself is missing', async () => {
    const broken: FetchLike = () => {
      throw new TypeError('fetch is not a function');
    };
    const { sleep } = createRecordingSleep();
    await expect(submitLead(makeSubmission(), { fetch: broken, sleep, networkRetries: 0 })).resolves.toEqual({
      ok: false,
      reason: 'network',
    });
  });
});
