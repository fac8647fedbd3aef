import { describe, expect, it } from 'vitest';
import { SHIPPED_ROI_PARAMETERS } from '../content-model/testing/shipped-content.ts';
import { type RoiParameters } from './roi/engine.ts';
import { extractAttribution } from './attribution.ts';
import { buildContactPayload, buildHomePayload, buildLandingPayload, buildRoiPayload, type PayloadContext } from './crm-payload.ts';
import type { ContactFormValues, HomeFormValues, LandingFormValues, RoiFormValues } from './validation.ts';

const NOW = new Date('2025-03-04T05:06:07.089Z');
const USER_AGENT_300 = `Mozilla/5.0 ${'x'.repeat(288)}`;

const CONTEXT: PayloadContext = {
  now: NOW,
  pageUrl: 'https://example.com/calculator?utm_source=google',
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64)',
  referrer: 'https://www.google.com/',
  attribution: {
    utm_source: 'google',
    utm_medium: 'cpc',
    gclid: 'abc123',
    landing_page: 'https://example.com/?utm_source=google',
    first_referrer: 'https://www.google.com/',
  },
};

const HOME_VALUES: HomeFormValues = {
  name: "Seán O'Brien",
  email: 'sean@example.com',
  phone: '5125550147',
  company: 'Smith & Sons',
};

const ROI_VALUES: RoiFormValues = {
  companySize: '11-50',
  currentRevenue: '2500000',
  industry: 'technology',
  teamSize: '5',
  averageSalary: '60000',
  manualHours: '10-20',
  name: "Seán O'Brien",
  email: 'sean@example.com',
  phone: '+1 (512) 555-0147',
  company: 'Smith & Sons',
  challenge: 'Manual data entry',
  best_time: 'morning',
};

const CONTACT_VALUES: ContactFormValues = {
  name: "Seán O'Brien",
  email: 'sean@example.com',
  phone: '512-555-0147',
  company: '',
  service_interest: 'Both Services',
  message: 'Please call me about voice agents.',
};

const LANDING_VALUES: LandingFormValues = {
  name: "Seán O'Brien",
  email: 'sean@example.com',
  phone: '+15125550147',
  company: 'Smith & Sons',
  revenue: '5m-10m',
  challenge: 'Slow follow-up',
  bestTime: '',
};

describe('buildHomePayload', () => {
  it('sends the form fields, the added fields and the attribution, nothing else', () => {
    expect(buildHomePayload(HOME_VALUES, CONTEXT)).toEqual({
      ...CONTEXT.attribution,
      name: "Seán O'Brien",
      email: 'sean@example.com',
      phone: '5125550147',
      company: 'Smith & Sons',
      submitted_at: '2025-03-04T05:06:07.089Z',
      source: 'Homepage Simple Lead Form',
      page_url: 'https://example.com/calculator?utm_source=google',
      callback_requested: false,
    });
  });

  it.each([
    ['Google Ads', 'gclid'],
    ['Meta', 'fbclid'],
    ['Microsoft Ads', 'msclkid'],
  ])('carries a %s click id (%s) from the address the visit landed on to the CRM', (_network, parameter) => {
    const attribution = extractAttribution(`https://example.com/?${parameter}=CLICK-42&utm_source=ads`, '');
    expect(buildHomePayload(HOME_VALUES, { ...CONTEXT, attribution })).toMatchObject({ [parameter]: 'CLICK-42', utm_source: 'ads' });
  });
});

describe('buildRoiPayload', () => {
  const payload = buildRoiPayload(ROI_VALUES, CONTEXT, SHIPPED_ROI_PARAMETERS);

  it.each([
    ['companySize', '11-50'],
    ['currentRevenue', '2M-5M'],
    ['industry', 'technology'],
    ['teamSize', '5'],
    ['averageSalary', '60000'],
    ['manualHours', '10-20'],
    ['name', "Seán O'Brien"],
    ['email', 'sean@example.com'],
    ['phone', '+1 (512) 555-0147'],
    ['company', 'Smith & Sons'],
    ['challenge', 'Manual data entry'],
    ['best_time', 'morning'],
    ['current_revenue_usd', 2_500_000],
    ['roi_revenue_increase', 375_000],
    ['roi_labor_savings', 112_500],
    ['roi_total_savings', 487_500],
    ['roi_percentage', 875],
    ['roi_hours_saved_weekly', 15],
    ['roi_uplift_percentage', 15],
    ['submitted_at', '2025-03-04T05:06:07.089Z'],
    ['source', 'AI ROI Calculator + Lead Form'],
    ['page_url', 'https://example.com/calculator?utm_source=google'],
    ['user_agent', 'Mozilla/5.0 (X11; Linux x86_64)'],
    ['referrer', 'https://www.google.com/'],
    ['utm_source', 'google'],
    ['utm_medium', 'cpc'],
    ['gclid', 'abc123'],
    ['landing_page', 'https://example.com/?utm_source=google'],
    ['first_referrer', 'https://www.google.com/'],
  ])('sends %s = %j', (field, value) => {
    expect(payload).toHaveProperty([field], value);
  });

  it('sends no other fields', () => {
    expect(Object.keys(payload).sort()).toEqual(
      [
        'companySize',
        'currentRevenue',
        'industry',
        'teamSize',
        'averageSalary',
        'manualHours',
        'name',
        'email',
        'phone',
        'company',
        'challenge',
        'best_time',
        'current_revenue_usd',
        'roi_revenue_increase',
        'roi_labor_savings',
        'roi_total_savings',
        'roi_percentage',
        'roi_hours_saved_weekly',
        'roi_uplift_percentage',
        'submitted_at',
        'source',
        'page_url',
        'callback_requested',
        'user_agent',
        'referrer',
        ...Object.keys(CONTEXT.attribution),
      ].sort(),
    );
  });

  it('rounds money to whole dollars and ROI to a whole number', () => {
    // $1,234,567 in finance: 172,839.38 revenue increase; 2.5 h a week at $33,333 for 3 people: 6,249.94 labour savings.
    const rounded = buildRoiPayload(
      { ...ROI_VALUES, currentRevenue: '1234567', industry: 'finance', averageSalary: '33333', teamSize: '3', manualHours: '<5' },
      CONTEXT,
      SHIPPED_ROI_PARAMETERS,
    );
    expect(rounded.roi_revenue_increase).toBe(172_839);
    expect(rounded.roi_labor_savings).toBe(6_250);
    expect(rounded.roi_total_savings).toBe(179_089);
    expect(rounded.roi_percentage).toBe(258);
    expect(rounded.roi_uplift_percentage).toBe(14);
    expect(rounded.roi_hours_saved_weekly).toBe(2.5);
  });

  it.each([
    ['999999', 'Under 1M', 999_999],
    ['100000000', '100M+', 100_000_000],
  ])('sends revenue %s as bracket %j with the amount beside it', (currentRevenue, bracket, amountUsd) => {
    const bracketed = buildRoiPayload({ ...ROI_VALUES, currentRevenue }, CONTEXT, SHIPPED_ROI_PARAMETERS);
    expect(bracketed.currentRevenue).toBe(bracket);
    expect(bracketed.current_revenue_usd).toBe(amountUsd);
  });

  it('uses the parameters it is given', () => {
    const parameters: RoiParameters = { ...SHIPPED_ROI_PARAMETERS, investmentUsd: 487_500 };
    expect(buildRoiPayload(ROI_VALUES, CONTEXT, parameters).roi_percentage).toBe(0);
  });

  it('cuts user_agent at 200 characters', () => {
    const long = buildRoiPayload(ROI_VALUES, { ...CONTEXT, userAgent: USER_AGENT_300 }, SHIPPED_ROI_PARAMETERS);
    expect(long.user_agent).toBe(USER_AGENT_300.slice(0, 200));
    expect(long.user_agent).toHaveLength(200);
  });

  it.each([[''], ['   ']])('sends referrer "direct" when the referrer is %j', (referrer) => {
    expect(buildRoiPayload(ROI_VALUES, { ...CONTEXT, referrer }, SHIPPED_ROI_PARAMETERS).referrer).toBe('direct');
  });

  it('never lets attribution overwrite a form field', () => {
    const hostile = { ...CONTEXT, attribution: { ...CONTEXT.attribution, source: 'Spoofed', name: 'Mallory' } };
    const guarded = buildRoiPayload(ROI_VALUES, hostile as PayloadContext, SHIPPED_ROI_PARAMETERS);
    expect(guarded.source).toBe('AI ROI Calculator + Lead Form');
    expect(guarded.name).toBe("Seán O'Brien");
  });
});

describe('buildContactPayload', () => {
  it('sends the form fields, the added fields and the attribution, nothing else', () => {
    expect(buildContactPayload(CONTACT_VALUES, CONTEXT)).toEqual({
      ...CONTEXT.attribution,
      name: "Seán O'Brien",
      email: 'sean@example.com',
      phone: '512-555-0147',
      company: '',
      service_interest: 'Both Services',
      message: 'Please call me about voice agents.',
      submitted_at: '2025-03-04T05:06:07.089Z',
      source: 'Contact Page Form',
      page_url: 'https://example.com/calculator?utm_source=google',
      callback_requested: false,
      user_agent: 'Mozilla/5.0 (X11; Linux x86_64)',
      referrer: 'https://www.google.com/',
    });
  });

  it('cuts user_agent at 200 characters', () => {
    expect(buildContactPayload(CONTACT_VALUES, { ...CONTEXT, userAgent: USER_AGENT_300 }).user_agent).toHaveLength(200);
  });

  it('sends referrer "direct" when there is none', () => {
    expect(buildContactPayload(CONTACT_VALUES, { ...CONTEXT, referrer: '' }).referrer).toBe('direct');
  });
});

describe('buildLandingPayload', () => {
  it('sends the form fields, the added fields and the attribution, nothing else', () => {
    expect(buildLandingPayload(LANDING_VALUES, CONTEXT)).toEqual({
      ...CONTEXT.attribution,
      name: "Seán O'Brien",
      email: 'sean@example.com',
      phone: '+15125550147',
      company: 'Smith & Sons',
      revenue: '5m-10m',
      challenge: 'Slow follow-up',
      bestTime: '',
      submitted_at: '2025-03-04T05:06:07.089Z',
      source: 'AI Transformation Landing Page',
      page_url: 'https://example.com/calculator?utm_source=google',
      callback_requested: false,
    });
  });
});

describe('all builders', () => {
  it("send only the form's fields when the visit has no attribution", () => {
    expect(Object.keys(buildHomePayload(HOME_VALUES, { ...CONTEXT, attribution: {} }))).toEqual([
      'name',
      'email',
      'phone',
      'company',
      'submitted_at',
      'source',
      'page_url',
      'callback_requested',
    ]);
  });
});

describe('call me back now', () => {
  const WORDING = { version: '2026-11', text: 'Premier AI Consulting may call me now with an automated or artificial voice.' };

  it.each([
    ['home', () => buildHomePayload(HOME_VALUES, { ...CONTEXT, callbackConsent: WORDING })],
    ['roi', () => buildRoiPayload(ROI_VALUES, { ...CONTEXT, callbackConsent: WORDING }, SHIPPED_ROI_PARAMETERS)],
    ['contact', () => buildContactPayload(CONTACT_VALUES, { ...CONTEXT, callbackConsent: WORDING })],
    ['landing', () => buildLandingPayload(LANDING_VALUES, { ...CONTEXT, callbackConsent: WORDING })],
  ])('%s: a ticked box sends the agreement with its time, version and page', (_form, build) => {
    expect(build()).toMatchObject({
      callback_requested: true,
      callback_consent_text: WORDING.text,
      callback_consent_at: '2025-03-04T05:06:07.089Z',
      callback_consent_version: '2026-11',
      callback_consent_page: CONTEXT.pageUrl,
    });
  });
});
