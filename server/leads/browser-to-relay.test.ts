import { describe, expect, it } from 'vitest';
import { contactFormSpec } from '../../forms/contact-form.ts';
import type { FieldName, LeadFormSpec } from '../../forms/form-spec.ts';
import { homeFormSpec } from '../../forms/home-form.ts';
import { landingFormSpec } from '../../forms/landing-form.ts';
import { createRateLimiter, type StorageLike } from '../../forms/rate-limit.ts';
import { runSubmission } from '../../forms/submit-flow.ts';
import type { LeadSubmission } from '../../forms/submit-lead.ts';
import { createRoiFormSpec } from '../../forms/roi/roi-form.ts';
import type { PayloadContext } from '../../lead/crm-payload.ts';
import { LEAD_FORM_IDS, LEAD_SOURCES, type LeadFormId } from '../../lead/rules.ts';
import { VALID_VALUES } from '../testing/lead-bodies.ts';
import { shippedRoiParameters } from '../../content-model/testing/shipped-content.ts';
import type { CallbackConsentWording } from '../../lead/callback-consent.ts';
import { takeInLead } from './intake.ts';

// What each form's own submit path in the browser sends (the form spec, its rules, the relay body)
// goes through the relay's intake: every form's submission is accepted as sent, and the CRM gets
// the payload the relay built.

const ROI_PARAMETERS = shippedRoiParameters();
const SPECS: { readonly [F in LeadFormId]: LeadFormSpec<F> } = {
  home: homeFormSpec,
  roi: createRoiFormSpec(ROI_PARAMETERS),
  contact: contactFormSpec,
  landing: landingFormSpec,
};
const SHOWN_AT_MS = Date.parse('2025-03-04T05:05:00.000Z');
const CONTEXT: PayloadContext = {
  now: new Date('2025-03-04T05:06:07.089Z'),
  pageUrl: 'https://www.example.com/page?utm_source=newsletter',
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64)',
  referrer: 'https://www.google.com/',
  attribution: { utm_source: 'newsletter', gclid: 'G-1', landing_page: 'https://www.example.com/?utm_source=newsletter' },
};

function memoryStorage(): StorageLike {
  const items = new Map<string, string>();
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

async function browserSubmission<F extends LeadFormId>(
  form: F,
  callbackConsent?: CallbackConsentWording,
  endpoint = '/api/leads',
): Promise<Record<string, unknown>> {
  const spec = SPECS[form] as LeadFormSpec<F>;
  const sent: LeadSubmission[] = [];
  const values = VALID_VALUES[form] as unknown as Readonly<Record<FieldName<F>, string>>;
  const outcome = await runSubmission(spec, values, {
    limiter: createRateLimiter({ policy: spec.rateLimit, storage: memoryStorage(), now: () => SHOWN_AT_MS }),
    endpoint,
    createContext: () => CONTEXT,
    callbackConsent,
    spam: { website: '', form_shown_at: SHOWN_AT_MS },
    retry: undefined,
    send: async (submission) => {
      sent.push(submission);
      return { ok: true, status: 201 };
    },
  });
  expect(outcome.kind).toBe('sent');
  return JSON.parse(sent[0]!.body) as Record<string, unknown>;
}

const intakeContext = {
  receivedAt: Date.parse('2025-03-04T05:06:08.000Z'),
  roiParameters: ROI_PARAMETERS,
  callbackWordings: new Map<string, string>(),
  userAgentHeader: undefined,
  refererHeader: undefined,
};

describe('every form’s browser submission through the relay’s intake', () => {
  it.each(LEAD_FORM_IDS)('%s: accepted as sent, the CRM payload built by the relay', async (form) => {
    const intake = takeInLead(await browserSubmission(form), intakeContext);
    expect(intake).toMatchObject({ kind: 'accepted', formId: form, source: LEAD_SOURCES[form], spamReason: undefined });
    if (intake.kind !== 'accepted') return;
    const { source: _source, ...values } = { ...VALID_VALUES[form], source: '' };
    for (const [field, value] of Object.entries(values)) {
      // The ROI form's revenue becomes its bracket; its amount travels as current_revenue_usd.
      if (form === 'roi' && field === 'currentRevenue') continue;
      expect(intake.payload[field], field).toBe(value);
    }
    expect(intake.payload).toMatchObject({
      source: LEAD_SOURCES[form],
      submitted_at: '2025-03-04T05:06:08.000Z',
      page_url: CONTEXT.pageUrl,
      utm_source: 'newsletter',
      gclid: 'G-1',
      landing_page: CONTEXT.attribution.landing_page,
    });
    expect(intake.payload).not.toHaveProperty('website');
    expect(intake.payload).not.toHaveProperty('form_shown_at');
  });

  it('the ROI form: bracket, amount and every figure computed by the relay with the build’s numbers', async () => {
    const intake = takeInLead(await browserSubmission('roi'), intakeContext);
    // 2,500,000 × 0.15 = 375,000; 15 h × 52 × (65,000 / 2,080) × 12 = 292,500.
    expect(intake).toMatchObject({
      payload: {
        currentRevenue: '2M-5M',
        current_revenue_usd: 2_500_000,
        roi_revenue_increase: 375_000,
        roi_labor_savings: 292_500,
        roi_total_savings: 667_500,
        roi_percentage: 1_235,
        roi_hours_saved_weekly: 15,
        roi_uplift_percentage: 15,
        user_agent: CONTEXT.userAgent,
        referrer: CONTEXT.referrer,
      },
    });
  });
});

describe('call me back now, from the browser to the relay', () => {
  const shown = { version: '2026-11', text: 'Example Co may call me now with an automated or artificial voice.' };

  it('the browser sends only that the box was ticked and the version; the relay records its own words for it', async () => {
    const body = await browserSubmission('contact', shown);
    expect(body).toMatchObject({ callback_requested: true, callback_consent_version: '2026-11' });
    expect(body).not.toHaveProperty('callback_consent_text');
    const relayWords = 'The words this relay published for 2026-11.';
    const intake = takeInLead(body, { ...intakeContext, callbackWordings: new Map([['2026-11', relayWords]]) });
    expect(intake).toMatchObject({
      kind: 'accepted',
      payload: {
        callback_requested: true,
        callback_consent_text: relayWords,
        callback_consent_at: '2025-03-04T05:06:08.000Z',
        callback_consent_version: '2026-11',
        callback_consent_page: CONTEXT.pageUrl,
      },
    });
  });

  it('a relay that never published the version refuses the lead on the version field', async () => {
    const intake = takeInLead(await browserSubmission('home', shown), intakeContext);
    expect(intake).toMatchObject({ kind: 'invalid', formId: 'home', fields: { callback_consent_version: expect.any(String) } });
  });

  it('an unticked box sends nothing about a call-back, and the relay forwards callback_requested false', async () => {
    const body = await browserSubmission('landing');
    expect(Object.keys(body).filter((key) => key.startsWith('callback_'))).toEqual([]);
    const intake = takeInLead(body, intakeContext);
    expect(intake).toMatchObject({ kind: 'accepted', payload: { callback_requested: false } });
    if (intake.kind === 'accepted')
      expect(Object.keys(intake.payload).filter((key) => key.startsWith('callback_'))).toEqual(['callback_requested']);
  });

  it('a CRM reached directly (no relay) gets the words the page showed, as the browser is the only builder', async () => {
    const body = await browserSubmission('contact', shown, 'https://crm.example.com/hook');
    expect(body).toMatchObject({ callback_requested: true, callback_consent_text: shown.text, callback_consent_version: '2026-11' });
  });
});
