// A lead as an exported record, the same for `npm run leads -- export` and the console's download:
// one fixed set of CSV columns (delivery facts, every field a form's CRM payload can hold, then the
// rest as JSON in `extra_fields`, so a bot cannot add columns), and cells a spreadsheet cannot run.
import { ATTRIBUTION_QUERY_PARAMS } from '../../lead/attribution.ts';
import { CALLBACK_FIELDS } from '../../lead/callback-consent.ts';
import { toCsvSafeText, toTerminalSafeJson } from '../cli/terminal-text.ts';
import type { LeadRecord } from '../store/inbox/inbox-store.ts';

const EXPORT_COLUMNS = ['lead_id', 'received_at', 'source', 'state', 'spam_reason', 'attempts', 'last_status', 'last_error'] as const;

// Every field a form's CRM payload can hold, in the order an operator reads them.
export const PAYLOAD_COLUMNS = [
  'name',
  'email',
  'phone',
  'company',
  'companySize',
  'currentRevenue',
  'current_revenue_usd',
  'industry',
  'teamSize',
  'averageSalary',
  'manualHours',
  'revenue',
  'service_interest',
  'message',
  'challenge',
  'best_time',
  'bestTime',
  'roi_revenue_increase',
  'roi_labor_savings',
  'roi_total_savings',
  'roi_percentage',
  'roi_hours_saved_weekly',
  'roi_uplift_percentage',
  'submitted_at',
  'page_url',
  'user_agent',
  'referrer',
  ...ATTRIBUTION_QUERY_PARAMS,
  'landing_page',
  'first_referrer',
  // "Call me back now": whether it was asked for, and the agreement as recorded (lead/callback-consent.ts).
  CALLBACK_FIELDS.requested,
  CALLBACK_FIELDS.text,
  CALLBACK_FIELDS.at,
  CALLBACK_FIELDS.version,
  CALLBACK_FIELDS.page,
] as const;
const EXTRA_FIELDS_COLUMN = 'extra_fields';
// Payload fields the fixed export columns already show.
const SHOWN_ELSEWHERE: ReadonlySet<string> = new Set<string>([...PAYLOAD_COLUMNS, 'lead_id', 'source']);

/** The CSV's header line, with its CRLF. */
export function csvHeaderLine(): string {
  return `${[...EXPORT_COLUMNS, ...PAYLOAD_COLUMNS, EXTRA_FIELDS_COLUMN].map(toCsvCell).join(',')}\r\n`;
}

const CALLBACK_COLUMNS: ReadonlySet<string> = new Set<string>(Object.values(CALLBACK_FIELDS));

/**
 * Whether the lead's call-back columns are the relay's record: it writes `callback_requested` as true
 * or false, with the wording of its own build. A lead kept as spam holds whatever a bot posted under
 * those names (any "agreement" text, any time), so its values go to `extra_fields` instead, and the
 * consent columns never hold words the site did not show.
 */
function hasRecordedCallback(payload: Readonly<Record<string, unknown>>): boolean {
  return Object.hasOwn(payload, CALLBACK_FIELDS.requested) && typeof payload[CALLBACK_FIELDS.requested] === 'boolean';
}

/** One lead as a CSV line, with its CRLF. */
export function csvLeadLine(lead: LeadRecord): string {
  const record = toExportRecord(lead);
  const recorded = hasRecordedCallback(lead.payload);
  const shown = (column: string) => !CALLBACK_COLUMNS.has(column) || recorded;
  const extra = Object.entries(lead.payload).filter(([key]) => !SHOWN_ELSEWHERE.has(key) || !shown(key));
  const cells = [
    ...EXPORT_COLUMNS.map((column) => record[column]),
    ...PAYLOAD_COLUMNS.map((column) => (shown(column) && Object.hasOwn(lead.payload, column) ? lead.payload[column] : undefined)),
    extra.length === 0 ? undefined : JSON.stringify(Object.fromEntries(extra)),
  ];
  return `${cells.map(toCsvCell).join(',')}\r\n`;
}

/** A lead as the JSON export holds it: delivery facts and the full payload. */
export function toExportRecord(lead: LeadRecord) {
  return {
    lead_id: lead.id,
    received_at: new Date(lead.receivedAt).toISOString(),
    source: lead.source,
    state: lead.state,
    spam_reason: lead.spamReason ?? null,
    attempts: lead.attempts,
    last_status: lead.lastStatus ?? null,
    last_error: lead.lastError ?? null,
    payload: lead.payload,
  };
}

/** JSON of exported records with every control and reordering character escaped: the data exactly, nothing raw. */
export function toExportJson(value: unknown): string {
  return toTerminalSafeJson(value);
}

// Spreadsheet apps run cells starting with these as formulas; lead text is visitor input.
const FORMULA_START = /^[=+\-@\t\r]/;

/** A CSV cell: formulas neutralised, control characters other than tab and line breaks as `\xHH` text. */
export function toCsvCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  const raw = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  let text = toCsvSafeText(raw);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
