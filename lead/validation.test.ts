import { describe, expect, it } from 'vitest';
import { LEAD_FORMS } from './forms.ts';
import { collectFieldErrors, homeFormSchema } from './validation.ts';
import {
  BEST_TIME_OPTIONS,
  COMPANY_SIZE_OPTIONS,
  FORM_ERROR_KEY,
  INDUSTRY_OPTIONS,
  LEAD_FORM_IDS,
  MANUAL_HOURS_OPTIONS,
  REVENUE_OPTIONS,
  SERVICE_INTEREST_OPTIONS,
  type LeadFormId,
} from './rules.ts';

const VALID_VALUES: Record<LeadFormId, Record<string, string>> = {
  home: { name: 'Ada Lovelace', email: 'ada@example.com', phone: '5125550147', company: 'Analytical Engines' },
  roi: {
    companySize: '11-50',
    currentRevenue: '2500000',
    industry: 'technology',
    teamSize: '5',
    averageSalary: '60000',
    manualHours: '10-20',
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    phone: '+1 (512) 555-0147',
    company: 'Analytical Engines',
    challenge: 'Too much manual data entry.',
    best_time: 'morning',
  },
  contact: {
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    phone: '512-555-0147',
    company: 'Analytical Engines',
    service_interest: 'AI Consulting',
    message: 'We would like to automate our intake calls.',
  },
  landing: {
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    phone: '+15125550147',
    company: 'Analytical Engines',
    revenue: '1m-5m',
    challenge: 'Too much manual data entry.',
    bestTime: 'afternoon',
  },
};

const MISSING = Symbol('missing');

function validateLeadForm(formId: LeadFormId, values: unknown) {
  return LEAD_FORMS[formId].validate(values);
}

function validateField(formId: LeadFormId, field: string, value: unknown) {
  const values: Record<string, unknown> = { ...VALID_VALUES[formId] };
  if (value === MISSING) delete values[field];
  else values[field] = value;
  return validateLeadForm(formId, values);
}

function errorFor(formId: LeadFormId, field: string, value: unknown): string | undefined {
  const result = validateField(formId, field, value);
  return result.success ? undefined : result.fieldErrors[field];
}

function valueAfterParsing(formId: LeadFormId, field: string, value: unknown): unknown {
  const result = validateField(formId, field, value);
  if (!result.success) throw new Error(`expected valid, got ${JSON.stringify(result.fieldErrors)}`);
  return (result.data as Record<string, unknown>)[field];
}

const x = (length: number) => 'x'.repeat(length);
const digits = (length: number) => '5'.repeat(length);
const emailOfLength = (length: number) => `${x(length - '@example.com'.length)}@example.com`;

describe('valid submissions', () => {
  it.each(LEAD_FORM_IDS)('accepts a complete %s form', (formId) => {
    expect(validateLeadForm(formId, VALID_VALUES[formId]).success).toBe(true);
  });

  it("keeps the visitor's characters exactly (no HTML escaping)", () => {
    const result = validateLeadForm('roi', {
      ...VALID_VALUES.roi,
      name: "Seán O'Brien",
      company: 'Smith & Sons',
      challenge: 'Quotes like "this" & <b>bold</b> stay',
    });
    expect(result).toMatchObject({
      success: true,
      data: { name: "Seán O'Brien", company: 'Smith & Sons', challenge: 'Quotes like "this" & <b>bold</b> stay' },
    });
  });

  it('drops fields that are not part of the form, such as the spam signals', () => {
    const result = validateLeadForm('home', { ...VALID_VALUES.home, website: '', form_shown_at: 1 });
    expect(result.success && Object.keys(result.data)).toEqual(['name', 'email', 'phone', 'company']);
  });
});

describe('home form', () => {
  it.each([
    ['name', '', 'Name must be at least 2 characters'],
    ['name', 'A', 'Name must be at least 2 characters'],
    ['name', '  A  ', 'Name must be at least 2 characters'],
    ['name', '\u200B\u200B\u200B', 'Name must be at least 2 characters'],
    ['name', '\uFEFF\u200D A \u2060', 'Name must be at least 2 characters'],
    ['name', x(101), 'Name too long'],
    ['name', '<script'.repeat(2_000), 'Name too long'],
    ['name', MISSING, 'Required'],
    ['name', 42, 'Invalid input'],
    ['email', '', 'Please enter a valid email'],
    ['email', 'not-an-email', 'Please enter a valid email'],
    ['email', emailOfLength(256), 'Email too long'],
    ['email', MISSING, 'Required'],
    ['phone', '', 'Please enter a valid phone number'],
    ['phone', digits(9), 'Please enter a valid phone number'],
    ['phone', digits(21), 'Phone number too long'],
    ['phone', MISSING, 'Required'],
    ['company', '', 'Company name required'],
    ['company', 'A', 'Company name required'],
    ['company', x(201), 'Company name too long'],
    ['company', '\u200C\u200C', 'Company name required'],
    ['company', MISSING, 'Required'],
  ])('rejects %s %j with %j', (field, value, message) => {
    expect(errorFor('home', field, value)).toBe(message);
  });

  it.each([
    ['name', 'Al'],
    ['name', x(100)],
    ['email', emailOfLength(255)],
    ['phone', digits(10)],
    ['phone', digits(20)],
    ['company', 'AB'],
    ['company', x(200)],
  ])('accepts %s at the boundary (%j)', (field, value) => {
    expect(errorFor('home', field, value)).toBeUndefined();
  });

  it.each([
    ['name', '  Ada  ', 'Ada'],
    ['email', '  ada@example.com ', 'ada@example.com'],
    ['phone', ' 5125550147 ', '5125550147'],
    ['company', '\tAcme\n', 'Acme'],
  ])('trims %s', (field, value, trimmed) => {
    expect(valueAfterParsing('home', field, value)).toBe(trimmed);
  });

  it('measures length after trimming', () => {
    expect(errorFor('home', 'phone', `  ${digits(9)}  `)).toBe('Please enter a valid phone number');
  });
});

describe('ROI form', () => {
  it.each([
    ['companySize', '', 'Please select company size'],
    ['companySize', MISSING, 'Please select company size'],
    ['companySize', '5000+', 'Please select company size'],
    ['currentRevenue', '', 'Please enter annual revenue'],
    ['currentRevenue', MISSING, 'Please enter annual revenue'],
    ['currentRevenue', 'lots', 'Please enter annual revenue'],
    ['currentRevenue', '-1', 'Please enter annual revenue'],
    ['industry', '', 'Please select industry'],
    ['industry', 'aerospace', 'Please select industry'],
    ['teamSize', '', 'Please enter team size'],
    ['teamSize', '0', 'Please enter team size'],
    ['teamSize', 'five', 'Please enter team size'],
    ['teamSize', '0x10', 'Please enter team size'],
    ['teamSize', '1e300', 'Please enter team size'],
    ['teamSize', 'Infinity', 'Please enter team size'],
    ['teamSize', '1000001', 'Team size must be at most 1,000,000'],
    ['averageSalary', '', 'Please enter average salary'],
    ['averageSalary', '-5', 'Please enter average salary'],
    ['averageSalary', '1e300', 'Please enter average salary'],
    ['averageSalary', '10000000.5', 'Average salary must be at most $10,000,000'],
    ['currentRevenue', '1000000000001', 'Annual revenue must be at most $1,000,000,000,000'],
    ['currentRevenue', '0x10', 'Please enter annual revenue'],
    ['manualHours', '', 'Please select manual hours per week'],
    ['manualHours', '40+', 'Please select manual hours per week'],
    ['name', 'A', 'Name must be at least 2 characters'],
    ['name', x(101), 'Name too long'],
    ['email', '', 'Please enter a valid business email address'],
    ['email', 'ada@', 'Please enter a valid business email address'],
    ['email', emailOfLength(256), 'Email too long'],
    ['phone', digits(9), 'Please enter a valid phone number'],
    ['phone', digits(21), 'Please enter a valid phone number'],
    ['phone', '512-555-01ab', 'Please enter a valid phone number'],
    ['phone', '512/555/0147', 'Please enter a valid phone number'],
    ['company', 'A', 'Company name required'],
    ['company', x(151), 'Company name too long'],
    ['challenge', x(1001), 'Challenge description must be less than 1000 characters'],
    ['best_time', 'midnight', 'Invalid input'],
  ])('rejects %s %j with %j', (field, value, message) => {
    expect(errorFor('roi', field, value)).toBe(message);
  });

  it.each([
    ['currentRevenue', '0'],
    ['averageSalary', '0'],
    ['teamSize', '1'],
    ['teamSize', '1000000'],
    ['averageSalary', '10000000'],
    ['currentRevenue', '1000000000000'],
    ['phone', '+1 (512) 555.0147'],
    ['company', x(150)],
    ['challenge', x(1000)],
    ['challenge', ''],
    ['challenge', MISSING],
    ['best_time', ''],
    ['best_time', MISSING],
  ])('accepts %s %j', (field, value) => {
    expect(errorFor('roi', field, value)).toBeUndefined();
  });

  it.each(COMPANY_SIZE_OPTIONS.map((option) => option.value))('accepts company size %s', (value) => {
    expect(errorFor('roi', 'companySize', value)).toBeUndefined();
  });

  it.each(INDUSTRY_OPTIONS.map((option) => option.value))('accepts industry %s', (value) => {
    expect(errorFor('roi', 'industry', value)).toBeUndefined();
  });

  it.each(MANUAL_HOURS_OPTIONS.map((option) => option.value))('accepts manual hours %s', (value) => {
    expect(errorFor('roi', 'manualHours', value)).toBeUndefined();
  });

  it.each(BEST_TIME_OPTIONS.map((option) => option.value))('accepts best time %s', (value) => {
    expect(errorFor('roi', 'best_time', value)).toBeUndefined();
  });

  it('fills the optional fields with empty text when they are left out', () => {
    const { challenge: _challenge, best_time: _bestTime, ...required } = VALID_VALUES.roi;
    expect(validateLeadForm('roi', required)).toMatchObject({ success: true, data: { challenge: '', best_time: '' } });
  });

  it('sanitises free text before checking it', () => {
    expect(valueAfterParsing('roi', 'challenge', 'Help <script>alert(1)</script>us')).toBe('Help us');
    expect(errorFor('roi', 'name', '<script>x</script>A')).toBe('Name must be at least 2 characters');
  });
});

describe('contact form', () => {
  it.each([
    ['name', '', 'Required'],
    ['name', '   ', 'Required'],
    ['name', MISSING, 'Required'],
    ['name', x(101), 'Name too long'],
    ['email', '', 'Required'],
    ['email', MISSING, 'Required'],
    ['email', 'ada.example.com', 'Invalid email'],
    ['email', emailOfLength(256), 'Email too long'],
    ['phone', '', 'Required'],
    ['phone', digits(21), 'Phone number too long'],
    ['company', x(201), 'Company name too long'],
    ['service_interest', '', 'Required'],
    ['service_interest', MISSING, 'Required'],
    ['service_interest', 'Everything', 'Invalid input'],
    ['service_interest', 7, 'Invalid input'],
    ['message', '', 'Required'],
    ['message', x(9), 'Message must be at least 10 characters'],
    ['message', x(2001), 'Message must be 2000 characters or less'],
    ['message', 12345678901, 'Invalid input'],
  ])('rejects %s %j with %j', (field, value, message) => {
    expect(errorFor('contact', field, value)).toBe(message);
  });

  it.each([
    ['company', ''],
    ['company', MISSING],
    ['company', x(200)],
    ['message', x(10)],
    ['message', x(2000)],
    ['phone', 'ext. 12'],
  ])('accepts %s %j', (field, value) => {
    expect(errorFor('contact', field, value)).toBeUndefined();
  });

  it.each(SERVICE_INTEREST_OPTIONS.map((option) => option.value))('accepts service interest %s', (value) => {
    expect(errorFor('contact', 'service_interest', value)).toBeUndefined();
  });
});

describe('landing form', () => {
  it.each([
    ['name', 'A', 'Name must be at least 2 characters'],
    ['name', x(101), 'Name too long'],
    ['email', '', 'Required'],
    ['email', 'ada@example', 'Invalid email'],
    ['phone', digits(9), 'Please enter a valid phone number'],
    ['phone', digits(21), 'Phone number too long'],
    ['phone', '555-CALL-NOW', 'Please enter a valid phone number'],
    ['phone', '5125+550147', 'Please enter a valid phone number'],
    ['company', 'A', 'Company name required'],
    ['company', x(201), 'Company name too long'],
    ['revenue', '', 'Please select your annual revenue'],
    ['revenue', MISSING, 'Please select your annual revenue'],
    ['revenue', '2m-3m', 'Please select your annual revenue'],
    ['challenge', '', 'Required'],
    ['challenge', MISSING, 'Required'],
    ['challenge', x(1001), 'Challenge description must be less than 1000 characters'],
    ['bestTime', 'night', 'Invalid input'],
  ])('rejects %s %j with %j', (field, value, message) => {
    expect(errorFor('landing', field, value)).toBe(message);
  });

  it.each([
    ['phone', '+15125550147'],
    ['phone', '5125550147'],
    ['phone', '+1 (512) 555-0147'],
    ['challenge', x(1000)],
    ['bestTime', ''],
    ['bestTime', MISSING],
  ])('accepts %s %j', (field, value) => {
    expect(errorFor('landing', field, value)).toBeUndefined();
  });

  it.each(REVENUE_OPTIONS.map((option) => option.value))('accepts revenue %s', (value) => {
    expect(errorFor('landing', 'revenue', value)).toBeUndefined();
  });
});

describe('option lists', () => {
  it.each([
    ['company size', COMPANY_SIZE_OPTIONS, ['1-10', '11-50', '51-200', '201-1000', '1000+']],
    [
      'industry',
      INDUSTRY_OPTIONS,
      ['technology', 'healthcare', 'finance', 'retail', 'manufacturing', 'real_estate', 'consulting', 'other'],
    ],
    ['manual hours', MANUAL_HOURS_OPTIONS, ['<5', '5-10', '10-20', '20+']],
    ['best time', BEST_TIME_OPTIONS, ['morning', 'afternoon', 'evening']],
    ['service interest', SERVICE_INTEREST_OPTIONS, ['AI Voice Services', 'AI Consulting', 'Both Services', 'General Inquiry']],
    ['revenue', REVENUE_OPTIONS, ['under-1m', '1m-5m', '5m-10m', '10m-50m', '50m-plus']],
  ])('lists the %s values in order', (_list, options, values) => {
    expect(options.map((option) => option.value)).toEqual(values);
  });

  it('labels values readably', () => {
    expect(INDUSTRY_OPTIONS.find((option) => option.value === 'real_estate')?.label).toBe('Real Estate');
    expect(BEST_TIME_OPTIONS.map((option) => option.label)).toEqual([
      'Morning (9 AM-12 PM)',
      'Afternoon (12 PM-5 PM)',
      'Evening (5 PM-8 PM)',
    ]);
  });
});

describe('field errors', () => {
  it('keeps only the first message per field', () => {
    const result = homeFormSchema().safeParse({ ...VALID_VALUES.home, email: x(300) });
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(result.error.issues.filter((issue) => issue.path[0] === 'email').length).toBeGreaterThan(1);
      expect(collectFieldErrors(result.error)).toEqual({ email: 'Please enter a valid email' });
    }
  });

  it('reports every invalid field of one submission', () => {
    expect(validateLeadForm('home', { name: 'A', email: 'x', phone: '1', company: '' })).toEqual({
      success: false,
      fieldErrors: {
        name: 'Name must be at least 2 characters',
        email: 'Please enter a valid email',
        phone: 'Please enter a valid phone number',
        company: 'Company name required',
      },
    });
  });

  it.each([[null], ['name=Ada'], [[]]])('reports a body that is not an object (%j) under the form key', (body) => {
    expect(validateLeadForm('contact', body)).toEqual({ success: false, fieldErrors: { [FORM_ERROR_KEY]: 'Invalid input' } });
  });
});

// A NUL or half an emoji's pair cannot be stored by every lead store: the field says so, in the
// browser and in the relay alike, instead of one engine keeping the lead and the other losing it.
describe('text a lead store cannot keep', () => {
  const TYPED_TEXT_FIELDS: ReadonlyArray<readonly [LeadFormId, string]> = [
    ['home', 'name'],
    ['home', 'phone'],
    ['home', 'company'],
    ['roi', 'name'],
    ['roi', 'company'],
    ['roi', 'challenge'],
    ['contact', 'name'],
    ['contact', 'phone'],
    ['contact', 'company'],
    ['contact', 'message'],
    ['landing', 'name'],
    ['landing', 'company'],
    ['landing', 'challenge'],
  ];
  const UNSAVABLE = 'This text contains a hidden character that cannot be saved. Please type it again.';

  it.each(TYPED_TEXT_FIELDS)('%s form, %s: a NUL or a lone surrogate is refused with a message', (formId, field) => {
    const typed = String(VALID_VALUES[formId][field]);
    const withInside = (inserted: string) => `${typed.slice(0, 1)}${inserted}${typed.slice(1)}`;
    expect(errorFor(formId, field, withInside('\u0000'))).toBe(UNSAVABLE);
    expect(errorFor(formId, field, withInside('\uD83D'))).toBe(UNSAVABLE);
    expect(valueAfterParsing(formId, field, withInside('😀'))).toBe(withInside('😀'));
  });
});
