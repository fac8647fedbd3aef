import type { AuditWriter } from '../store/audit/audit-store.ts';
import type { InboxStore } from '../store/inbox/inbox-store.ts';

/** What the leads commands use: the inbox, and the audit log their changes are written to. */
type LeadsCliStore = InboxStore & AuditWriter;
import { parseArgs } from 'node:util';
import { csvHeaderLine, csvLeadLine, toExportJson, toExportRecord } from '../leads/lead-export.ts';
import { maskEmail } from '../../lead/mask.ts';
import { eraseLeadsByEmail, recordLeadExport, retryEveryFailed, retryLeads, sendLeadAgain } from '../leads/operations.ts';
import { forwardNotSpam } from '../leads/not-spam.ts';
import type { RoiParameters } from '../../lead/roi/engine.ts';
import { actingAt, runSubcommand, UsageError, type CliIo } from './subcommands.ts';
import { DELIVERY_STATES } from '../store/outbox/outbox-store.ts';
import { SEND_AGAIN_STATES } from '../store/inbox/inbox-store.ts';
import type { DeliveryState } from '../store/outbox/outbox-store.ts';
import type { LeadRecord } from '../store/inbox/inbox-store.ts';
import { formatTable, toTerminalCell } from './terminal-text.ts';

// `npm run leads -- list | export --format csv|json | retry <id|--failed> | not-spam <id> | erase --email <addr>`
//. The command works on an open store and writes to `out`, so
// it is tested without a process; server/cli/leads.ts opens the configured store and runs it.
// Export, retry, send again, not-spam and erase go through the operations the console uses
// (leads/operations.ts), which write their audit entries with `io.actor`.

export const USAGE = `Usage: npm run leads -- <command>

  list [--state <state>] [--limit <n>]   leads, oldest first (email masked), with delivery state
  export --format csv|json [--state <state>]
                                         every lead with its full payload, to standard output
  retry <id>                             forward one lead the CRM does not have yet (failed, held, waiting)
  retry <id> --send-again                send a delivered (or test-delivered) lead again: the CRM gets a second copy
  retry --failed                         forward every failed lead again (never spam, never a delivered lead)
  not-spam <id>                          a lead wrongly judged spam: forward it now, like "Not spam" in the console
  erase --email <address>                delete every lead of that address and its delivery history

States: ${DELIVERY_STATES.join(', ')}
`;

export type LeadsCommandOptions = {
  /** The build's ROI numbers, which a lead forwarded by not-spam is computed with again. */
  readonly loadRoiParameters: () => Promise<RoiParameters>;
};

/** Runs one command; resolves to the process exit code (0 ok, 1 nothing done, 2 usage error). */
export function runLeadsCommand(argv: readonly string[], store: LeadsCliStore, io: CliIo, options: LeadsCommandOptions): Promise<number> {
  return runSubcommand(
    argv,
    {
      list: (args) => list(args, store, io),
      export: (args) => exportLeads(args, store, io),
      retry: (args) => retry(args, store, io),
      'not-spam': (args) => notSpam(args, store, io, options),
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

async function list(args: readonly string[], store: LeadsCliStore, io: CliIo): Promise<number> {
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
        'so they reached no live workflow. Publish the workflow, then `npm run leads -- retry <id> --send-again`.\n',
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

async function exportLeads(args: readonly string[], store: LeadsCliStore, io: CliIo): Promise<number> {
  const { values } = parseArgs({ args: [...args], options: { format: { type: 'string' }, state: { type: 'string' } } });
  if (values.format !== 'csv' && values.format !== 'json') throw new UsageError('export needs --format csv or --format json.');
  const state = readState(values.state);
  const leads = await store.listLeads({ state });
  await recordLeadExport(store, actingAt(io), values.format, { state });
  if (values.format === 'json') {
    io.out(`${toExportJson(leads.map(toExportRecord))}\n`);
    return 0;
  }
  io.out(csvHeaderLine());
  for (const lead of leads) io.out(csvLeadLine(lead));
  return 0;
}

/** Why `retry <id>` left a lead alone, and what would send it. */
function whyNotRetried(id: string, lead: LeadRecord | undefined): string {
  const shownId = toTerminalCell(id);
  if (lead === undefined) return `No lead with id ${shownId}.\n`;
  if (lead.state === 'spam')
    return `Lead ${shownId} is spam: nothing was sent. Spam goes to the CRM only once it is marked "Not spam" in the console's Spam view.\n`;
  if (SEND_AGAIN_STATES.includes(lead.state))
    return (
      `Lead ${shownId} is ${lead.state}: the CRM already has it, so nothing was sent. ` +
      `To send it a second copy: npm run leads -- retry ${shownId} --send-again\n`
    );
  return `Lead ${shownId} is being delivered right now: nothing to retry.\n`;
}

async function retry(args: readonly string[], store: LeadsCliStore, io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    options: { failed: { type: 'boolean' }, 'send-again': { type: 'boolean' } },
    allowPositionals: true,
  });
  const [id, extra] = positionals;
  const sendAgain = values['send-again'] === true;
  if ((values.failed === true) === (id !== undefined) || extra !== undefined || (sendAgain && id === undefined)) {
    throw new UsageError('retry needs one lead id (with --send-again for a delivered lead), or --failed.');
  }
  if (id !== undefined && sendAgain) {
    if (await sendLeadAgain(store, actingAt(io), id)) {
      io.out(`Lead ${toTerminalCell(id)} queued to be sent again: the CRM gets a second copy within the server's poll interval.\n`);
      return 0;
    }
    const lead = await store.getLead(id);
    io.err(
      lead === undefined || SEND_AGAIN_STATES.includes(lead.state)
        ? whyNotRetried(id, lead).replace('nothing to retry', 'nothing was sent again')
        : `Lead ${toTerminalCell(id)} is not delivered (it is ${lead.state}): use retry without --send-again.\n`,
    );
    return 1;
  }
  const { moved: retried } = id === undefined ? await retryEveryFailed(store, actingAt(io)) : await retryLeads(store, actingAt(io), [id]);
  if (id !== undefined && retried.length === 0) {
    io.err(whyNotRetried(id, await store.getLead(id)));
    return 1;
  }
  const byState = DELIVERY_STATES.map((state) => [state, retried.filter((lead) => lead.from === state).length] as const)
    .filter(([, count]) => count > 0)
    .map(([state, count]) => `${count} ${state}`);
  io.out(
    `${retried.length} lead(s) queued for delivery${byState.length > 0 ? ` (${byState.join(', ')})` : ''}: ` +
      'the running server forwards them within its poll interval.\n',
  );
  return 0;
}

async function notSpam(args: readonly string[], store: LeadsCliStore, io: CliIo, options: LeadsCommandOptions): Promise<number> {
  const { positionals } = parseArgs({ args: [...args], allowPositionals: true });
  const [id, extra] = positionals;
  if (id === undefined || extra !== undefined) throw new UsageError('not-spam needs one lead id.');
  const outcome = await forwardNotSpam(store, actingAt(io), id, options.loadRoiParameters);
  if (outcome.kind === 'forwarded') {
    io.out(`Lead ${toTerminalCell(id)} is no longer spam: the running server forwards it within its poll interval.\n`);
    return 0;
  }
  io.err(
    outcome.kind === 'missing'
      ? `No lead with id ${toTerminalCell(id)}.\n`
      : outcome.kind === 'not-spam'
        ? `Lead ${toTerminalCell(id)} is ${outcome.lead.state}, not spam: nothing to change.\n`
        : `${toTerminalCell(outcome.message)}\n`,
  );
  return 1;
}

async function erase(args: readonly string[], store: LeadsCliStore, io: CliIo): Promise<number> {
  const { values } = parseArgs({ args: [...args], options: { email: { type: 'string' } } });
  const email = values.email?.trim();
  if (email === undefined || email === '') throw new UsageError('erase needs --email <address>.');
  const erased = await eraseLeadsByEmail(store, actingAt(io), email);
  io.out(`${erased.length} lead(s) of ${toTerminalCell(maskEmail(email))} erased, with their delivery history.\n`);
  return 0;
}
