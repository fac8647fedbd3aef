import { VALID_VALUES } from '../lead/testing/valid-values.ts';
import { describe, expect, it, vi } from 'vitest';
import { SHIPPED_ROI_PARAMETERS } from '../content-model/testing/shipped-content.ts';
import { createRoiFormSpec } from './roi/roi-form.ts';
import { contactFormSpec } from './contact-form.ts';
import type { LeadFormSpec } from './form-spec.ts';
import { homeFormSpec } from './home-form.ts';
import { landingFormSpec } from './landing-form.ts';
import type { PayloadContext } from '../lead/crm-payload.ts';
import { createRateLimiter, type StorageLike } from './rate-limit.ts';
import type { LeadFormId } from '../lead/rules.ts';
import { runSubmission, type PendingRetry, type SubmitFlowDeps } from './submit-flow.ts';
import type { LeadSubmission, SubmitLeadResult } from './submit-lead.ts';
import { CONNECTION_ERROR_MESSAGE, toastFor } from './toasts.ts';

const roiFormSpec = createRoiFormSpec(SHIPPED_ROI_PARAMETERS);

function createMemoryStorage(): StorageLike {
  const items = new Map<string, string>();
  return { getItem: (k) => items.get(k) ?? null, setItem: (k, v) => void items.set(k, v), removeItem: (k) => void items.delete(k) };
}

const CONTEXT: PayloadContext = {
  now: new Date('2025-03-04T05:06:07.089Z'),
  pageUrl: 'https://example.com/?utm_source=newsletter',
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64)',
  referrer: '',
  attribution: { utm_source: 'newsletter', landing_page: 'https://example.com/?utm_source=newsletter' },
};

const ROI_VALUES = VALID_VALUES.roi;

const HOME_VALUES = { name: "Seán O'Brien", email: 'sean@example.com', phone: '+1 512 555 0147', company: 'Smith & Sons' };

function setUp<F extends LeadFormId>(
  spec: LeadFormSpec<F>,
  overrides: Partial<SubmitFlowDeps> = {},
  answers: SubmitLeadResult[] = [{ ok: true, status: 201 }],
) {
  let nowMs = 1_700_000_000_000;
  const limiter = createRateLimiter({ policy: spec.rateLimit, storage: createMemoryStorage(), now: () => nowMs });
  const sent: LeadSubmission[] = [];
  let keys = 0;
  const deps: SubmitFlowDeps = {
    limiter,
    endpoint: '/api/leads',
    createContext: () => CONTEXT,
    spam: { website: '', form_shown_at: 1_699_999_990_000 },
    retry: undefined,
    createKey: () => `key-${(keys += 1)}`,
    send: async (submission) => {
      sent.push(submission);
      return answers[Math.min(sent.length - 1, answers.length - 1)]!;
    },
    onSending: vi.fn(),
    ...overrides,
  };
  return { deps, sent, limiter, advanceMs: (ms: number) => void (nowMs += ms) };
}

describe('runSubmission order', () => {
  it('checks the rate limit before anything else: a blocked press validates and sends nothing', async () => {
    const { deps, sent } = setUp(homeFormSpec);
    for (let press = 0; press < 3; press += 1) await runSubmission(homeFormSpec, { name: '', email: '', phone: '', company: '' }, deps);
    const outcome = await runSubmission(homeFormSpec, HOME_VALUES, deps);
    expect(outcome).toEqual({ kind: 'rate-limited', retryAfterSeconds: 600 });
    expect(sent).toEqual([]);
    expect(deps.onSending).not.toHaveBeenCalled();
  });

  it('reports every invalid field with the schema message, and sends nothing', async () => {
    const { deps, sent } = setUp(homeFormSpec);
    const outcome = await runSubmission(homeFormSpec, { name: 'A', email: 'nope', phone: '123', company: '' }, deps);
    expect(outcome).toEqual({
      kind: 'invalid',
      fieldErrors: {
        name: 'Name must be at least 2 characters',
        email: 'Please enter a valid email',
        phone: 'Please enter a valid phone number',
        company: 'Company name required',
      },
    });
    expect(sent).toEqual([]);
  });

  it('sends our relay the values as typed, the form, the visit and the spam fields', async () => {
    const { deps, sent } = setUp(homeFormSpec);
    const outcome = await runSubmission(homeFormSpec, HOME_VALUES, deps);
    expect(outcome).toMatchObject({ kind: 'sent', demo: false, data: HOME_VALUES });
    expect(deps.onSending).toHaveBeenCalledTimes(1);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ endpoint: '/api/leads', idempotencyKey: 'key-1', markAsXhr: true });
    expect(JSON.parse(sent[0]!.body)).toEqual({
      utm_source: 'newsletter',
      landing_page: 'https://example.com/?utm_source=newsletter',
      name: "Seán O'Brien",
      email: 'sean@example.com',
      phone: '+1 512 555 0147',
      company: 'Smith & Sons',
      submitted_at: '2025-03-04T05:06:07.089Z',
      source: 'Homepage Simple Lead Form',
      page_url: 'https://example.com/?utm_source=newsletter',
      user_agent: 'Mozilla/5.0 (X11; Linux x86_64)',
      referrer: '',
      website: '',
      form_shown_at: 1_699_999_990_000,
    });
  });

  it('validates, and builds and sends the request, each after a pause: on a phone they are tasks of their own', async () => {
    const steps: string[] = [];
    const { deps } = setUp(homeFormSpec, {
      pause: async () => void steps.push('pause'),
      onSending: () => void steps.push('valid'),
      send: async () => {
        steps.push('sent');
        return { ok: true, status: 201 };
      },
    });
    await runSubmission(homeFormSpec, HOME_VALUES, deps);
    expect(steps).toEqual(['pause', 'valid', 'pause', 'sent']);
  });

  it('sends the ROI revenue as the typed amount, with no figure of its own, to the relay', async () => {
    const { deps, sent } = setUp(roiFormSpec);
    const values = { ...ROI_VALUES };
    expect((await runSubmission(roiFormSpec, values, deps)).kind).toBe('sent');
    const body = JSON.parse(sent[0]!.body) as Record<string, unknown>;
    expect(body).toMatchObject({ currentRevenue: '2500000', source: 'AI ROI Calculator + Lead Form' });
    expect(Object.keys(body).filter((key) => key.startsWith('roi_') || key === 'current_revenue_usd')).toEqual([]);
  });

  it('sends a CRM webhook reached directly (no relay) the CRM payload, built by the same lead code', async () => {
    const { deps, sent } = setUp(roiFormSpec, { endpoint: 'https://services.crm.example/hooks/abc' });
    expect((await runSubmission(roiFormSpec, { ...ROI_VALUES }, deps)).kind).toBe('sent');
    const body = JSON.parse(sent[0]!.body) as Record<string, unknown>;
    expect(body).toMatchObject({
      currentRevenue: '2M-5M',
      current_revenue_usd: 2_500_000,
      roi_revenue_increase: 375_000,
      source: 'AI ROI Calculator + Lead Form',
    });
  });

  it('a success resets the counter when the policy says so (home) but not for the contact form', async () => {
    const home = setUp(homeFormSpec);
    for (let press = 0; press < 5; press += 1) expect((await runSubmission(homeFormSpec, HOME_VALUES, home.deps)).kind).toBe('sent');

    const contact = setUp(contactFormSpec);
    const values = {
      name: 'Ann',
      email: 'ann@example.com',
      phone: '555 0147',
      company: '',
      service_interest: 'AI Consulting',
      message: 'Please call me back.',
    };
    expect((await runSubmission(contactFormSpec, values, contact.deps)).kind).toBe('sent');
    expect((await runSubmission(contactFormSpec, values, contact.deps)).kind).toBe('sent');
    expect(await runSubmission(contactFormSpec, values, contact.deps)).toEqual({ kind: 'rate-limited', retryAfterSeconds: 300 });
    expect(contact.sent).toHaveLength(2);
  });
});

describe('demo mode (no PUBLIC_LEAD_ENDPOINT)', () => {
  it.each([
    ['home', homeFormSpec],
    ['landing', landingFormSpec],
  ] as const)('%s: a valid submission succeeds as demo and nothing is sent', async (_name, spec) => {
    const values =
      spec.formId === 'home' ? HOME_VALUES : { ...HOME_VALUES, revenue: '1m-5m', challenge: 'Too many missed calls.', bestTime: '' };
    const { deps, sent } = setUp(spec as LeadFormSpec, { endpoint: '' });
    const outcome = await runSubmission(spec as LeadFormSpec, values as never, deps);
    expect(outcome).toMatchObject({ kind: 'sent', demo: true });
    expect(sent).toEqual([]);
  });

  it('ROI: demo success carries the parsed values for the result screen, and the toast is "Demo Mode Success!"', async () => {
    const values = {
      name: "Seán O'Brien",
      email: 'sean@smith.example',
      phone: '(512) 555-0147',
      company: 'Smith & Sons',
      companySize: '11-50',
      currentRevenue: '2000000',
      industry: 'technology',
      teamSize: '10',
      averageSalary: '60000',
      manualHours: '10-20',
      best_time: '',
      challenge: '',
    };
    const { deps, sent } = setUp(roiFormSpec, { endpoint: '' });
    const outcome = await runSubmission(roiFormSpec, values, deps);
    expect(outcome).toMatchObject({ kind: 'sent', demo: true, data: { currentRevenue: '2000000', company: 'Smith & Sons' } });
    expect(sent).toEqual([]);
    expect(toastFor(roiFormSpec.toasts, { kind: 'sent', demo: true }).title).toBe('Demo Mode Success!');
  });

  it('still checks the rate limit and the values first', async () => {
    const { deps } = setUp(homeFormSpec, { endpoint: '' });
    expect((await runSubmission(homeFormSpec, { ...HOME_VALUES, email: 'x' }, deps)).kind).toBe('invalid');
  });
});

describe('failures and retries with the same Idempotency-Key', () => {
  it('a failure returns the submission to retry; pressing again with unchanged values resends it as is', async () => {
    const { deps, sent } = setUp(homeFormSpec, {}, [
      { ok: false, reason: 'http', status: 500 },
      { ok: true, status: 201 },
    ]);
    const first = await runSubmission(homeFormSpec, HOME_VALUES, deps);
    expect(first.kind).toBe('failed');
    const retry = (first as { retry: PendingRetry }).retry;
    const second = await runSubmission(homeFormSpec, HOME_VALUES, { ...deps, retry });
    expect(second.kind).toBe('sent');
    expect(sent).toHaveLength(2);
    expect(sent[1]).toBe(sent[0]);
  });

  it('changed values are a new submission with a new key', async () => {
    const { deps, sent } = setUp(homeFormSpec, {}, [
      { ok: false, reason: 'network' },
      { ok: true, status: 201 },
    ]);
    const first = await runSubmission(homeFormSpec, HOME_VALUES, deps);
    const retry = (first as { retry: PendingRetry }).retry;
    await runSubmission(homeFormSpec, { ...HOME_VALUES, company: 'Smith & Daughters' }, { ...deps, retry });
    expect(sent.map((submission) => submission.idempotencyKey)).toEqual(['key-1', 'key-2']);
  });

  it('trimming differences do not count as a change (the parsed values are compared)', async () => {
    const { deps, sent } = setUp(homeFormSpec, {}, [
      { ok: false, reason: 'network' },
      { ok: true, status: 201 },
    ]);
    const first = await runSubmission(homeFormSpec, HOME_VALUES, deps);
    const retry = (first as { retry: PendingRetry }).retry;
    await runSubmission(homeFormSpec, { ...HOME_VALUES, name: `  ${HOME_VALUES.name} ` }, { ...deps, retry });
    expect(sent[1]!.idempotencyKey).toBe('key-1');
  });

  it('a failure does not reset the counter', async () => {
    const { deps } = setUp(landingFormSpec, {}, [{ ok: false, reason: 'http', status: 500 }]);
    const values = { ...HOME_VALUES, revenue: '1m-5m', challenge: 'Missed calls.', bestTime: 'morning' };
    for (let press = 0; press < 3; press += 1) expect((await runSubmission(landingFormSpec, values, deps)).kind).toBe('failed');
    expect((await runSubmission(landingFormSpec, values, deps)).kind).toBe('rate-limited');
  });
});

describe('the ROI toast after sending', () => {
  it("is the site settings' wording when they give one, under the same title", () => {
    const spec = createRoiFormSpec(SHIPPED_ROI_PARAMETERS, 'Our team will call you within 24 hours — or pick a time now.');
    expect(toastFor(spec.toasts, { kind: 'sent', demo: false })).toEqual({
      title: 'Success!',
      description: 'Our team will call you within 24 hours — or pick a time now.',
      variant: 'success',
    });
  });

  it('never says a meeting was booked', () => {
    for (const spec of [
      roiFormSpec,
      createRoiFormSpec(SHIPPED_ROI_PARAMETERS, 'Our team will call you within 24 hours — or pick a time now.'),
    ])
      expect(toastFor(spec.toasts, { kind: 'sent', demo: false }).description).not.toMatch(/booked/i);
  });
});

describe('toasts', () => {
  const CASES = [
    {
      spec: homeFormSpec as LeadFormSpec,
      rateLimited: ['Rate limit exceeded', 'Please wait 42 seconds before submitting again.', 'destructive'],
      invalid: ['Validation Error', 'Please check the form fields and try again.'],
      sent: ['Success!', "We'll be in touch soon to discuss your AI strategy."],
      failed: ['Error', CONNECTION_ERROR_MESSAGE, 'default'],
    },
    {
      spec: roiFormSpec as LeadFormSpec,
      rateLimited: ['Too many attempts', 'Please wait 42 seconds before submitting again.', 'default'],
      invalid: ['Validation Error', 'Please check the form and correct any errors.'],
      // Nothing is booked when the form is sent: the toast says only what will happen.
      sent: ['Success!', 'Our team will call you within 24 hours.'],
      failed: ['Submission Error', CONNECTION_ERROR_MESSAGE, 'default'],
    },
    {
      spec: contactFormSpec as LeadFormSpec,
      rateLimited: ['Rate limit exceeded', 'Please wait 42 seconds before submitting again.', 'destructive'],
      invalid: ['Validation Error', 'Please check the form fields and try again.'],
      sent: ['Message sent successfully!', "Thank you for contacting us. We'll get back to you within 24 hours."],
      failed: ['Error', expect.stringMatching(/try again/), 'destructive'],
    },
    {
      spec: landingFormSpec as LeadFormSpec,
      rateLimited: ['Too many attempts', 'Please wait a moment before submitting again.', 'default'],
      invalid: ['Validation Error', 'Please check the form for errors.'],
      sent: ['Success!', "We'll contact you within 24 hours to discuss your AI transformation."],
      failed: ['Error', expect.stringMatching(/try again/), 'default'],
    },
  ] as const;

  it.each(CASES)('$spec.formId', ({ spec, rateLimited, invalid, sent, failed }) => {
    const toast = (outcome: Parameters<typeof toastFor>[1]) => {
      const { title, description, variant } = toastFor(spec.toasts, outcome);
      return [title, description, variant];
    };
    expect(toast({ kind: 'rate-limited', retryAfterSeconds: 42 })).toEqual(rateLimited);
    expect(toast({ kind: 'invalid' })).toEqual([...invalid, 'default']);
    expect(toast({ kind: 'sent', demo: false })).toEqual([...sent, 'success']);
    expect(toast({ kind: 'failed' })).toEqual(failed);
    expect(toast({ kind: 'sent', demo: true })[0]).toBe('Demo Mode Success!');
  });
});
