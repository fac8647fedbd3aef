import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../store/database.ts';
import type { NewLead } from '../store/outbox/outbox-store.ts';
import { openSqliteStore } from '../store/sqlite-store.ts';
import { toCsvCell } from '../leads/lead-export.ts';
import { shippedRoiParameters } from '../../content-model/testing/shipped-content.ts';
import { VALID_VALUES } from '../testing/lead-bodies.ts';
import { runLeadsCommand } from './leads-command.ts';

const NOW = Date.UTC(2025, 0, 15, 9, 0, 0);
const NODE = fileURLToPath(new URL('../../node_modules/.bin/node', import.meta.url));
const CLI = fileURLToPath(new URL('./leads.ts', import.meta.url));

let folder: string;
let file: string;
let store: Database;

function lead(id: string, overrides: Partial<NewLead> = {}): NewLead {
  return {
    id,
    receivedAt: NOW + Number(id.replace(/\D/g, '')),
    source: 'Contact Page Form',
    email: `${id}@example.com`,
    payload: { name: "Seán O'Brien", company: 'Smith & Sons, Ltd.', message: '=HYPERLINK("x")', lead_id: id },
    spamReason: undefined,
    initialState: 'pending',
    ...overrides,
  };
}

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runLeadsCommand(
    argv,
    store,
    { out: (text) => (out += text), err: (text) => (err += text), now: () => NOW + 1_000, actor: 'command line (tester)' },
    { loadRoiParameters: async () => shippedRoiParameters() },
  );
  return { code, out, err };
}

async function deliver(id: string, nextState: 'delivered' | 'delivered-test' | 'failed', status: number): Promise<void> {
  await store.claimDue({ now: NOW + 500, limit: 100, owner: 'w', leaseMs: 1 });
  await store.recordResults([
    {
      leadId: id,
      owner: 'w',
      attempt: { attemptedAt: NOW + 500, durationMs: 5, status, responseBody: '', error: undefined },
      nextState,
      nextAttemptAt: undefined,
    },
  ]);
}

beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'leads-cli-'));
  file = path.join(folder, 'leads.sqlite');
  store = openSqliteStore(file);
  await store.insertLead(lead('lead1'));
  await store.insertLead(lead('lead2', { initialState: 'spam', spamReason: 'honeypot' }));
  await store.insertLead(lead('lead3', { email: 'Ana@Example.com' }));
  await store.insertLead(lead('lead4'));
  await deliver('lead1', 'failed', 410);
  await deliver('lead4', 'delivered-test', 200);
});
afterEach(async () => {
  await store.close();
  await rm(folder, { recursive: true, force: true });
});

describe('leads list', () => {
  it('shows each lead with its state and last answer, emails masked, and the counts', async () => {
    const { code, out } = await run('list');
    expect(code).toBe(0);
    expect(out).toMatch(/^ID\s+RECEIVED\s+SOURCE\s+EMAIL\s+STATE\s+ATTEMPTS\s+LAST ANSWER/);
    expect(out).toMatch(/lead1\s+2025-01-15T09:00:00\.001Z\s+Contact Page Form\s+l\*\*\*@example\.com\s+failed\s+1\s+HTTP 410/);
    expect(out).toMatch(/lead2 .* spam \(honeypot\)/);
    expect(out).toMatch(/lead4 .* delivered-test\s+1\s+HTTP 200/);
    expect(out).not.toContain('lead1@example.com');
    expect(out).toContain('4 shown · pending: 1 · delivered-test: 1 · failed: 1 · spam: 1');
    expect(out).toContain('1 lead(s) are delivered-test');
  });

  it('filters by state and limits', async () => {
    expect((await run('list', '--state', 'spam')).out).toContain('1 shown');
    expect((await run('list', '--limit', '2')).out).toContain('2 shown');
    expect((await run('list', '--state', 'lost')).code).toBe(2);
  });
});

describe('leads export', () => {
  it('writes JSON with every payload', async () => {
    const { code, out } = await run('export', '--format', 'json');
    expect(code).toBe(0);
    const records = JSON.parse(out) as Array<Record<string, unknown>>;
    expect(records).toHaveLength(4);
    expect(records[0]).toMatchObject({ lead_id: 'lead1', state: 'failed', last_status: 410, payload: { name: "Seán O'Brien" } });
  });

  it('writes CSV with one fixed set of columns, each once, quoted, formulas defused', async () => {
    const { out } = await run('export', '--format', 'csv');
    const [header, first] = out.split('\r\n');
    const columns = header!.split(',');
    expect(columns.slice(0, 12)).toEqual([
      'lead_id',
      'received_at',
      'source',
      'state',
      'spam_reason',
      'attempts',
      'last_status',
      'last_error',
      'name',
      'email',
      'phone',
      'company',
    ]);
    expect(columns.at(-1)).toBe('extra_fields');
    // A call-back's agreement has columns of its own, so an auditor reads it without unpacking JSON.
    expect(columns.slice(-6, -1)).toEqual([
      'callback_requested',
      'callback_consent_text',
      'callback_consent_at',
      'callback_consent_version',
      'callback_consent_page',
    ]);
    expect(new Set(columns).size).toBe(columns.length);
    const cells = parseCsvLine(first!);
    expect(cells.slice(0, 12)).toEqual([
      'lead1',
      '2025-01-15T09:00:00.001Z',
      'Contact Page Form',
      'failed',
      '',
      '1',
      '410',
      '',
      "Seán O'Brien",
      '',
      '',
      'Smith & Sons, Ltd.',
    ]);
    expect(cells[columns.indexOf('message')]).toBe(`'=HYPERLINK("x")`);
    expect(cells.at(-1)).toBe('');
  });

  it('puts a spam lead’s hundreds of made-up fields into one column, so the header stays the same', async () => {
    const junk = Object.fromEntries(Array.from({ length: 300 }, (_, index) => [`field${index}`, `v${index}`]));
    await store.insertLead(
      lead('lead5', {
        initialState: 'spam',
        spamReason: 'honeypot',
        payload: { ...junk, source: 'x', state: 'y', attempts: 'z', name: 'Bot' },
      }),
    );
    const { out } = await run('export', '--format', 'csv');
    const [header, ...rows] = out.trimEnd().split('\r\n');
    const columns = header!.split(',');
    expect(columns).not.toContain('field0');
    expect(new Set(columns).size).toBe(columns.length);
    const spamRow = parseCsvLine(rows.find((row) => row.startsWith('lead5'))!);
    expect(spamRow).toHaveLength(columns.length);
    expect(spamRow[columns.indexOf('name')]).toBe('Bot');
    expect(JSON.parse(spamRow.at(-1)!)).toMatchObject({ field0: 'v0', field299: 'v299', state: 'y', attempts: 'z' });
  });

  it('keeps a spam lead’s own “call-back agreement” out of the consent columns: they hold only what the relay recorded', async () => {
    await store.insertLead(
      lead('lead6', {
        initialState: 'spam',
        spamReason: 'honeypot',
        payload: {
          name: 'Bot',
          callback_requested: 'true',
          callback_consent_text: 'I agree to anything you like.',
          callback_consent_at: '1999-01-01T00:00:00Z',
        },
      }),
    );
    await store.insertLead(
      lead('lead7', {
        payload: {
          name: 'Dana',
          callback_requested: true,
          callback_consent_text: 'The owner’s words.',
          callback_consent_version: '2026-11',
        },
      }),
    );
    const { out } = await run('export', '--format', 'csv');
    const [header, ...rows] = out.trimEnd().split('\r\n');
    const columns = header!.split(',');
    const row = (id: string) => parseCsvLine(rows.find((line) => line.startsWith(id))!);
    const spam = row('lead6');
    expect(spam[columns.indexOf('callback_requested')]).toBe('');
    expect(spam[columns.indexOf('callback_consent_text')]).toBe('');
    expect(spam[columns.indexOf('callback_consent_at')]).toBe('');
    expect(JSON.parse(spam.at(-1)!)).toMatchObject({ callback_requested: 'true', callback_consent_text: 'I agree to anything you like.' });
    const asked = row('lead7');
    expect(asked[columns.indexOf('callback_requested')]).toBe('true');
    expect(asked[columns.indexOf('callback_consent_text')]).toBe('The owner’s words.');
    expect(asked.at(-1)).toBe('');
  });

  it('needs a format', async () => {
    expect((await run('export')).code).toBe(2);
    expect((await run('export', '--format', 'xml')).err).toContain('--format csv or --format json');
  });

  it.each([
    ['plain', 'plain'],
    ['a "quote"', '"a ""quote"""'],
    ['-1+1', "'-1+1"],
    [42, '42'],
    [null, ''],
  ])('CSV cell %j → %s', (value, cell) => {
    expect(toCsvCell(value)).toBe(cell);
  });
});

describe('terminal safety: nothing printed carries raw control characters', () => {
  // ESC ] 0 ; … BEL retitles the terminal, ESC [ 31 m turns it red, CSI in its one-byte C1 form,
  // a carriage return overwrites the line, and U+202E reverses what follows.
  const HOSTILE = '\u001b]0;pwned\u0007\u001b[31mred\u009b2J\rover\u202Eeurt\u200Ehidden\u200Bmark\uFEFF';
  // eslint-disable-next-line no-control-regex -- the test looks for exactly these characters
  const RAW_CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u061C\u200B\u200E\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]/;

  beforeEach(async () => {
    await store.insertLead(
      lead('lead9', {
        initialState: 'spam',
        spamReason: 'honeypot',
        email: `ab${HOSTILE}@x${HOSTILE}.example`,
        payload: { email: HOSTILE, name: HOSTILE, lead_id: 'lead9' },
      }),
    );
  });

  it('list shows them as visible escapes', async () => {
    const { out } = await run('list');
    expect(out).not.toMatch(RAW_CONTROL);
    expect(out.split('\n').find((line) => line.startsWith('lead9'))).toContain('\\x1B');
  });

  it('the JSON export keeps the data exactly, escaped', async () => {
    const { out } = await run('export', '--format', 'json');
    expect(out).not.toMatch(RAW_CONTROL);
    const records = JSON.parse(out) as Array<{ lead_id: string; payload: Record<string, string> }>;
    expect(records.find((record) => record.lead_id === 'lead9')?.payload.name).toBe(HOSTILE);
  });

  it('the CSV export shows them as \\xHH text, keeping line breaks inside quoted cells', async () => {
    await store.insertLead(lead('lead8', { payload: { message: 'line one\r\nline two\u001b[2J', lead_id: 'lead8' } }));
    const { out } = await run('export', '--format', 'csv');
    expect(out.replaceAll('\r\n', '\n').replaceAll('\t', '')).not.toMatch(RAW_CONTROL);
    expect(out).toContain('"line one\r\nline two\\x1B[2J"');
  });

  it('the CSV export never prints a carriage return that would overwrite a line in a terminal', async () => {
    await store.insertLead(lead('lead7', { payload: { message: 'Call me\rALL LEADS DELETED', lead_id: 'lead7' } }));
    const { out } = await run('export', '--format', 'csv');
    expect(out.replaceAll('\r\n', '')).not.toContain('\r');
    expect(out).toContain('Call me\\x0DALL LEADS DELETED');
  });

  it('error messages echo ids as visible escapes', async () => {
    const { err } = await run('retry', 'id\u001b[31m');
    expect(err).not.toMatch(RAW_CONTROL);
    expect(err).toContain('id\\x1B[31m');
  });
});

describe('leads retry', () => {
  it('queues one lead by id', async () => {
    const { code, out } = await run('retry', 'lead3');
    expect(code).toBe(0);
    expect(out).toContain('1 lead(s) queued for delivery (1 pending)');
    expect(await store.getLead('lead3')).toMatchObject({ state: 'pending', attempts: 0, nextAttemptAt: NOW + 1_000 });
  });

  it('queues every failed lead, and no spam or delivered lead', async () => {
    await deliver('lead3', 'delivered', 200);
    expect((await run('retry', '--failed')).out).toContain('1 lead(s) queued for delivery (1 failed)');
    expect(await store.getLead('lead1')).toMatchObject({ state: 'pending' });
    expect(await store.getLead('lead2')).toMatchObject({ state: 'spam' });
    expect(await store.getLead('lead3')).toMatchObject({ state: 'delivered' });
  });

  it('sends nothing for spam or a delivered lead by id, and says what would', async () => {
    await deliver('lead3', 'delivered', 200);
    const spam = await run('retry', 'lead2');
    expect(spam).toMatchObject({ code: 1, out: '' });
    expect(spam.err).toContain('Lead lead2 is spam: nothing was sent.');
    expect(await store.getLead('lead2')).toMatchObject({ state: 'spam' });
    const kept = await run('retry', 'lead3');
    expect(kept).toMatchObject({ code: 1, out: '' });
    expect(kept.err).toBe(
      'Lead lead3 is delivered: the CRM already has it, so nothing was sent. To send it a second copy: npm run leads -- retry lead3 --send-again\n',
    );
    expect(await store.getLead('lead3')).toMatchObject({ state: 'delivered' });
    expect(await run('retry', 'nope')).toMatchObject({ code: 1, err: 'No lead with id nope.\n' });
    expect((await run('retry')).code).toBe(2);
    expect((await run('retry', 'lead1', '--failed')).code).toBe(2);
    expect((await run('retry', '--failed', '--send-again')).code).toBe(2);
  });

  it('sends a delivered lead a second copy only with --send-again, and never spam that way', async () => {
    expect((await run('retry', 'lead4')).err).toContain('Lead lead4 is delivered-test: the CRM already has it, so nothing was sent.');
    expect(await store.getLead('lead4')).toMatchObject({ state: 'delivered-test' });
    const again = await run('retry', 'lead4', '--send-again');
    expect(again).toMatchObject({ code: 0 });
    expect(again.out).toContain('the CRM gets a second copy');
    expect(await store.getLead('lead4')).toMatchObject({ state: 'pending', attempts: 0 });
    expect(await run('retry', 'lead2', '--send-again')).toMatchObject({ code: 1 });
    expect(await store.getLead('lead2')).toMatchObject({ state: 'spam' });
  });
});

describe('leads not-spam', () => {
  it('forwards a lead wrongly judged spam as its form builds it, and nothing else', async () => {
    const payload = { ...VALID_VALUES.contact, source: 'Contact Page Form', contact_owner: 'bot', tags: 'vip', website: 'x' };
    await store.insertLead(lead('lead5', { payload, initialState: 'spam', spamReason: 'honeypot' }));
    const { code, out } = await run('not-spam', 'lead5');
    expect(code).toBe(0);
    expect(out).toContain('Lead lead5 is no longer spam');
    const forwarded = await store.getLead('lead5');
    expect(forwarded).toMatchObject({ state: 'pending', attempts: 0, spamReason: undefined, payload: { name: VALID_VALUES.contact.name } });
    expect(forwarded?.payload).not.toHaveProperty('contact_owner');
    expect(forwarded?.payload).not.toHaveProperty('tags');
    expect(forwarded?.payload).not.toHaveProperty('website');
    // lead2's stored values have no e-mail address: its form would refuse it, so it stays spam.
    const refused = await run('not-spam', 'lead2');
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/^This lead cannot be sent, as its form would not accept it \(Email: .+\): it stays in spam\.\n$/);
    expect(await store.getLead('lead2')).toMatchObject({ state: 'spam', spamReason: 'honeypot' });
    expect(await run('not-spam', 'lead4')).toMatchObject({ code: 1, err: 'Lead lead4 is delivered-test, not spam: nothing to change.\n' });
    expect(await run('not-spam', 'nope')).toMatchObject({ code: 1, err: 'No lead with id nope.\n' });
    expect((await run('not-spam')).code).toBe(2);
  });
});

describe('leads erase', () => {
  it('deletes every lead of the address, whatever its case', async () => {
    const { code, out } = await run('erase', '--email', 'ANA@example.com');
    expect(code).toBe(0);
    expect(out).toBe('1 lead(s) of A***@example.com erased, with their delivery history.\n');
    expect(await store.getLead('lead3')).toBeUndefined();
    expect((await run('erase')).code).toBe(2);
  });
});

describe('npm run leads (the process)', () => {
  it('runs against LEADS_DB_FILE and exits with the command’s code', () => {
    const env = { PATH: process.env.PATH ?? '', LEADS_DB_FILE: file };
    const listed = spawnSync(NODE, [CLI, 'list', '--state', 'failed'], { cwd: folder, env, encoding: 'utf8' });
    expect(listed.status).toBe(0);
    expect(listed.stdout).toContain('lead1');
    const unknown = spawnSync(NODE, [CLI, 'frobnicate'], { cwd: folder, env, encoding: 'utf8' });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('Unknown command "frobnicate"');
  });
});

/** One CSV record's cells (quoted cells may hold commas and doubled quotes). */
function parseCsvLine(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < line.length; index += 1) {
    const character = line[index]!;
    if (quoted) {
      if (character === '"' && line[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (character === '"') quoted = false;
      else cell += character;
    } else if (character === '"') quoted = true;
    else if (character === ',') {
      cells.push(cell);
      cell = '';
    } else cell += character;
  }
  cells.push(cell);
  return cells;
}
