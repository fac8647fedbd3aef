import { parseArgs } from 'node:util';
import { ATTRIBUTION_QUERY_PARAMS } from '../../lead/attribution.ts';
import { maskEmail } from '../leads/mask.ts';
import { DELIVERY_STATES } from '../store/lead-store.ts';
import type { DeliveryState, LeadRecord, LeadStore } from '../store/lead-store.ts';
import { runSubcommand, UsageError, type CliIo } from './subcommands.ts';
import { formatTable, toCsvSafeText, toTerminalCell, toTerminalSafeJson } from './terminal-text.ts';

// `npm run leads -- list | export --format csv|json | retry <id|--failed> | erase --email <addr>`
//. The command works on an open store and writes to `out`, so
// it is tested without a process; server/cli/leads.ts opens the configured store and runs it.

export const USAGE = `Usage: npm run leads -- <command>

  list [--state <state>] [--limit <n>]   leads, oldest first (email masked), with delivery state
  export --format csv|json [--state <state>]
                                         every lead with its full payload, to standard output
  retry <id>                             forward one lead again (failed, delivered-test, held, spam)
  retry --failed                         forward every failed lead again
  erase --email <address>                delete every lead of that address and its delivery history

States: ${DELIVERY_STATES.join(', ')}
`;

/** Runs one command; resolves to the process exit code (0 ok, 1 nothing done, 2 usage error). */
export function runLeadsCommand(argv: readonly string[], store: LeadStore, io: CliIo): Promise<number> {
  return runSubcommand(
    argv,
    {
      list: (args) => list(args, store, io),
      export: (args) => exportLeads(args, store, io),
      retry: (args) => retry(args, store, io),
      erase: (args) => erase(args, store, io),
    },
    USAGE,
    io,
  );
}

function readState(value: string | undefined): DeliveryState | undefined {
  if (value === undefined) return undefined;
  const state = DELIVERY_STATES.find((candidate) => candidate === value);
  if (state === undefined) throw new UsageError(`Unknown state "${toTerminalCell(value)}".`);
  return state;
}

function readLimit(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new UsageError(`--limit must be a whole number of at least 1, got "${toTerminalCell(value)}".`);
  return Number(value);
}

async function list(args: readonly string[], store: LeadStore, io: CliIo): Promise<number> {
  const { values } = parseArgs({ args: [...args], options: { state: { type: 'string' }, limit: { type: 'string' } } });
  const leads = await store.listLeads({ state: readState(values.state), limit: readLimit(values.limit) });
  const header = ['ID', 'RECEIVED', 'SOURCE', 'EMAIL', 'STATE', 'ATTEMPTS', 'LAST ANSWER'];
  const rows = leads.map((lead) => [
    lead.id,
    new Date(lead.receivedAt).toISOString(),
    lead.source,
    lead.email === '' ? '-' : maskEmail(lead.email),
    lead.spamReason === undefined ? lead.state : `${lead.state} (${lead.spamReason})`,
    String(lead.attempts),
    describeLastAnswer(lead),
  ]);
  io.out(formatTable([header, ...rows]));
  const counts = await store.countByState();
  const summary = DELIVERY_STATES.filter((state) => counts[state] !== undefined).map((state) => `${state}: ${counts[state]}`);
  io.out(`\n${leads.length} shown · ${summary.length === 0 ? 'no leads' : summary.join(' · ')}\n`);
  const testOnly = counts['delivered-test'] ?? 0;
  if (testOnly > 0) {
    io.out(
      `Note: ${testOnly} lead(s) are delivered-test: the CRM answered that its workflow only received a test request, ` +
        'so they reached no live workflow. Publish the workflow, then `npm run leads -- retry <id>`.\n',
    );
  }
  return 0;
}

function describeLastAnswer(lead: LeadRecord): string {
  if (lead.lastStatus !== undefined) return `HTTP ${lead.lastStatus}`;
  if (lead.lastError !== undefined) return lead.lastError;
  if (lead.state === 'pending' && lead.nextAttemptAt !== undefined) return `due ${new Date(lead.nextAttemptAt).toISOString()}`;
  return '-';
}

const EXPORT_COLUMNS = ['lead_id', 'received_at', 'source', 'state', 'spam_reason', 'attempts', 'last_status', 'last_error'] as const;

// Every field a form's CRM payload can hold, in the order an operator reads them. The CSV has these
// columns and no others, whatever a submission carried; anything else a lead holds (spam keeps what
// a bot posted) goes, as JSON, into the one `extra_fields` column.
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
] as const;
const EXTRA_FIELDS_COLUMN = 'extra_fields';
// Payload fields the fixed export columns already show.
const SHOWN_ELSEWHERE: ReadonlySet<string> = new Set<string>([...PAYLOAD_COLUMNS, 'lead_id', 'source']);

async function exportLeads(args: readonly string[], store: LeadStore, io: CliIo): Promise<number> {
  const { values } = parseArgs({ args: [...args], options: { format: { type: 'string' }, state: { type: 'string' } } });
  if (values.format !== 'csv' && values.format !== 'json') throw new UsageError('export needs --format csv or --format json.');
  const leads = await store.listLeads({ state: readState(values.state) });
  if (values.format === 'json') {
    io.out(`${toTerminalSafeJson(leads.map(toExportRecord))}\n`);
    return 0;
  }
  const lines = [[...EXPORT_COLUMNS, ...PAYLOAD_COLUMNS, EXTRA_FIELDS_COLUMN].map(toCsvCell).join(',')];
  for (const lead of leads) {
    const record = toExportRecord(lead);
    const extra = Object.entries(lead.payload).filter(([key]) => !SHOWN_ELSEWHERE.has(key));
    const cells = [
      ...EXPORT_COLUMNS.map((column) => record[column]),
      ...PAYLOAD_COLUMNS.map((column) => (Object.hasOwn(lead.payload, column) ? lead.payload[column] : undefined)),
      extra.length === 0 ? undefined : JSON.stringify(Object.fromEntries(extra)),
    ];
    lines.push(cells.map(toCsvCell).join(','));
  }
  io.out(`${lines.join('\r\n')}\r\n`);
  return 0;
}

function toExportRecord(lead: LeadRecord) {
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

async function retry(args: readonly string[], store: LeadStore, io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args: [...args], options: { failed: { type: 'boolean' } }, allowPositionals: true });
  const [id, extra] = positionals;
  if ((values.failed === true) === (id !== undefined) || extra !== undefined) {
    throw new UsageError('retry needs one lead id, or --failed.');
  }
  const retried = await store.retry(id === undefined ? { state: 'failed' } : { id }, io.now());
  if (id !== undefined && retried.length === 0) {
    const lead = await store.getLead(id);
    const shownId = toTerminalCell(id);
    io.err(
      lead === undefined
        ? `No lead with id ${shownId}.\n`
        : `Lead ${shownId} is ${lead.state}${lead.state === 'pending' ? ' and being delivered right now' : ''}: nothing to retry.\n`,
    );
    return 1;
  }
  io.out(`${retried.length} lead(s) queued for delivery: the running server forwards them within its poll interval.\n`);
  return 0;
}

async function erase(args: readonly string[], store: LeadStore, io: CliIo): Promise<number> {
  const { values } = parseArgs({ args: [...args], options: { email: { type: 'string' } } });
  const email = values.email?.trim();
  if (email === undefined || email === '') throw new UsageError('erase needs --email <address>.');
  const erased = await store.eraseByEmail(email);
  io.out(`${erased.length} lead(s) of ${toTerminalCell(maskEmail(email))} erased, with their delivery history.\n`);
  return 0;
}
