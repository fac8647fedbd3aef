// The four lead forms' facts without the validation library: ids, sources, option lists, bounds,
// patterns and messages. The browser forms import these for their markup and native constraints, so
// zod loads only when a form is submitted (submit-flow.ts); schemas.ts builds the zod rules from them
// and re-exports everything, for the relay.

export const LEAD_FORM_IDS = ['home', 'roi', 'contact', 'landing'] as const;
export type LeadFormId = (typeof LEAD_FORM_IDS)[number];

// `source` names the form on the wire; the CRM's workflows and mappings key on these labels.
export const LEAD_SOURCES = {
  home: 'Homepage Simple Lead Form',
  roi: 'AI ROI Calculator + Lead Form',
  contact: 'Contact Page Form',
  landing: 'AI Transformation Landing Page',
} as const satisfies Record<LeadFormId, string>;
export type LeadSource = (typeof LEAD_SOURCES)[LeadFormId];

// ---------------------------------------------------------------------------------------------
// Option lists: values are the wire values the CRM expects; labels are what visitors read.

export interface SelectOption {
  readonly value: string;
  readonly label: string;
}

export const COMPANY_SIZE_OPTIONS = [
  { value: '1-10', label: '1-10 employees' },
  { value: '11-50', label: '11-50 employees' },
  { value: '51-200', label: '51-200 employees' },
  { value: '201-1000', label: '201-1000 employees' },
  { value: '1000+', label: '1000+ employees' },
] as const satisfies readonly SelectOption[];

export const INDUSTRY_OPTIONS = [
  { value: 'technology', label: 'Technology' },
  { value: 'healthcare', label: 'Healthcare' },
  { value: 'finance', label: 'Finance' },
  { value: 'retail', label: 'Retail' },
  { value: 'manufacturing', label: 'Manufacturing' },
  { value: 'real_estate', label: 'Real Estate' },
  { value: 'consulting', label: 'Consulting' },
  { value: 'other', label: 'Other' },
] as const satisfies readonly SelectOption[];

export const MANUAL_HOURS_OPTIONS = [
  { value: '<5', label: 'Less than 5 hours' },
  { value: '5-10', label: '5-10 hours' },
  { value: '10-20', label: '10-20 hours' },
  { value: '20+', label: '20+ hours' },
] as const satisfies readonly SelectOption[];

export const BEST_TIME_OPTIONS = [
  { value: 'morning', label: 'Morning (9 AM-12 PM)' },
  { value: 'afternoon', label: 'Afternoon (12 PM-5 PM)' },
  { value: 'evening', label: 'Evening (5 PM-8 PM)' },
] as const satisfies readonly SelectOption[];

// 'None selected' is the select's empty placeholder, never a valid answer.
export const SERVICE_INTEREST_OPTIONS = [
  { value: 'AI Voice Services', label: 'AI Voice Services' },
  { value: 'AI Consulting', label: 'AI Consulting' },
  { value: 'Both Services', label: 'Both Services' },
  { value: 'General Inquiry', label: 'General Inquiry' },
] as const satisfies readonly SelectOption[];

export const REVENUE_OPTIONS = [
  { value: 'under-1m', label: 'Under $1M' },
  { value: '1m-5m', label: '$1M - $5M' },
  { value: '5m-10m', label: '$5M - $10M' },
  { value: '10m-50m', label: '$10M - $50M' },
  { value: '50m-plus', label: '$50M+' },
] as const satisfies readonly SelectOption[];

export type CompanySize = (typeof COMPANY_SIZE_OPTIONS)[number]['value'];
export type Industry = (typeof INDUSTRY_OPTIONS)[number]['value'];
export type ManualHours = (typeof MANUAL_HOURS_OPTIONS)[number]['value'];
export type BestTime = (typeof BEST_TIME_OPTIONS)[number]['value'];
export type ServiceInterest = (typeof SERVICE_INTEREST_OPTIONS)[number]['value'];
export type Revenue = (typeof REVENUE_OPTIONS)[number]['value'];

export function listValues<const T extends string>(options: readonly { readonly value: T }[]): T[] {
  return options.map((option) => option.value);
}

// ---------------------------------------------------------------------------------------------
// Bounds and messages. Exported so the forms can mirror them as native constraints.

export const FIELD_LIMITS = {
  name: { minLength: 2, maxLength: 100 },
  email: { maxLength: 255 },
  phone: { minLength: 10, maxLength: 20 },
  company: { minLength: 2, maxLength: 200 },
  roiCompany: { minLength: 2, maxLength: 150 },
  challenge: { maxLength: 1000 },
  message: { minLength: 10, maxLength: 2000 },
  // Revenue and salary have minimum 0, team size minimum 1. The upper bounds lie far beyond any real
  // business and keep every ROI figure a finite number the CRM can store.
  revenueUsd: { minimum: 0, maximum: 1_000_000_000_000 },
  salaryUsd: { minimum: 0, maximum: 10_000_000 },
  teamSize: { minimum: 1, maximum: 1_000_000 },
} as const;

// ROI form phone numbers: digits, spaces, dash, plus, parentheses and dot.
export const ROI_PHONE_PATTERN = /^[\d\s\-+().]+$/;
// Landing form phone numbers: an optional leading plus, then digits; spaces, dashes, dots and parentheses
// are also accepted so '+1 (555) 123-4567' is not rejected (people write numbers that way).
export const LANDING_PHONE_PATTERN = /^\+?[\d\s\-().]+$/;

export const VALIDATION_MESSAGES = {
  // The validation library's generic messages, used where no message is given.
  required: 'Required',
  invalidInput: 'Invalid input',
  invalidEmail: 'Invalid email',
  nameTooShort: 'Name must be at least 2 characters',
  nameTooLong: 'Name too long',
  emailInvalid: 'Please enter a valid email',
  businessEmailInvalid: 'Please enter a valid business email address',
  emailTooLong: 'Email too long',
  phoneInvalid: 'Please enter a valid phone number',
  phoneTooLong: 'Phone number too long',
  companyRequired: 'Company name required',
  companyTooLong: 'Company name too long',
  companySizeRequired: 'Please select company size',
  currentRevenueRequired: 'Please enter annual revenue',
  industryRequired: 'Please select industry',
  teamSizeRequired: 'Please enter team size',
  averageSalaryRequired: 'Please enter average salary',
  manualHoursRequired: 'Please select manual hours per week',
  currentRevenueTooLarge: 'Annual revenue must be at most $1,000,000,000,000',
  averageSalaryTooLarge: 'Average salary must be at most $10,000,000',
  teamSizeTooLarge: 'Team size must be at most 1,000,000',
  challengeTooLong: 'Challenge description must be less than 1000 characters',
  revenueRequired: 'Please select your annual revenue',
  messageTooShort: 'Message must be at least 10 characters',
  messageTooLong: 'Message must be 2000 characters or less',
  // Pasted text can carry a hidden character (a null, half an emoji) that cannot be saved.
  unsavableCharacter: 'This text contains a hidden character that cannot be saved. Please type it again.',
} as const;

// ---------------------------------------------------------------------------------------------
// Labels: what each field is called on screen. People, assistive technology, the browser tests and
// the relay's no-JavaScript error page all name fields by these, so they live once, here.

const PERSON_LABELS = { name: 'Full Name', email: 'Business Email', phone: 'Phone Number', company: 'Company Name' } as const;

export const FORM_FIELD_LABELS = {
  home: PERSON_LABELS,
  roi: {
    ...PERSON_LABELS,
    companySize: 'Company Size',
    currentRevenue: 'Annual Revenue',
    industry: 'Industry',
    teamSize: 'Team Size',
    averageSalary: 'Average Salary',
    manualHours: 'Manual Hours per Week',
    best_time: 'Best Time to Contact',
    challenge: 'Biggest Challenge',
  },
  contact: {
    name: 'Full Name',
    email: 'Email',
    phone: 'Phone',
    company: 'Company',
    service_interest: 'Service Interest',
    message: 'Message',
  },
  landing: { ...PERSON_LABELS, revenue: 'Annual Revenue', challenge: 'Biggest Challenge', bestTime: 'Best Time to Call' },
} as const satisfies Record<LeadFormId, Readonly<Record<string, string>>>;

// Spam signals, kept out of the field schemas (see schemas.ts).
export const HONEYPOT_FIELD = 'website';
export const FORM_SHOWN_AT_FIELD = 'form_shown_at';

export type FieldErrors = Record<string, string>;

// Issues not tied to a field (e.g. the body is not an object) are reported under this key.
export const FORM_ERROR_KEY = '_form';
