import { ATTRIBUTION_FIELDS, ATTRIBUTION_VALUE_MAX_LENGTH, cleanAttributionValue } from '../../lead/attribution.ts';
import type { Attribution } from '../../lead/attribution.ts';
import { readCallbackRequest, type CallbackWordings } from '../../lead/callback-consent.ts';
import type { PayloadContext } from '../../lead/crm-payload.ts';
import { acceptLead, findLeadForm, LEAD_FORMS } from '../../lead/forms.ts';
import { sanitizeText } from '../../lead/sanitize.ts';
import { cutText, toStorableText } from '../../lead/storable-text.ts';
import { FIELD_LIMITS, FORM_ERROR_KEY, FORM_FIELD_LABELS, VALIDATION_MESSAGES } from '../../lead/rules.ts';
import type { FieldErrors, LeadFormId } from '../../lead/rules.ts';
import { parseNumber, type RoiParameters } from '../../lead/roi/engine.ts';
import { judgeSpam } from './spam.ts';
import type { SpamReason } from './spam.ts';

// From a submitted body to the lead the relay stores and forwards (pure: time and parameters are
// passed in). The body holds the form's values as typed, its `source` and the visit; the form's entry
// in lead/forms.ts checks the values with the browser's own rules and builds the CRM payload, so the
// ROI figures and the revenue bracket are computed here, with the build's numbers, never taken from
// the browser.

export type IntakeContext = {
  /** Server receive time, ms since the epoch: the payload's `submitted_at`. */
  readonly receivedAt: number;
  readonly roiParameters: RoiParameters;
  /** The "call me back now" wordings the site's builds have shown, by version: a ticked box's text comes from here. */
  readonly callbackWordings: CallbackWordings;
  /** Request headers standing in for fields a form posted without JavaScript cannot send. */
  readonly userAgentHeader: string | undefined;
  readonly refererHeader: string | undefined;
};

export type IntakeResult =
  | { readonly kind: 'invalid'; readonly formId: LeadFormId | undefined; readonly fields: FieldErrors }
  | {
      readonly kind: 'accepted';
      readonly formId: LeadFormId | undefined;
      readonly source: string;
      readonly email: string;
      readonly phone: string;
      readonly payload: Readonly<Record<string, unknown>>;
      readonly spamReason: SpamReason | undefined;
    };

// The forms' rules are built when first asked for (the browser builds only the one it shows); the
// server builds all of them as it starts, so a rule that cannot be built stops it there, not at a
// visitor's submission.
for (const entry of Object.values(LEAD_FORMS)) void entry.schema;

// Browser-supplied context fields (page address, user agent, referrer) are cut to this length.
export const CONTEXT_FIELD_MAX_LENGTH = 2_000;
// A spam value longer than the longest form field (a message) is cut to it before cleaning.
const SPAM_VALUE_MAX_LENGTH = FIELD_LIMITS.message.maxLength;
// Stands in for `source` when a spam submission names no known form.
const UNKNOWN_SOURCE = 'unknown';

export function takeInLead(body: unknown, context: IntakeContext): IntakeResult {
  if (!isPlainObject(body)) return { kind: 'invalid', formId: undefined, fields: { [FORM_ERROR_KEY]: VALIDATION_MESSAGES.invalidInput } };
  const fields = stringifyNumbers(body);
  const entry = findLeadForm(fields.source);
  const spamReason = judgeSpam(fields, context.receivedAt);

  if (entry === undefined) {
    if (spamReason !== undefined) return acceptSpam(fields, spamReason);
    const message = fields.source === undefined ? VALIDATION_MESSAGES.required : VALIDATION_MESSAGES.invalidInput;
    return { kind: 'invalid', formId: undefined, fields: { source: message } };
  }

  const callback = readCallbackRequest(fields, context.callbackWordings);
  const accepted = acceptLead(entry, fields, {
    ...describeContext(fields, context),
    roiParameters: context.roiParameters,
    callbackConsent: callback.kind === 'requested' ? callback.consent : undefined,
  });
  if (!accepted.success || callback.kind === 'invalid') {
    // A bot gets the same answer as a person who succeeded: it learns nothing from a 400.
    if (spamReason !== undefined) return acceptSpam(fields, spamReason);
    const fieldErrors = { ...(accepted.success ? {} : accepted.fieldErrors), ...(callback.kind === 'invalid' ? callback.fields : {}) };
    return { kind: 'invalid', formId: entry.form, fields: fieldErrors };
  }
  return {
    kind: 'accepted',
    formId: entry.form,
    source: entry.source,
    email: accepted.payload.email,
    phone: accepted.payload.phone,
    payload: { ...accepted.payload },
    spamReason,
  };
}

export type RebuildResult =
  | { readonly kind: 'invalid'; readonly formId: LeadFormId | undefined; readonly fields: FieldErrors }
  | { readonly kind: 'rebuilt'; readonly source: string; readonly email: string; readonly payload: Readonly<Record<string, unknown>> };

/**
 * A stored lead built again as a new lead of its form would be, for "Not spam": spam is kept as it
 * came, with any fields a bot made up, so only what the form's checks accept is forwarded, and the
 * ROI figures, the revenue bracket and `submitted_at` (the time the relay received it) are computed
 * here again. A lead that was built once already builds the same way a second time. A call-back is
 * never requested on the way out of spam: the visitor asked to be called within a minute, and an
 * automated call hours later is not what they agreed to; a salesperson calls instead.
 */
export function rebuildLead(
  lead: { readonly source: string; readonly receivedAt: number; readonly payload: Readonly<Record<string, unknown>> },
  roiParameters: RoiParameters,
): RebuildResult {
  const entry = findLeadForm(lead.source);
  if (entry === undefined) return { kind: 'invalid', formId: undefined, fields: { source: VALIDATION_MESSAGES.invalidInput } };
  const fields = stringifyNumbers(lead.payload);
  // A built ROI lead keeps the revenue as typed in `current_revenue_usd`; its `currentRevenue` is the bracket.
  if (entry.form === 'roi' && typeof fields.currentRevenue === 'string' && parseNumber(fields.currentRevenue) === undefined) {
    fields.currentRevenue = fields.current_revenue_usd;
  }
  const context = {
    receivedAt: lead.receivedAt,
    roiParameters,
    callbackWordings: new Map<string, string>(),
    userAgentHeader: undefined,
    refererHeader: undefined,
  };
  const accepted = acceptLead(entry, fields, { ...describeContext(fields, context), roiParameters });
  if (!accepted.success) return { kind: 'invalid', formId: entry.form, fields: accepted.fieldErrors };
  return { kind: 'rebuilt', source: entry.source, email: accepted.payload.email, payload: { ...accepted.payload } };
}

/** What a lead that fails its form's checks has wrong, in the words its form shows ("Business Email: Please enter…"). */
export function describeFieldErrors(formId: LeadFormId | undefined, fields: FieldErrors): string {
  const labels: Readonly<Record<string, string>> = formId === undefined ? {} : FORM_FIELD_LABELS[formId];
  return Object.entries(fields)
    .map(([field, message]) =>
      field === 'source' && formId === undefined ? 'it names no form of this site' : `${labels[field] ?? field}: ${message}`,
    )
    .join('; ');
}

function describeContext(fields: Record<string, unknown>, context: IntakeContext): PayloadContext {
  return {
    now: new Date(context.receivedAt),
    pageUrl: readContextField(fields.page_url) ?? readContextField(context.refererHeader) ?? '',
    userAgent: readContextField(fields.user_agent) ?? readContextField(context.userAgentHeader) ?? '',
    referrer: readContextField(fields.referrer) ?? '',
    attribution: pickAttribution(fields),
  };
}

function pickAttribution(fields: Record<string, unknown>): Attribution {
  const attribution: Attribution = {};
  for (const field of ATTRIBUTION_FIELDS) {
    // Control and invisible characters go first, so none can hide a construct from the sanitiser.
    const value = typeof fields[field] === 'string' ? cleanAttributionValue(fields[field]) : undefined;
    if (typeof value !== 'string') continue;
    const cleaned = keepableText(value, ATTRIBUTION_VALUE_MAX_LENGTH);
    if (cleaned !== '') attribution[field] = cleaned;
  }
  return attribution;
}

function readContextField(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const cleaned = keepableText(value, CONTEXT_FIELD_MAX_LENGTH);
  return cleaned === '' ? undefined : cleaned;
}

/**
 * Text nobody typed into a field (the page address, the browser's name, attribution, spam), cut to
 * `maxLength` and cleaned: made storable rather than refused, since no visitor could correct it.
 */
function keepableText(value: string, maxLength: number): string {
  return sanitizeText(toStorableText(cutText(value, maxLength)));
}

/**
 * Spam is kept as it came (strings only, each cut to the longest field any form has, then
 * sanitised; names and values made storable) so an operator can judge it; it is never forwarded.
 */
function acceptSpam(fields: Record<string, unknown>, spamReason: SpamReason): IntakeResult {
  const kept: Record<string, string> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value === 'string') kept[toStorableText(key)] = keepableText(value, SPAM_VALUE_MAX_LENGTH);
  }
  const entry = findLeadForm(fields.source);
  return {
    kind: 'accepted',
    formId: entry?.form,
    source: entry?.source ?? UNKNOWN_SOURCE,
    email: kept.email ?? '',
    phone: kept.phone ?? '',
    payload: kept,
    spamReason,
  };
}

// Keys that would reach an object's prototype when assigned; no form field is named like this.
const UNSAFE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

// JSON clients may send numbers where the forms send text (teamSize: 12); the schemas read text.
function stringifyNumbers(body: Record<string, unknown>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (UNSAFE_KEYS.has(key)) continue;
    fields[key] = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  }
  return fields;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
