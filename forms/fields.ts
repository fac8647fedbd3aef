// Field specs shared by the four forms (labels come from lead/rules.ts, see labelGroups), with native constraints taken from the schema's bounds
// (FIELD_LIMITS), so the prerendered form validates like the schema before JavaScript runs.
import type { UnlabelledField } from './form-spec.ts';
import { FIELD_LIMITS, LANDING_PHONE_PATTERN, ROI_PHONE_PATTERN, type SelectOption } from '../lead/rules.ts';

// Browsers compile `pattern` with the `v` flag, where `(`, `)` and `-` must be escaped inside a
// class: these are the schema's patterns (ROI_PHONE_PATTERN, LANDING_PHONE_PATTERN) in that dialect.
export const ROI_PHONE_HTML_PATTERN = String.raw`[\d\s\-+\(\)\.]+`;
export const LANDING_PHONE_HTML_PATTERN = String.raw`\+?[\d\s\-\(\)\.]+`;
export const HTML_PATTERN_SOURCES = [
  { html: ROI_PHONE_HTML_PATTERN, schema: ROI_PHONE_PATTERN },
  { html: LANDING_PHONE_HTML_PATTERN, schema: LANDING_PHONE_PATTERN },
] as const;

// Revenue and salary step by 1000.
export const AMOUNT_STEP_USD = 1000;

type Overrides = Partial<Omit<UnlabelledField, 'name' | 'control'>>;

export function fullNameField(overrides: Overrides = {}): UnlabelledField<'name'> {
  return {
    name: 'name',
    control: 'input',
    type: 'text',
    autoComplete: 'name',
    placeholder: 'Jane Smith',
    required: true,
    minLength: FIELD_LIMITS.name.minLength,
    maxLength: FIELD_LIMITS.name.maxLength,
    span: 'half',
    ...overrides,
  };
}

export function emailField(overrides: Overrides = {}): UnlabelledField<'email'> {
  return {
    name: 'email',
    control: 'input',
    type: 'email',
    autoComplete: 'email',
    placeholder: 'jane@company.com',
    required: true,
    maxLength: FIELD_LIMITS.email.maxLength,
    span: 'half',
    ...overrides,
  };
}

export function phoneField(overrides: Overrides = {}): UnlabelledField<'phone'> {
  return {
    name: 'phone',
    control: 'input',
    type: 'tel',
    autoComplete: 'tel',
    placeholder: '(555) 123-4567',
    required: true,
    minLength: FIELD_LIMITS.phone.minLength,
    maxLength: FIELD_LIMITS.phone.maxLength,
    span: 'half',
    ...overrides,
  };
}

export function companyField(overrides: Overrides = {}): UnlabelledField<'company'> {
  return {
    name: 'company',
    control: 'input',
    type: 'text',
    autoComplete: 'organization',
    placeholder: 'Acme Inc.',
    required: true,
    minLength: FIELD_LIMITS.company.minLength,
    maxLength: FIELD_LIMITS.company.maxLength,
    span: 'half',
    ...overrides,
  };
}

export function selectField<N extends string>(name: N, options: readonly SelectOption[], overrides: Overrides = {}): UnlabelledField<N> {
  return { name, control: 'select', options, required: true, placeholder: 'Select an option', span: 'half', ...overrides };
}

export function textAreaField<N extends string>(name: N, overrides: Overrides = {}): UnlabelledField<N> {
  return { name, control: 'textarea', required: true, rows: 4, span: 'full', ...overrides };
}
