import { describe, expect, it } from 'vitest';
import { SHIPPED_ROI_PARAMETERS } from '../content-model/testing/shipped-content.ts';
import { createRoiFormSpec } from './roi/roi-form.ts';
import { contactFormSpec } from './contact-form.ts';
import { HTML_PATTERN_SOURCES } from './fields.ts';
import { emptyValues, listFields, readPrefill, type FieldSpec, type LeadFormSpec } from './form-spec.ts';
import { homeFormSpec } from './home-form.ts';
import { landingFormSpec } from './landing-form.ts';
import { contactFormSchema, homeFormSchema, landingFormSchema, roiFormSchema } from '../lead/validation.ts';
import {
  BEST_TIME_OPTIONS,
  COMPANY_SIZE_OPTIONS,
  FIELD_LIMITS,
  INDUSTRY_OPTIONS,
  MANUAL_HOURS_OPTIONS,
  REVENUE_OPTIONS,
  SERVICE_INTEREST_OPTIONS,
} from '../lead/rules.ts';
import { RATE_LIMIT_POLICIES } from './rate-limit.ts';

const LEAD_FORM_SCHEMAS = { home: homeFormSchema(), roi: roiFormSchema(), contact: contactFormSchema(), landing: landingFormSchema() };
const roiFormSpec = createRoiFormSpec(SHIPPED_ROI_PARAMETERS);
const SPECS = [homeFormSpec, roiFormSpec, contactFormSpec, landingFormSpec] as unknown as LeadFormSpec[];

const fieldOf = (spec: LeadFormSpec, name: string): FieldSpec => {
  const field = listFields(spec).find((candidate) => candidate.name === name);
  if (!field) throw new Error(`${spec.formId} has no field ${name}`);
  return field;
};

// Visible labels and button names, in this order.
const CONTRACT = {
  home: { labels: ['Full Name', 'Business Email', 'Phone Number', 'Company Name'], button: 'Get Started Now', sending: 'Sending...' },
  roi: {
    labels: [
      'Full Name',
      'Business Email',
      'Phone Number',
      'Company Name',
      'Company Size',
      'Annual Revenue',
      'Industry',
      'Team Size',
      'Average Salary',
      'Manual Hours per Week',
      'Best Time to Contact',
      'Biggest Challenge',
    ],
    button: 'Get My ROI Analysis & Book Session',
    sending: 'Calculating Your ROI...',
  },
  contact: {
    labels: ['Full Name', 'Email', 'Phone', 'Company', 'Service Interest', 'Message'],
    button: 'Send Message',
    sending: 'Sending...',
  },
  landing: {
    labels: ['Full Name', 'Business Email', 'Phone Number', 'Company Name', 'Annual Revenue', 'Biggest Challenge', 'Best Time to Call'],
    button: 'Claim My Free Strategy Session',
    sending: 'Sending...',
  },
} as const;

describe.each(SPECS)('$formId form spec', (spec) => {
  const fields = listFields(spec);

  it("has exactly the schema's fields, each once, under their wire names", () => {
    const schemaKeys = Object.keys(LEAD_FORM_SCHEMAS[spec.formId].shape).sort();
    expect(fields.map((field) => field.name).sort()).toEqual(schemaKeys);
    expect(Object.keys(emptyValues(spec)).sort()).toEqual(schemaKeys);
  });

  it("uses the contract's labels and button names", () => {
    const contract = CONTRACT[spec.formId];
    expect(fields.map((field) => field.label).sort()).toEqual([...contract.labels].sort());
    expect(spec.submitLabel).toBe(contract.button);
    expect(spec.submittingLabel).toBe(contract.sending);
  });

  it("uses its form's rate-limit policy", () => {
    expect(spec.rateLimit).toBe(RATE_LIMIT_POLICIES[spec.formId]);
  });

  it('marks a field required exactly when the schema rejects it empty', () => {
    for (const field of fields) {
      const withEmpty = { ...emptyValues(spec) };
      const result = LEAD_FORM_SCHEMAS[spec.formId].safeParse(withEmpty);
      const emptyIsRejected = !result.success && result.error.issues.some((issue) => issue.path[0] === field.name);
      expect(`${field.name}: ${field.required}`).toBe(`${field.name}: ${emptyIsRejected}`);
    }
  });

  it('gives each select its option values, with readable labels', () => {
    for (const field of fields.filter((candidate) => candidate.control === 'select')) {
      for (const option of field.options ?? []) expect(option.label).not.toBe('');
    }
  });
});

describe('option lists', () => {
  it.each([
    { spec: roiFormSpec, name: 'companySize', options: COMPANY_SIZE_OPTIONS, values: ['1-10', '11-50', '51-200', '201-1000', '1000+'] },
    {
      spec: roiFormSpec,
      name: 'industry',
      options: INDUSTRY_OPTIONS,
      values: ['technology', 'healthcare', 'finance', 'retail', 'manufacturing', 'real_estate', 'consulting', 'other'],
    },
    { spec: roiFormSpec, name: 'manualHours', options: MANUAL_HOURS_OPTIONS, values: ['<5', '5-10', '10-20', '20+'] },
    { spec: roiFormSpec, name: 'best_time', options: BEST_TIME_OPTIONS, values: ['morning', 'afternoon', 'evening'] },
    { spec: landingFormSpec, name: 'bestTime', options: BEST_TIME_OPTIONS, values: ['morning', 'afternoon', 'evening'] },
    { spec: landingFormSpec, name: 'revenue', options: REVENUE_OPTIONS, values: ['under-1m', '1m-5m', '5m-10m', '10m-50m', '50m-plus'] },
    {
      spec: contactFormSpec,
      name: 'service_interest',
      options: SERVICE_INTEREST_OPTIONS,
      values: ['AI Voice Services', 'AI Consulting', 'Both Services', 'General Inquiry'],
    },
  ] as const)('$spec.formId $name', ({ spec, name, options, values }) => {
    const field = fieldOf(spec as unknown as LeadFormSpec, name);
    expect(field.options).toBe(options);
    expect(field.options?.map((option) => option.value)).toEqual(values);
  });

  it('shows real_estate as Real Estate', () => {
    expect(fieldOf(roiFormSpec as unknown as LeadFormSpec, 'industry').options?.find((o) => o.value === 'real_estate')?.label).toBe(
      'Real Estate',
    );
  });
});

describe('native constraints mirror the schema', () => {
  it.each([
    { spec: homeFormSpec, name: 'name', expected: { type: 'text', minLength: 2, maxLength: 100 } },
    { spec: homeFormSpec, name: 'email', expected: { type: 'email', maxLength: 255 } },
    { spec: homeFormSpec, name: 'phone', expected: { type: 'tel', minLength: 10, maxLength: 20 } },
    { spec: homeFormSpec, name: 'company', expected: { minLength: 2, maxLength: 200 } },
    { spec: roiFormSpec, name: 'company', expected: { minLength: 2, maxLength: FIELD_LIMITS.roiCompany.maxLength } },
    { spec: roiFormSpec, name: 'phone', expected: { type: 'tel', minLength: 10, maxLength: 20, pattern: HTML_PATTERN_SOURCES[0].html } },
    { spec: roiFormSpec, name: 'currentRevenue', expected: { type: 'number', min: 0, step: 1000 } },
    { spec: roiFormSpec, name: 'averageSalary', expected: { type: 'number', min: 0, step: 1000 } },
    { spec: roiFormSpec, name: 'teamSize', expected: { type: 'number', min: 1 } },
    { spec: roiFormSpec, name: 'challenge', expected: { control: 'textarea', maxLength: 1000, required: false } },
    { spec: contactFormSpec, name: 'name', expected: { minLength: undefined, maxLength: 100 } },
    { spec: contactFormSpec, name: 'email', expected: { type: 'email', maxLength: 255 } },
    { spec: contactFormSpec, name: 'phone', expected: { type: 'tel', minLength: undefined, maxLength: 20 } },
    { spec: contactFormSpec, name: 'company', expected: { required: false, minLength: undefined, maxLength: 200 } },
    { spec: contactFormSpec, name: 'message', expected: { control: 'textarea', minLength: 10, maxLength: 2000 } },
    {
      spec: landingFormSpec,
      name: 'phone',
      expected: { type: 'tel', minLength: 10, maxLength: 20, pattern: HTML_PATTERN_SOURCES[1].html },
    },
    { spec: landingFormSpec, name: 'challenge', expected: { control: 'textarea', required: true, maxLength: 1000 } },
    { spec: landingFormSpec, name: 'bestTime', expected: { control: 'select', required: false } },
  ] as const)('$spec.formId $name', ({ spec, name, expected }) => {
    expect(fieldOf(spec as unknown as LeadFormSpec, name)).toMatchObject(expected);
  });

  it('the home form has no phone pattern', () => {
    expect(fieldOf(homeFormSpec as unknown as LeadFormSpec, 'phone').pattern).toBeUndefined();
  });

  const SAMPLES = [
    '+1 (512) 555-0147',
    '512.555.0147',
    '5125550147',
    '++15125550147',
    '+1 512 555 0147 ext 4',
    'call me',
    '512_555_0147',
    '(512)555-0147 +',
  ];

  it.each(HTML_PATTERN_SOURCES)(
    'the HTML pattern $html compiles as browsers do and accepts what the schema accepts',
    ({ html, schema }) => {
      // Browsers anchor `pattern` and compile it with the `v` flag (HTML standard).
      const compiled = new RegExp(`^(?:${html})$`, 'v');
      for (const sample of SAMPLES) expect(`${sample}: ${compiled.test(sample)}`).toBe(`${sample}: ${schema.test(sample)}`);
    },
  );
});

describe('readPrefill', () => {
  it("preselects the contact form's service from ?service=", () => {
    expect(readPrefill(contactFormSpec, '?service=AI%20Voice%20Services')).toEqual({ service_interest: 'AI Voice Services' });
  });

  it.each(['', '?service=', '?service=Gardening', '?other=AI%20Consulting'])('ignores %j', (search) => {
    expect(readPrefill(contactFormSpec, search)).toEqual({});
  });

  it('does nothing for forms without a prefill', () => {
    expect(readPrefill(homeFormSpec, '?service=AI%20Consulting')).toEqual({});
  });
});
