// What the console shows of a lead, built from the stored record: pure functions from the store's
// records to the API's shapes (console/api-types.ts), and from the API's filters to a store query.
// Every value a visitor typed goes out as a JSON string, never as markup: the app renders it as text.
import { z } from 'zod';
import { ATTRIBUTION_QUERY_PARAMS } from '../../lead/attribution.ts';
import { CALLBACK_FIELDS } from '../../lead/callback-consent.ts';
import {
  LEAD_STATUSES,
  leadStatusOf,
  type DeliveryAttempt,
  type LeadDetail,
  type LeadFilter,
  type LeadSalesDetail,
  type LeadStatus,
  type LeadSummary,
  type PersonRef,
  type SalesStatus,
} from '../../console/api-types.ts';
import { MIN_FILL_TIME_MS, SPAM_REASONS } from '../leads/spam.ts';
import type { AttemptRecord } from '../store/outbox/outbox-store.ts';
import type { LeadQuery, LeadRecord } from '../store/inbox/inbox-store.ts';
import { consoleText } from './request-checks.ts';

/** The start of the CRM's answer a timeline shows. */
export const ANSWER_START_CHARS = 500;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Attribution fields the detail shows on their own lines; the rest of ATTRIBUTION_KEYS go under `other`. */
const NAMED_ATTRIBUTION = {
  campaign: 'utm_campaign',
  source: 'utm_source',
  medium: 'utm_medium',
  referrer: 'referrer',
  landingPage: 'landing_page',
} as const;
/** Where a visit came from: kept apart from what the visitor typed. */
export const ATTRIBUTION_KEYS: readonly string[] = [...ATTRIBUTION_QUERY_PARAMS, 'referrer', 'first_referrer', 'landing_page'];
/** Ids the relay adds to the payload: not something the visitor sent. */
const ID_KEYS: readonly string[] = ['lead_id', 'source'];

/** Why a lead was judged spam, one sentence per flag the relay or an operator set. */
const SPAM_SIGNALS: Readonly<Record<string, string>> = {
  [SPAM_REASONS.honeypot]: 'The hidden field that people never see was filled in.',
  [SPAM_REASONS.tooFast]: `The form was sent less than ${MIN_FILL_TIME_MS / 1000} seconds after it appeared.`,
  [SPAM_REASONS.links]:
    'It held links: a web address starting http(s):// in a name, phone or message, link markup, or more than one web address.',
};

function text(payload: LeadRecord['payload'], key: string): string | null {
  const value = Object.hasOwn(payload, key) ? payload[key] : undefined;
  if (value === undefined || value === null) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function iso(time: number | undefined): string | null {
  return time === undefined ? null : new Date(time).toISOString();
}

/**
 * One inbox row. `sales` is the lead's owner (as the console names them, null for nobody or an
 * account gone) and status when it is in the sales queue; a lead outside it (spam, or stored before
 * the queue existed) shows neither.
 */
export function toLeadSummary(lead: LeadRecord, sales?: { owner: PersonRef | null; status: SalesStatus }): LeadSummary {
  return {
    phone: text(lead.payload, 'phone') ?? '',
    ...(sales === undefined ? {} : { owner: sales.owner, salesStatus: sales.status }),
    id: lead.id,
    receivedAt: new Date(lead.receivedAt).toISOString(),
    form: lead.source,
    name: text(lead.payload, 'name') ?? '',
    email: lead.email || (text(lead.payload, 'email') ?? ''),
    company: text(lead.payload, 'company') ?? '',
    state: lead.state,
    status: leadStatusOf(lead.state, lead.attempts),
    spamReason: lead.spamReason ?? null,
    spamSignals: spamSignalsOf(lead.spamReason),
    attempts: lead.attempts,
    nextAttemptAt: iso(lead.nextAttemptAt),
    campaign: text(lead.payload, 'utm_campaign'),
    source: text(lead.payload, 'utm_source'),
    callbackRequested: callbackOf(lead).requested,
  };
}

/**
 * Whether the visitor asked to be called back now, with the agreement the relay recorded. Only a lead
 * the relay built and sends counts (its `callback_requested` is true, not a ticked box's raw "yes"): a
 * box ticked on spam asks nobody to call, and "Not spam" sends the lead without it.
 */
export function callbackOf(lead: LeadRecord): LeadSalesDetail['callback'] {
  const requested =
    lead.state !== 'spam' && Object.hasOwn(lead.payload, CALLBACK_FIELDS.requested) && lead.payload[CALLBACK_FIELDS.requested] === true;
  return {
    requested,
    consentText: requested ? text(lead.payload, CALLBACK_FIELDS.text) : null,
    consentAt: requested ? text(lead.payload, CALLBACK_FIELDS.at) : null,
  };
}

/** The reasons stored in one spam reason (flags are joined with commas), each as a sentence. */
export function spamSignalsOf(spamReason: string | undefined): string[] {
  if (spamReason === undefined) return [];
  return spamReason
    .split(/[,;]/)
    .map((flag) => flag.trim())
    .filter((flag) => flag !== '')
    .map((flag) => SPAM_SIGNALS[flag] ?? flag);
}

export function toDeliveryAttempt(attempt: AttemptRecord): DeliveryAttempt {
  return {
    at: new Date(attempt.attemptedAt).toISOString(),
    durationMs: attempt.durationMs,
    status: attempt.status ?? null,
    answerStart: attempt.responseBody === undefined ? null : attempt.responseBody.slice(0, ANSWER_START_CHARS),
    error: attempt.error ?? null,
    outcome: attempt.outcome,
  };
}

export function toLeadDetail(lead: LeadRecord, attempts: readonly AttemptRecord[]): LeadDetail {
  const entries = Object.entries(lead.payload);
  const named: ReadonlySet<string> = new Set(Object.values(NAMED_ATTRIBUTION));
  // A yes-or-no field ("Asked for a call-back now") reads as Yes or No, not as a programmer's true or false.
  const asText = (value: unknown) =>
    typeof value === 'string' ? value : typeof value === 'boolean' ? (value ? 'Yes' : 'No') : (JSON.stringify(value) ?? '');
  return {
    ...toLeadSummary(lead),
    fields: entries
      .filter(([key]) => !ATTRIBUTION_KEYS.includes(key) && !ID_KEYS.includes(key))
      .map(([key, value]) => [key, asText(value)]),
    attribution: {
      campaign: text(lead.payload, NAMED_ATTRIBUTION.campaign),
      source: text(lead.payload, NAMED_ATTRIBUTION.source),
      medium: text(lead.payload, NAMED_ATTRIBUTION.medium),
      referrer: text(lead.payload, NAMED_ATTRIBUTION.referrer),
      landingPage: text(lead.payload, NAMED_ATTRIBUTION.landingPage),
      other: entries.filter(([key]) => ATTRIBUTION_KEYS.includes(key) && !named.has(key)).map(([key, value]) => [key, asText(value)]),
    },
    spamSignals: spamSignalsOf(lead.spamReason),
    attemptsLog: attempts.map(toDeliveryAttempt),
  };
}

// Cursors are opaque to the app: the position of the last row shown, as base64url JSON.

export function encodeCursor(at: number, id: string | number): string {
  return Buffer.from(JSON.stringify([at, id]), 'utf8').toString('base64url');
}

/** The position a cursor names, or undefined when it is not one this server made. */
export function decodeCursor(cursor: string): { at: number; id: string | number } | undefined {
  if (!/^[\w-]{1,400}$/.test(cursor)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 2) return undefined;
    const [at, id] = value as unknown[];
    if (typeof at !== 'number' || !Number.isSafeInteger(at)) return undefined;
    if (typeof id !== 'string' && !(typeof id === 'number' && Number.isSafeInteger(id))) return undefined;
    return { at, id };
  } catch {
    return undefined;
  }
}

/** A lead's id as the relay makes it (randomUUID): lower-case hex in 8-4-4-4-12 groups. */
const LEAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function isLeadId(id: unknown): id is string {
  return typeof id === 'string' && LEAD_ID.test(id);
}

/** A lead id in a path or a body: the relay's shape (any case), so nothing else reaches the store. */
export const leadIdSchema = z
  .string()
  .transform((id) => id.toLowerCase())
  .refine(isLeadId, 'Must be a lead id, such as 7f1d2c3b-0000-4000-8000-000000000001.');

const CURSOR_MESSAGE = 'Not a position this server gave out: start again from the first page.';

/** A cursor query parameter, checked and decoded: a lead's position (its id a lead id) or an audit entry's (a number). */
function cursorOf<Id extends string | number>(isId: (id: unknown) => id is Id) {
  return z.string().transform((cursor, context) => {
    const decoded = decodeCursor(cursor);
    if (decoded === undefined || !isId(decoded.id)) {
      context.addIssue({ code: 'custom', message: CURSOR_MESSAGE });
      return z.NEVER;
    }
    return { at: decoded.at, id: decoded.id };
  });
}

export const leadCursorSchema = cursorOf(isLeadId);
export const auditCursorSchema = cursorOf((id): id is number => typeof id === 'number');

/** An optional query parameter: absent and empty mean the same (a cleared filter). */
export function optional<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (value === '' ? undefined : value), schema.optional());
}

const DAY_MESSAGE = 'Must be a day written YYYY-MM-DD.';

/** True when a YYYY-MM-DD text names a day the calendar has (not 2026-13-01, not 2026-02-30). */
function isRealDay(value: string): boolean {
  const time = Date.parse(`${value}T00:00:00Z`);
  return Number.isFinite(time) && new Date(time).toISOString().slice(0, 10) === value;
}

// One check, not a regex followed by a refine: zod runs every check of a string even after one
// failed, and a refine that dated a malformed text threw instead of refusing it.
export const day = z.string().superRefine((value, context) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) context.addIssue({ code: 'custom', message: DAY_MESSAGE });
  else if (!isRealDay(value)) context.addIssue({ code: 'custom', message: `Not a real date: ${value} does not exist.` });
});

/** The inbox's filters (LeadFilter), as query parameters. */
export const leadFilterShape = {
  form: optional(consoleText(200)),
  state: optional(z.enum(LEAD_STATUSES)),
  spam: optional(z.enum(['yes', 'no'])),
  from: optional(day),
  to: optional(day),
  campaign: optional(consoleText(500)),
  source: optional(consoleText(500)),
  q: optional(consoleText(254)),
};

/** Refuses a range that ends before it starts. */
export function checkDayRange(filter: Pick<LeadFilter, 'from' | 'to'>, context: z.RefinementCtx): void {
  if (filter.from !== undefined && filter.to !== undefined && filter.to < filter.from)
    context.addIssue({ code: 'custom', path: ['to'], message: 'Must be on or after "from".' });
}

/** Each status as the store finds it: waiting and retrying are pending leads, told apart by their attempts. */
const STATUS_QUERIES: Readonly<Record<LeadStatus, Pick<LeadQuery, 'state' | 'attempted'>>> = {
  held: { state: 'held' },
  waiting: { state: 'pending', attempted: false },
  retrying: { state: 'pending', attempted: true },
  delivered: { state: 'delivered' },
  'delivered-test': { state: 'delivered-test' },
  failed: { state: 'failed' },
  spam: { state: 'spam' },
};

/** The store query for a filter: days are whole UTC days, `to` included. */
export function toLeadQuery(filter: LeadFilter): LeadQuery {
  const dayStart = (value: string) => Date.parse(`${value}T00:00:00Z`);
  return {
    ...(filter.form === undefined ? {} : { source: filter.form }),
    ...(filter.state === undefined ? {} : STATUS_QUERIES[filter.state]),
    // A status other than spam already leaves spam out: "not spam" on top would only slow the query.
    ...(filter.spam === undefined || (filter.spam === 'no' && filter.state !== undefined && filter.state !== 'spam')
      ? {}
      : { spam: filter.spam === 'yes' }),
    ...(filter.from === undefined ? {} : { receivedFrom: dayStart(filter.from) }),
    ...(filter.to === undefined ? {} : { receivedBefore: dayStart(filter.to) + DAY_MS }),
    ...(filter.campaign === undefined ? {} : { campaign: filter.campaign }),
    ...(filter.source === undefined ? {} : { utmSource: filter.source }),
    ...(filter.q === undefined ? {} : { search: filter.q }),
  };
}
