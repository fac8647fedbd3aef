// The console's inbox at a million leads: each store (SQLite on its worker thread, as the server runs
// it; PostgreSQL when TEST_DATABASE_URL or DATABASE_URL names one) is filled with 1,000,000 leads by
// bulk SQL, then the store's own queries are timed: the first page, a search by a whole e-mail
// address (both must answer within 100 ms), and, for the record, a form filter, a state filter, a
// page deep in the list and a rare part of a name. PostgreSQL runs in a schema of its own, dropped after.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import type { LeadCursor, LeadQuery } from '../../server/store/inbox/inbox-store.ts';
import type { Database } from '../../server/store/database.ts';
import { openPostgresStore } from '../../server/store/postgres-store.ts';
import { openSqliteStore } from '../../server/store/sqlite-store.ts';
import { openSqliteWorkerStore } from '../../server/store/sqlite-worker-store.ts';

export const CONSOLE_BENCH = { leads: 1_000_000, pageSize: 50, runs: 30, budgetMs: 100 } as const;

const FORMS = ['Homepage Simple Lead Form', 'AI ROI Calculator + Lead Form', 'Contact Page Form', 'AI Transformation Landing Page'];
/** Leads arrive every 30 s from here on: a million of them span about a year. */
const FIRST_RECEIVED_AT = Date.UTC(2025, 0, 1);

type Timing = {
  readonly name: string;
  readonly budgeted: boolean;
  readonly medianMs: number;
  readonly p95Ms: number;
  readonly maxMs: number;
};
export type ConsoleBenchResult = { readonly store: string; readonly seedSeconds: number; readonly timings: readonly Timing[] };

/** The n-th seeded lead's e-mail address (what a person pastes into the search box). */
const emailOf = (n: number) => `person${n}@company${n % 5000}.example`;

async function time(name: string, budgeted: boolean, run: (index: number) => Promise<unknown>): Promise<Timing> {
  await run(-1); // warm-up: the first call opens statements and fills caches once
  const samples: number[] = [];
  for (let index = 0; index < CONSOLE_BENCH.runs; index++) {
    const started = performance.now();
    await run(index);
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  const at = (share: number) => samples[Math.min(samples.length - 1, Math.floor(share * samples.length))]!;
  return { name, budgeted, medianMs: at(0.5), p95Ms: at(0.95), maxMs: samples[samples.length - 1]! };
}

async function measure(store: Database): Promise<Timing[]> {
  const page = (query: LeadQuery, after?: LeadCursor) => store.listLeadPage(query, after, CONSOLE_BENCH.pageSize);
  const expectRows = async (query: LeadQuery, at: string) => {
    const { leads } = await page(query);
    if (leads.length === 0) throw new Error(`${at} found nothing: the seed or the query is wrong`);
  };
  await expectRows({}, 'The first page');
  await expectRows({ search: emailOf(Math.floor(CONSOLE_BENCH.leads / 2) + 1) }, 'The e-mail search');
  // A cursor 500 pages in, as "Older leads" pressed 500 times would reach.
  const deep = { receivedAt: FIRST_RECEIVED_AT + Math.max(1, CONSOLE_BENCH.leads - 25_000) * 30_000, id: 'lead-9999999' };
  return [
    await time('First page, no filter', true, () => page({})),
    await time('Search by a whole e-mail address', true, (index) =>
      page({ search: emailOf(1 + (((index + 2) * 33_331) % CONSOLE_BENCH.leads)) }),
    ),
    await time('First page of one form', false, (index) => page({ source: FORMS[Math.abs(index) % FORMS.length] })),
    await time('First page of failed leads', false, () => page({ state: 'failed' })),
    await time('A page 500 pages deep', false, () => page({}, deep)),
    await time('Search by a rare part of a name', false, () => page({ search: 'person 99999' })),
  ];
}

// One row per lead, the same on both engines: every 50th is spam, every 97th failed, the rest delivered.
const SQLITE_SEED = `
  WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < :count)
  INSERT INTO leads (id, received_at, source, email, payload, spam_reason, name, company, utm_campaign, utm_source)
  SELECT printf('lead-%07d', i), :first + i * 30000,
    CASE i % 4 WHEN 0 THEN '${FORMS[0]}' WHEN 1 THEN '${FORMS[1]}' WHEN 2 THEN '${FORMS[2]}' ELSE '${FORMS[3]}' END,
    printf('person%d@company%d.example', i, i % 5000),
    json_object('name', 'Person ' || i, 'email', printf('person%d@company%d.example', i, i % 5000), 'company', 'Company ' || (i % 5000)),
    CASE WHEN i % 50 = 0 THEN 'honeypot' END,
    'Person ' || i, 'Company ' || (i % 5000),
    CASE i % 5 WHEN 0 THEN 'spring' WHEN 1 THEN 'summer' END,
    CASE i % 3 WHEN 0 THEN 'newsletter' WHEN 1 THEN 'google' END
  FROM n;
  INSERT INTO deliveries (lead_id, state, attempts, updated_at, received_at)
  SELECT id,
    CASE WHEN spam_reason IS NOT NULL THEN 'spam' WHEN CAST(substr(id, 6) AS INTEGER) % 97 = 0 THEN 'failed' ELSE 'delivered' END,
    1, received_at, received_at
  FROM leads;
`;

const POSTGRES_SEED = `
  INSERT INTO leads (id, received_at, source, email, payload, spam_reason, name, company, utm_campaign, utm_source)
  SELECT 'lead-' || lpad(i::text, 7, '0'), $2::bigint + i::bigint * 30000,
    (ARRAY['${FORMS.join("','")}'])[i % 4 + 1],
    format('person%s@company%s.example', i, i % 5000),
    json_build_object('name', 'Person ' || i, 'email', format('person%s@company%s.example', i, i % 5000), 'company', 'Company ' || (i % 5000))::text,
    CASE WHEN i % 50 = 0 THEN 'honeypot' END,
    'Person ' || i, 'Company ' || (i % 5000),
    CASE i % 5 WHEN 0 THEN 'spring' WHEN 1 THEN 'summer' END,
    CASE i % 3 WHEN 0 THEN 'newsletter' WHEN 1 THEN 'google' END
  FROM generate_series(1, $1::int) AS i;
  INSERT INTO deliveries (lead_id, state, attempts, updated_at, received_at)
  SELECT id,
    CASE WHEN spam_reason IS NOT NULL THEN 'spam' WHEN substr(id, 6)::int % 97 = 0 THEN 'failed' ELSE 'delivered' END,
    1, received_at, received_at
  FROM leads;
`;

async function benchSqlite(): Promise<ConsoleBenchResult> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'console-bench-'));
  const file = path.join(folder, 'leads.sqlite');
  try {
    await (await openSqliteStore(file)).close();
    const started = performance.now();
    const db = new DatabaseSync(file);
    db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF;');
    db.exec('BEGIN');
    db.prepare(SQLITE_SEED.split(';\n')[0]!).run({ count: CONSOLE_BENCH.leads, first: FIRST_RECEIVED_AT });
    db.exec(SQLITE_SEED.split(';\n').slice(1).join(';\n'));
    db.exec('COMMIT; ANALYZE;');
    db.close();
    const seedSeconds = (performance.now() - started) / 1000;
    const store = await openSqliteWorkerStore(file);
    try {
      return { store: 'SQLite (worker thread)', seedSeconds, timings: await measure(store) };
    } finally {
      await store.close();
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

async function benchPostgres(baseUrl: string): Promise<ConsoleBenchResult> {
  const schema = `console_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const url = new URL(baseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  try {
    await (await openPostgresStore(url.toString())).close();
    const started = performance.now();
    const seeder = new pg.Client({ connectionString: url.toString() });
    await seeder.connect();
    const [leads, deliveries] = POSTGRES_SEED.split(';\n').filter((sql) => sql.trim());
    await seeder.query(leads!, [CONSOLE_BENCH.leads, FIRST_RECEIVED_AT]);
    await seeder.query(deliveries!);
    await seeder.query('ANALYZE');
    await seeder.end();
    const seedSeconds = (performance.now() - started) / 1000;
    const store = await openPostgresStore(url.toString());
    try {
      return { store: 'PostgreSQL', seedSeconds, timings: await measure(store) };
    } finally {
      await store.close();
    }
  } finally {
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
  }
}

export async function runConsoleBench(): Promise<ConsoleBenchResult[]> {
  const results = [await benchSqlite()];
  const postgresUrl = process.env.TEST_DATABASE_URL?.trim() || process.env.DATABASE_URL?.trim();
  if (postgresUrl) results.push(await benchPostgres(postgresUrl));
  else console.warn('PostgreSQL skipped: set TEST_DATABASE_URL (or DATABASE_URL) to a database the bench may add a schema to.');
  return results;
}

export function formatConsoleBenchTable(results: readonly ConsoleBenchResult[]): string {
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  const lines = [
    `${CONSOLE_BENCH.leads.toLocaleString('en-US')} leads, ${CONSOLE_BENCH.pageSize} per page, ${CONSOLE_BENCH.runs} runs each after one warm-up; budget ${CONSOLE_BENCH.budgetMs} ms at p95 where marked.`,
    '',
    '| Store | Query | Median | p95 | Max | Budget |',
    '|---|---|---|---|---|---|',
  ];
  for (const result of results) {
    for (const timing of result.timings) {
      const verdict = timing.budgeted ? (timing.p95Ms <= CONSOLE_BENCH.budgetMs ? 'within' : '**over**') : '';
      lines.push(`| ${result.store} | ${timing.name} | ${ms(timing.medianMs)} | ${ms(timing.p95Ms)} | ${ms(timing.maxMs)} | ${verdict} |`);
    }
  }
  lines.push('', ...results.map((result) => `${result.store}: seeded in ${result.seedSeconds.toFixed(0)} s.`));
  return lines.join('\n');
}

/** True when every budgeted query answered within the budget at p95. */
export function withinBudget(results: readonly ConsoleBenchResult[]): boolean {
  return results.every((result) => result.timings.every((timing) => !timing.budgeted || timing.p95Ms <= CONSOLE_BENCH.budgetMs));
}
