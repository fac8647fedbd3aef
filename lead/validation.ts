// The four lead forms' validation rules, one zod schema per form, shared by the browser forms (loaded
// when a form is first used) and the lead relay. Limits and messages are in rules.ts.
// zod's mini build: the same rules and messages as the full one, but built as plain functions, so a
// phone sets up the four forms' rules in a fraction of the time (no methods bound to every rule).
import * as z from 'zod/mini';
import { parseNumber } from './roi/engine.ts';
import { sanitizeText, trimInvisible } from './sanitize.ts';
import { isStorableText } from './storable-text.ts';
import {
  COMPANY_SIZE_OPTIONS,
  INDUSTRY_OPTIONS,
  MANUAL_HOURS_OPTIONS,
  BEST_TIME_OPTIONS,
  SERVICE_INTEREST_OPTIONS,
  REVENUE_OPTIONS,
  listValues,
  FIELD_LIMITS,
  ROI_PHONE_PATTERN,
  LANDING_PHONE_PATTERN,
  VALIDATION_MESSAGES,
  FORM_ERROR_KEY,
  type FieldErrors,
} from './rules.ts';

// No compiled validators: zod's JIT probes `new Function`, which our Content-Security-Policy
// (script-src without 'unsafe-eval') blocks and reports as a violation on every form page.
z.config({ jitless: true });

const M = VALIDATION_MESSAGES;

// ---------------------------------------------------------------------------------------------
// Field builders

// A field absent from the submission is 'Required'; any other wrong type is 'Invalid input'.
function reportMissingOrInvalid(issue: { readonly input?: unknown }): string {
  return issue.input === undefined ? M.required : M.invalidInput;
}

// Free text is trimmed (invisible characters too, so a name of zero-width spaces is empty), its
// length is checked before it is cleaned, so no over-long text reaches the sanitiser; text a lead
// store cannot keep as typed is refused with a message (storable-text.ts); then it is cleaned and its
// lower bound checked on what will be stored.
function freeText(maxLength: number, tooLong: string) {
  return z
    .string({ error: reportMissingOrInvalid })
    .check(
      z.overwrite(trimInvisible),
      z.maxLength(maxLength, { error: tooLong, abort: true }),
      z.refine(isStorableText, { error: M.unsavableCharacter, abort: true }),
      z.overwrite(sanitizeText),
    );
}

function optionalFreeText(maxLength: number, tooLong: string) {
  return z._default(z.optional(freeText(maxLength, tooLong)), '');
}

function personName() {
  return freeText(FIELD_LIMITS.name.maxLength, M.nameTooLong).check(z.minLength(FIELD_LIMITS.name.minLength, M.nameTooShort));
}

function companyName(maxLength: number) {
  return freeText(maxLength, M.companyTooLong).check(z.minLength(FIELD_LIMITS.company.minLength, M.companyRequired));
}

// Email is only trimmed: the email format itself admits no dangerous characters.
function emailAddress(invalid: string, empty: string = invalid) {
  return z.pipe(
    z.string({ error: reportMissingOrInvalid }).check(z.trim(), z.minLength(1, empty)),
    z.email(invalid).check(z.maxLength(FIELD_LIMITS.email.maxLength, M.emailTooLong)),
  );
}

function phoneNumber(tooLong: string, pattern?: RegExp) {
  const bounded = freeText(FIELD_LIMITS.phone.maxLength, tooLong).check(z.minLength(FIELD_LIMITS.phone.minLength, M.phoneInvalid));
  return pattern === undefined ? bounded : bounded.check(z.regex(pattern, M.phoneInvalid));
}

// A numeric text input: decimal digits only (no `0x10`, no `1e300`), within its bounds. Anything
// but an amount over the maximum reads as the field's own message ('Please enter team size').
function numericText(bounds: { minimum: number; maximum: number }, message: string, tooLarge: string) {
  return z.string({ error: message }).check(
    z.trim(),
    z.superRefine((text, context) => {
      const amount = parseNumber(text);
      if (amount === undefined || amount < bounds.minimum) context.addIssue({ code: 'custom', message });
      else if (amount > bounds.maximum) context.addIssue({ code: 'custom', message: tooLarge });
    }),
  );
}

function requiredChoice<const T extends string>(values: T[], message: string) {
  return z.enum(values, { error: message });
}

// A submission that is not an object at all is reported once, with the generic message.
function leadForm<const Shape extends z.core.$ZodLooseShape>(shape: Shape) {
  return z.object(shape, { error: M.invalidInput });
}

// Optional select: '' (nothing chosen) or one of the options.
function optionalChoice<const T extends string>(values: T[]) {
  return z._default(z.optional(z.union([z.literal(''), z.enum(values)], { error: M.invalidInput })), '');
}

/**
 * A form's rules, built the first time they are asked for. Building all four as the module loaded was
 * one long task on a slow phone (~60 ms at 4× CPU slowdown) just as the visitor tapped into a form;
 * the browser now builds only the form it shows, in an idle task of its own (forms/submit-flow.ts).
 */
function builtOnce<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}

// ---------------------------------------------------------------------------------------------
// The four forms

// The home page's simple form: every value trimmed, each with its own message.
export const homeFormSchema = builtOnce(() =>
  leadForm({
    name: personName(),
    email: emailAddress(M.emailInvalid),
    phone: phoneNumber(M.phoneTooLong),
    company: companyName(FIELD_LIMITS.company.maxLength),
  }),
);

// The ROI calculator's form; bounds without a message of their own reuse the home form's wording.
export const roiFormSchema = builtOnce(() =>
  leadForm({
    companySize: requiredChoice(listValues(COMPANY_SIZE_OPTIONS), M.companySizeRequired),
    currentRevenue: numericText(FIELD_LIMITS.revenueUsd, M.currentRevenueRequired, M.currentRevenueTooLarge),
    industry: requiredChoice(listValues(INDUSTRY_OPTIONS), M.industryRequired),
    teamSize: numericText(FIELD_LIMITS.teamSize, M.teamSizeRequired, M.teamSizeTooLarge),
    averageSalary: numericText(FIELD_LIMITS.salaryUsd, M.averageSalaryRequired, M.averageSalaryTooLarge),
    manualHours: requiredChoice(listValues(MANUAL_HOURS_OPTIONS), M.manualHoursRequired),
    name: personName(),
    email: emailAddress(M.businessEmailInvalid),
    phone: phoneNumber(M.phoneInvalid, ROI_PHONE_PATTERN),
    company: companyName(FIELD_LIMITS.roiCompany.maxLength),
    challenge: optionalFreeText(FIELD_LIMITS.challenge.maxLength, M.challengeTooLong),
    best_time: optionalChoice(listValues(BEST_TIME_OPTIONS)),
  }),
);

// The contact form shows no bounds of its own: a message of 10-2000 characters, and the generic messages.
export const contactFormSchema = builtOnce(() =>
  leadForm({
    name: freeText(FIELD_LIMITS.name.maxLength, M.nameTooLong).check(z.minLength(1, M.required)),
    email: emailAddress(M.invalidEmail, M.required),
    phone: freeText(FIELD_LIMITS.phone.maxLength, M.phoneTooLong).check(z.minLength(1, M.required)),
    company: optionalFreeText(FIELD_LIMITS.company.maxLength, M.companyTooLong),
    service_interest: z.enum(listValues(SERVICE_INTEREST_OPTIONS), {
      error: (issue) => (issue.input === undefined || issue.input === '' ? M.required : M.invalidInput),
    }),
    message: freeText(FIELD_LIMITS.message.maxLength, M.messageTooLong).check(
      z.minLength(1, M.required),
      z.minLength(FIELD_LIMITS.message.minLength, M.messageTooShort),
    ),
  }),
);

// The landing page's form: the general lead rules, with the challenge required.
export const landingFormSchema = builtOnce(() =>
  leadForm({
    name: personName(),
    email: emailAddress(M.invalidEmail, M.required),
    phone: phoneNumber(M.phoneTooLong, LANDING_PHONE_PATTERN),
    company: companyName(FIELD_LIMITS.company.maxLength),
    revenue: requiredChoice(listValues(REVENUE_OPTIONS), M.revenueRequired),
    challenge: freeText(FIELD_LIMITS.challenge.maxLength, M.challengeTooLong).check(z.minLength(1, M.required)),
    bestTime: optionalChoice(listValues(BEST_TIME_OPTIONS)),
  }),
);

export type HomeFormValues = z.output<ReturnType<typeof homeFormSchema>>;
export type RoiFormValues = z.output<ReturnType<typeof roiFormSchema>>;
export type ContactFormValues = z.output<ReturnType<typeof contactFormSchema>>;
export type LandingFormValues = z.output<ReturnType<typeof landingFormSchema>>;

export interface LeadFormValuesById {
  home: HomeFormValues;
  roi: RoiFormValues;
  contact: ContactFormValues;
  landing: LandingFormValues;
}

// ---------------------------------------------------------------------------------------------
// Errors as values

/** The first message for each field, keyed by the field's wire name. */
export function collectFieldErrors(error: z.core.$ZodError): FieldErrors {
  const fieldErrors: FieldErrors = {};
  for (const issue of error.issues) {
    const [field] = issue.path;
    const key = field === undefined ? FORM_ERROR_KEY : String(field);
    fieldErrors[key] ??= issue.message;
  }
  return fieldErrors;
}

export type LeadValidationResult<T> =
  { readonly success: true; readonly data: T } | { readonly success: false; readonly fieldErrors: FieldErrors };

/** Validates with one form's schema; expected failures are a value, never a throw. */
export function validateWith<T>(schema: z.ZodMiniType<T>, values: unknown): LeadValidationResult<T> {
  const result = z.safeParse(schema, values);
  return result.success ? { success: true, data: result.data } : { success: false, fieldErrors: collectFieldErrors(result.error) };
}
