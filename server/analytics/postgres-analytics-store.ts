import pg from 'pg';
import type { PoolClient, QueryResultRow } from 'pg';
import type { Migration } from '../../back-office/database/migrations.ts';
import { inPostgresTransaction, migratePostgres } from '../../back-office/database/postgres-database.ts';
import {
  assertDay,
  assertMoment,
  ATTRIBUTION_COLUMNS,
  attributionOf,
  attributionValues,
  AWAITING_BEACON_ENTRY_PATH,
  daysOf,
  keyOf,
  LEAD_COLUMNS,
  leadIncrements,
  leadRowOf,
  leadValues,
  newLeadRow,
  planBatch,
  ROLLUP_NAMES,
  rollupIncrements,
  ROLLUPS,
} from './analytics-batch.ts';
import type { Attribution, NewVisit, RollupIncrements, VisitFormSteps, VisitKey, VisitPage } from './analytics-batch.ts';
import {
  funnelSql,
  reportSql,
  summarySql,
  readConversions,
  readSummaryMonths,
  toSummaryDays,
  toCampaignTotals,
  toDayTotals,
  toEntryTotals,
  toFunnelRows,
  toPageTotals,
  toReferrerTotals,
} from './analytics-reports.ts';
import type { SummaryQuery } from './analytics-reports.ts';
import type { AnalyticsStore, CountedLead, DayRange, VisitEvent } from './analytics-store.ts';
import { REPORT_ROW_LIMIT } from './analytics-store.ts';
import { assertVitalsQuery, byPeriod, monthOf, toRouteVitals, vitalIncrements, vitalsPieces, weekOf } from './vital-buckets.ts';

/** Text compared as PostgreSQL's COLLATE "C" and SQLite compare it: by code unit. */
const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

// PostgreSQL analytics store: tables named analytics_* in the lead store's database, with their own
// schema version, migrated at open. Its own small pool, so a burst of beacons can never take the
// connections the lead store needs to accept a lead.
//
// Several servers count into one database at once. What is new (a visit, a page of a visit, a step
// of a visit's form) is decided by the database, never by a read followed by a write: INSERT … ON
// CONFLICT DO NOTHING RETURNING names the rows this batch created, and a visit's form steps are read
// under a row lock (FOR UPDATE) before the new bits are added. Every statement takes its rows in the
// order of their keys, sorted before they are sent, and every transaction visits the tables in the
// same order, so two batches touching the same visits wait for each other instead of deadlocking.

/** Analytics has its own pool, apart from the lead store's: this many connections unless told otherwise. */
export const ANALYTICS_POOL_SIZE = 3;
const CONNECT_TIMEOUT_MS = 5_000;
// Any number that identifies the analytics migration lock among other advisory locks on the database
// (the lead store's is 4_201_735_001).
const MIGRATION_LOCK_ID = 4_201_735_002;

// Text columns compare byte by byte (COLLATE "C"): keys sort the same here as in SQLite and in the
// batch's own sorting, and the day index compares plain bytes.
const TEXT = 'TEXT COLLATE "C" NOT NULL';
const ATTRIBUTION_DEFINITIONS = ATTRIBUTION_COLUMNS.map((column) => `${column} ${TEXT}`).join(', ');
const ATTRIBUTION_LIST = ATTRIBUTION_COLUMNS.join(', ');

// Raw tables have an index on their day, for the retention deletion; roll-ups (see ROLLUPS) are keyed
// by day first (the funnel's by split, then day), so a report's range is one range of the primary
// key's index.
export const POSTGRES_ANALYTICS_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'raw events, visits and their pages, forms and leads; salts; page, entry, referrer, campaign and funnel roll-ups per day',
    sql: `
      CREATE TABLE analytics_events (
        day ${TEXT}, at BIGINT NOT NULL, visit ${TEXT}, type ${TEXT}, path ${TEXT}, form ${TEXT}
      );
      CREATE INDEX analytics_events_day ON analytics_events (day);
      CREATE TABLE analytics_visits (
        day ${TEXT}, visit ${TEXT}, ${ATTRIBUTION_DEFINITIONS}, first_at BIGINT NOT NULL,
        PRIMARY KEY (day, visit)
      );
      CREATE TABLE analytics_visit_pages (
        day ${TEXT}, visit ${TEXT}, path ${TEXT}, PRIMARY KEY (day, visit, path)
      );
      CREATE TABLE analytics_visit_forms (
        day ${TEXT}, visit ${TEXT}, form ${TEXT}, steps INTEGER NOT NULL, PRIMARY KEY (day, visit, form)
      );
      CREATE TABLE analytics_leads (
        lead_id ${TEXT} PRIMARY KEY, day ${TEXT}, visit ${TEXT}, form ${TEXT}, at BIGINT NOT NULL
      );
      CREATE INDEX analytics_leads_day ON analytics_leads (day);
      CREATE TABLE analytics_salts (day ${TEXT} PRIMARY KEY, salt TEXT NOT NULL);
      CREATE TABLE analytics_page_days (
        day ${TEXT}, path ${TEXT},
        pageviews BIGINT NOT NULL, visitors BIGINT NOT NULL, booking_clicks BIGINT NOT NULL,
        PRIMARY KEY (day, path)
      );
      CREATE TABLE analytics_entry_days (
        day ${TEXT}, entry_path ${TEXT}, visits BIGINT NOT NULL, PRIMARY KEY (day, entry_path)
      );
      CREATE TABLE analytics_referrer_days (
        day ${TEXT}, referrer_host ${TEXT}, visits BIGINT NOT NULL, PRIMARY KEY (day, referrer_host)
      );
      CREATE TABLE analytics_campaign_days (
        day ${TEXT}, source ${TEXT}, medium ${TEXT}, campaign ${TEXT}, click ${TEXT}, visits BIGINT NOT NULL,
        PRIMARY KEY (day, source, medium, campaign, click)
      );
      CREATE TABLE analytics_funnel_days (
        split ${TEXT}, day ${TEXT}, form ${TEXT}, key ${TEXT},
        viewed BIGINT NOT NULL, started BIGINT NOT NULL, submitted BIGINT NOT NULL,
        accepted BIGINT NOT NULL, delivered BIGINT NOT NULL,
        PRIMARY KEY (split, day, form, key)
      );
    `,
  },
  {
    version: 2,
    name: 'leads counted under their own keys, spam among them until judged; no visit named beside a lead',
    // A lead waiting for the CRM keeps the keys its visit had, which it was counted under so far.
    sql: `
      CREATE TABLE analytics_leads_keyed (
        lead_id ${TEXT} PRIMARY KEY, day ${TEXT}, form ${TEXT},
        campaign ${TEXT}, source ${TEXT}, entry_path ${TEXT}, accepted SMALLINT NOT NULL
      );
      INSERT INTO analytics_leads_keyed (lead_id, day, form, campaign, source, entry_path, accepted)
        SELECT l.lead_id, l.day, l.form, COALESCE(v.campaign, ''),
          COALESCE(CASE WHEN v.source <> '' THEN v.source ELSE v.referrer_host END, ''), COALESCE(v.entry_path, ''), 1
        FROM analytics_leads l LEFT JOIN analytics_visits v ON v.day = l.day AND v.visit = l.visit;
      DROP TABLE analytics_leads;
      ALTER TABLE analytics_leads_keyed RENAME TO analytics_leads;
      CREATE INDEX analytics_leads_day ON analytics_leads (day);
    `,
  },
  {
    version: 3,
    name: "meetings booked: the funnel's last step, leads kept once delivered; summary roll-ups by day, form, source, campaign and entry page",
    // The funnel's last step, "booked"; a lead's row is kept once the CRM took it (flagged delivered),
    // so a meeting booked after that is still counted on the lead's day under its keys; and the
    // summary's roll-ups by day and by month (see SUMMARY_ROLLUPS); the largest has an index per
    // filter (campaign, source, entry page) that holds every column, so a filtered sum reads only the
    // index's matching range. They start empty: days counted before this migration
    // are in the older roll-ups only, so the store records the day after it ran as the first day the
    // summary holds in full (none when nothing had been counted yet).
    sql: `
      ALTER TABLE analytics_funnel_days ADD COLUMN booked BIGINT NOT NULL DEFAULT 0;
      ALTER TABLE analytics_leads ADD COLUMN delivered SMALLINT NOT NULL DEFAULT 0;
      ALTER TABLE analytics_leads ADD COLUMN booked SMALLINT NOT NULL DEFAULT 0;
      CREATE TABLE analytics_summary_form_days (
        day ${TEXT}, form ${TEXT}, visits BIGINT NOT NULL, viewed BIGINT NOT NULL, accepted BIGINT NOT NULL, delivered BIGINT NOT NULL, booked BIGINT NOT NULL, PRIMARY KEY (day, form)
      );
      CREATE TABLE analytics_summary_campaign_days (
        day ${TEXT}, form ${TEXT}, source ${TEXT}, campaign ${TEXT}, visits BIGINT NOT NULL, viewed BIGINT NOT NULL, accepted BIGINT NOT NULL, delivered BIGINT NOT NULL, booked BIGINT NOT NULL,
        PRIMARY KEY (day, form, source, campaign)
      );
      CREATE TABLE analytics_summary_entry_days (
        day ${TEXT}, form ${TEXT}, entry_path ${TEXT}, visits BIGINT NOT NULL, viewed BIGINT NOT NULL, accepted BIGINT NOT NULL, delivered BIGINT NOT NULL, booked BIGINT NOT NULL, PRIMARY KEY (day, form, entry_path)
      );
      CREATE TABLE analytics_summary_days (
        day ${TEXT}, form ${TEXT}, source ${TEXT}, campaign ${TEXT}, entry_path ${TEXT}, visits BIGINT NOT NULL, viewed BIGINT NOT NULL, accepted BIGINT NOT NULL, delivered BIGINT NOT NULL, booked BIGINT NOT NULL,
        PRIMARY KEY (day, form, source, campaign, entry_path)
      );
      CREATE TABLE analytics_summary_form_months (
        day ${TEXT}, form ${TEXT}, visits BIGINT NOT NULL, viewed BIGINT NOT NULL, accepted BIGINT NOT NULL, delivered BIGINT NOT NULL, booked BIGINT NOT NULL, PRIMARY KEY (day, form)
      );
      CREATE TABLE analytics_summary_campaign_months (
        day ${TEXT}, form ${TEXT}, source ${TEXT}, campaign ${TEXT}, visits BIGINT NOT NULL, viewed BIGINT NOT NULL, accepted BIGINT NOT NULL, delivered BIGINT NOT NULL, booked BIGINT NOT NULL,
        PRIMARY KEY (day, form, source, campaign)
      );
      CREATE TABLE analytics_summary_entry_months (
        day ${TEXT}, form ${TEXT}, entry_path ${TEXT}, visits BIGINT NOT NULL, viewed BIGINT NOT NULL, accepted BIGINT NOT NULL, delivered BIGINT NOT NULL, booked BIGINT NOT NULL, PRIMARY KEY (day, form, entry_path)
      );
      CREATE TABLE analytics_summary_months (
        day ${TEXT}, form ${TEXT}, source ${TEXT}, campaign ${TEXT}, entry_path ${TEXT}, visits BIGINT NOT NULL, viewed BIGINT NOT NULL, accepted BIGINT NOT NULL, delivered BIGINT NOT NULL, booked BIGINT NOT NULL,
        PRIMARY KEY (day, form, source, campaign, entry_path)
      );
      CREATE INDEX analytics_summary_days_campaign ON analytics_summary_days (campaign, day) INCLUDE (form, source, entry_path, visits, viewed, accepted, delivered, booked);
      CREATE INDEX analytics_summary_days_source ON analytics_summary_days (source, day) INCLUDE (form, campaign, entry_path, visits, viewed, accepted, delivered, booked);
      CREATE INDEX analytics_summary_days_entry ON analytics_summary_days (entry_path, day) INCLUDE (form, source, campaign, visits, viewed, accepted, delivered, booked);
      CREATE INDEX analytics_summary_months_campaign ON analytics_summary_months (campaign, day) INCLUDE (form, source, entry_path, visits, viewed, accepted, delivered, booked);
      CREATE INDEX analytics_summary_months_source ON analytics_summary_months (source, day) INCLUDE (form, campaign, entry_path, visits, viewed, accepted, delivered, booked);
      CREATE INDEX analytics_summary_months_entry ON analytics_summary_months (entry_path, day) INCLUDE (form, source, campaign, visits, viewed, accepted, delivered, booked);
      CREATE TABLE analytics_summary_start (day ${TEXT});
      INSERT INTO analytics_summary_start (day)
        SELECT to_char((now() AT TIME ZONE 'UTC')::date + 1, 'YYYY-MM-DD')
        WHERE EXISTS (SELECT 1 FROM analytics_entry_days) OR EXISTS (SELECT 1 FROM analytics_funnel_days);
    `,
  },
  {
    version: 4,
    name: 'field speed: page loads per day and per month, page, metric and bucket of its value',
    // No raw rows: the bucket counts are all a percentile needs (vital-buckets.ts), kept for ever.
    sql: `
      CREATE TABLE analytics_vital_days (
        day ${TEXT}, path ${TEXT}, metric ${TEXT}, bucket INTEGER NOT NULL, samples BIGINT NOT NULL,
        PRIMARY KEY (day, path, metric, bucket)
      );
      CREATE TABLE analytics_vital_weeks (
        week ${TEXT}, path ${TEXT}, metric ${TEXT}, bucket INTEGER NOT NULL, samples BIGINT NOT NULL,
        PRIMARY KEY (week, path, metric, bucket)
      );
      CREATE TABLE analytics_vital_months (
        month ${TEXT}, path ${TEXT}, metric ${TEXT}, bucket INTEGER NOT NULL, samples BIGINT NOT NULL,
        PRIMARY KEY (month, path, metric, bucket)
      );
    `,
  },
];

/** The raw tables, deleted by day. */
const RAW_TABLES = ['analytics_events', 'analytics_visit_pages', 'analytics_visit_forms', 'analytics_leads', 'analytics_visits'] as const;

/** `unnest($1::text[], $2::text[], …)` over `count` text arrays starting at parameter `first`. */
function unnestText(count: number, first = 1): string {
  return `unnest(${Array.from({ length: count }, (_, index) => `$${first + index}::text[]`).join(', ')})`;
}

/** The columns of a list of rows, each as one array: the parameters of one multi-row statement. */
function columnsOf<T>(rows: readonly T[], ...pick: ((row: T) => string | number)[]): (string | number)[][] {
  return pick.map((column) => rows.map(column));
}

const ATTRIBUTION_PICKS = ATTRIBUTION_COLUMNS.map(
  (_, index) => (row: { attribution: Attribution }) => attributionValues(row.attribution)[index] ?? '',
);

export async function openPostgresAnalyticsStore(
  url: string,
  options: {
    maxConnections?: number;
    migrations?: readonly Migration[];
    /** How long another process's migration lock is waited for, and what to tell when the wait begins. */
    lockWaitMs?: number;
    onLockWait?: (waitSeconds: number) => void;
  } = {},
): Promise<AnalyticsStore> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.maxConnections ?? ANALYTICS_POOL_SIZE,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  // An idle client losing its connection (database restart) must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const reports = reportSql('postgres');
  let closed = false;

  async function transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    if (closed) throw new Error('The analytics store is closed');
    return inPostgresTransaction(pool, work);
  }

  async function query<R extends QueryResultRow>(sql: string, params: unknown[] = []): Promise<R[]> {
    if (closed) throw new Error('The analytics store is closed');
    return (await pool.query<R>(sql, params)).rows;
  }

  async function report(
    sql: string,
    range: DayRange,
    params: readonly string[] = [range.from, range.to],
  ): Promise<Record<string, unknown>[]> {
    daysOf(range);
    return query(sql, [...params]);
  }

  /** Runs the summary's queries of a range, once the range has been checked. */
  function summaryRun(range: DayRange) {
    daysOf(range);
    return (summary: SummaryQuery) => query(summary.sql, [...summary.params]);
  }

  /** Inserts the visits not yet kept; returns those that were new. */
  async function insertVisits(client: PoolClient, visits: readonly NewVisit[]): Promise<VisitKey[]> {
    if (visits.length === 0) return [];
    const { rows } = await client.query<{ day: string; visit: string }>(
      `INSERT INTO analytics_visits (day, visit, ${ATTRIBUTION_LIST}, first_at)
       SELECT * FROM unnest(${Array.from({ length: 10 }, (_, index) => `$${index + 1}::text[]`).join(', ')}, $11::bigint[])
       ON CONFLICT (day, visit) DO NOTHING
       RETURNING day, visit`,
      [
        ...columnsOf(
          visits,
          (row) => row.day,
          (row) => row.visit,
          ...ATTRIBUTION_PICKS,
        ),
        visits.map((row) => row.firstAt),
      ],
    );
    return rows;
  }

  /**
   * Gives the visits made by a lead before their first beacon that beacon's attribution; returns
   * those it gave one. The rows are locked in key order first; a row another batch gave an
   * attribution meanwhile no longer matches and is left alone.
   */
  async function upgradeVisits(client: PoolClient, visits: readonly NewVisit[]): Promise<VisitKey[]> {
    if (visits.length === 0) return [];
    const { rows } = await client.query<{ day: string; visit: string }>(
      `WITH waiting AS (
         SELECT v.day, v.visit FROM analytics_visits v
         JOIN unnest($1::text[], $2::text[]) AS k(day, visit) ON v.day = k.day AND v.visit = k.visit
         WHERE v.entry_path = $11
         ORDER BY v.day, v.visit
         FOR UPDATE OF v
       )
       UPDATE analytics_visits v SET ${ATTRIBUTION_COLUMNS.map((column) => `${column} = k.${column}`).join(', ')}
       FROM waiting w
       JOIN ${unnestText(10)} AS k(day, visit, ${ATTRIBUTION_LIST}) ON k.day = w.day AND k.visit = w.visit
       WHERE v.day = w.day AND v.visit = w.visit AND v.entry_path = $11
       RETURNING v.day, v.visit`,
      [
        ...columnsOf(
          visits,
          (row) => row.day,
          (row) => row.visit,
          ...ATTRIBUTION_PICKS,
        ),
        AWAITING_BEACON_ENTRY_PATH,
      ],
    );
    return rows;
  }

  /** The stored attribution of each visit (the first writer's, perhaps another server's), by keyOf(day, visit). */
  async function attributionsOf(client: PoolClient, visits: readonly VisitKey[]): Promise<Map<string, Attribution>> {
    const found = new Map<string, Attribution>();
    if (visits.length === 0) return found;
    const { rows } = await client.query(
      `SELECT v.day, v.visit, ${ATTRIBUTION_COLUMNS.map((column) => `v.${column}`).join(', ')}
       FROM ${unnestText(2)} AS k(day, visit) JOIN analytics_visits v ON v.day = k.day AND v.visit = k.visit`,
      columnsOf(
        visits,
        (row) => row.day,
        (row) => row.visit,
      ),
    );
    for (const row of rows) found.set(keyOf(String(row.day), String(row.visit)), attributionOf(row));
    return found;
  }

  async function insertPages(client: PoolClient, pages: readonly VisitPage[]): Promise<VisitPage[]> {
    if (pages.length === 0) return [];
    const { rows } = await client.query<VisitPage>(
      `INSERT INTO analytics_visit_pages (day, visit, path)
       SELECT * FROM ${unnestText(3)}
       ON CONFLICT DO NOTHING
       RETURNING day, visit, path`,
      columnsOf(
        pages,
        (row) => row.day,
        (row) => row.visit,
        (row) => row.path,
      ),
    );
    return rows;
  }

  /**
   * Adds the steps each visit reached; returns, per visit and form, only the steps it had not
   * reached before (`added`), and the steps the `upgraded` visits had reached before this batch
   * (`moved`), read under the same lock so no step is moved twice or missed.
   */
  async function addSteps(
    client: PoolClient,
    formSteps: readonly VisitFormSteps[],
    upgraded: readonly VisitKey[] = [],
  ): Promise<{ added: VisitFormSteps[]; moved: VisitFormSteps[] }> {
    if (formSteps.length === 0 && upgraded.length === 0) return { added: [], moved: [] };
    const keyParams = (rows: readonly VisitFormSteps[]) =>
      columnsOf(
        rows,
        (row) => row.day,
        (row) => row.visit,
        (row) => row.form,
      );
    // A row this batch creates holds every step it brings.
    const { rows: created } = await client.query<{ day: string; visit: string; form: string }>(
      `INSERT INTO analytics_visit_forms (day, visit, form, steps)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[])
       ON CONFLICT (day, visit, form) DO NOTHING
       RETURNING day, visit, form`,
      [...keyParams(formSteps), formSteps.map((row) => row.steps)],
    );
    const isCreated = new Set(created.map((row) => keyOf(row.day, row.visit, row.form)));
    const added = formSteps.filter((row) => isCreated.has(keyOf(row.day, row.visit, row.form)));
    const existing = formSteps.filter((row) => !isCreated.has(keyOf(row.day, row.visit, row.form)));
    if (existing.length === 0 && upgraded.length === 0) return { added, moved: [] };

    // The others, and every form of the upgraded visits: locked in key order (one statement, so the
    // order holds across both) and read as last committed, so the bits added below are the ones no
    // other server's batch counted. Asked by visit (day, visit) only, which the primary key's prefix
    // finds directly; the other forms of a visit that come along are locked too, which is harmless.
    const visits = new Map<string, VisitKey>();
    for (const { day, visit } of [...existing, ...upgraded]) visits.set(keyOf(day, visit), { day, visit });
    const { rows: current } = await client.query<{ day: string; visit: string; form: string; steps: number }>(
      `SELECT f.day, f.visit, f.form, f.steps
       FROM ${unnestText(2)} AS k(day, visit)
       JOIN analytics_visit_forms f ON f.day = k.day AND f.visit = k.visit
       ORDER BY f.day, f.visit, f.form
       FOR UPDATE OF f`,
      columnsOf(
        [...visits.values()],
        (row) => row.day,
        (row) => row.visit,
      ),
    );
    const isUpgraded = new Set(upgraded.map(({ day, visit }) => keyOf(day, visit)));
    const moved = current
      .filter((row) => isUpgraded.has(keyOf(row.day, row.visit)) && !isCreated.has(keyOf(row.day, row.visit, row.form)))
      .map((row) => ({ day: row.day, visit: row.visit, form: row.form, steps: Number(row.steps) }))
      .filter((row) => row.steps !== 0);
    const before = new Map(current.map((row) => [keyOf(row.day, row.visit, row.form), Number(row.steps)]));
    const fresh = existing
      .map((row) => ({ ...row, steps: row.steps & ~(before.get(keyOf(row.day, row.visit, row.form)) ?? 0) }))
      .filter((row) => row.steps !== 0);
    if (fresh.length > 0) {
      await client.query(
        `UPDATE analytics_visit_forms f SET steps = f.steps | k.steps
         FROM unnest($1::text[], $2::text[], $3::text[], $4::int[]) AS k(day, visit, form, steps)
         WHERE f.day = k.day AND f.visit = k.visit AND f.form = k.form`,
        [...keyParams(fresh), fresh.map((row) => row.steps)],
      );
    }
    return { added: [...added, ...fresh], moved };
  }

  /** Adds each roll-up's increments with one multi-row upsert per table, rows in key order. */
  async function addRollups(client: PoolClient, increments: RollupIncrements): Promise<void> {
    for (const name of ROLLUP_NAMES) {
      const rows = increments[name];
      if (rows.length === 0) continue;
      const { table, keys, counts } = ROLLUPS[name];
      const arrays = [
        ...keys.map((_, index) => `$${index + 1}::text[]`),
        ...counts.map((_, index) => `$${keys.length + index + 1}::bigint[]`),
      ];
      await client.query(
        `INSERT INTO ${table} (${[...keys, ...counts].join(', ')})
         SELECT * FROM unnest(${arrays.join(', ')})
         ON CONFLICT (${keys.join(', ')}) DO UPDATE SET ${counts.map((count) => `${count} = ${table}.${count} + excluded.${count}`).join(', ')}`,
        [...keys.map((_, index) => rows.map((row) => row.keys[index])), ...counts.map((_, index) => rows.map((row) => row.counts[index]))],
      );
    }
  }

  try {
    await migratePostgres(pool, options.migrations ?? POSTGRES_ANALYTICS_MIGRATIONS, {
      table: 'analytics_schema_migrations',
      lockId: MIGRATION_LOCK_ID,
      database: 'analytics',
      lockWaitMs: options.lockWaitMs,
      onLockWait: options.onLockWait,
    });
  } catch (error) {
    await pool.end();
    throw error;
  }

  return {
    recordEvents: async (events: readonly VisitEvent[]) => {
      if (events.length === 0) return;
      const plan = planBatch(events);
      await transaction(async (client) => {
        await client.query(
          `INSERT INTO analytics_events (day, at, visit, type, path, form)
           SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[])`,
          columnsOf(
            plan.events,
            (row) => row.day,
            (row) => row.at,
            (row) => row.visit,
            (row) => row.type,
            (row) => row.path,
            (row) => row.form,
          ),
        );
        const inserted = await insertVisits(client, plan.visits);
        const isInserted = new Set(inserted.map(({ day, visit }) => keyOf(day, visit)));
        const upgraded = await upgradeVisits(
          client,
          plan.visits.filter(({ day, visit }) => !isInserted.has(keyOf(day, visit))),
        );
        const newVisits = [...inserted, ...upgraded];
        const newPages = await insertPages(client, plan.pages);
        const { added: newSteps, moved: movedSteps } = await addSteps(client, plan.formSteps, upgraded);
        // A visit new in this batch is under the attribution just stored; an older one is read back.
        const isNew = new Set(newVisits.map(({ day, visit }) => keyOf(day, visit)));
        const attributions = await attributionsOf(
          client,
          newSteps.filter(({ day, visit }) => !isNew.has(keyOf(day, visit))),
        );
        for (const visit of plan.visits)
          if (isNew.has(keyOf(visit.day, visit.visit))) attributions.set(keyOf(visit.day, visit.visit), visit.attribution);
        await addRollups(
          client,
          rollupIncrements({ pageCounts: plan.pageCounts, newVisits, newPages, newSteps, movedSteps, attributions }),
        );
      });
    },

    recordLead: async (lead: CountedLead) => {
      const row = newLeadRow(lead);
      await transaction(async (client) => {
        const { rowCount } = await client.query(
          `INSERT INTO analytics_leads (lead_id, ${LEAD_COLUMNS.join(', ')}) VALUES ($1, $2, $3, $4, $5, $6, $7)
           ON CONFLICT (lead_id) DO NOTHING`,
          [lead.leadId, ...leadValues(row)],
        );
        if ((rowCount ?? 0) > 0 && row.accepted) await addRollups(client, leadIncrements(row, { accepted: 1, delivered: 0 }));
      });
    },

    recordLeadJudged: async (leadId: string, spam: boolean) => {
      await transaction(async (client) => {
        // The row is locked by the update: a delivery counted at the same moment waits, then finds it changed.
        const { rows } = await client.query(
          // A lead the CRM took is accepted for good: judging it afterwards changes no count.
          `UPDATE analytics_leads SET accepted = $1 WHERE lead_id = $2 AND accepted = $3 AND delivered = 0 RETURNING ${LEAD_COLUMNS.join(', ')}`,
          [spam ? 0 : 1, leadId, spam ? 1 : 0],
        );
        if (rows[0] !== undefined) await addRollups(client, leadIncrements(leadRowOf(rows[0]), { accepted: spam ? -1 : 1, delivered: 0 }));
      });
    },

    recordLeadDelivered: async (leadId: string) => {
      await transaction(async (client) => {
        // The lead's row stays (a meeting may follow) but is flagged: a second "delivered" for it finds nothing.
        const { rows } = await client.query(
          `UPDATE analytics_leads SET delivered = 1 WHERE lead_id = $1 AND delivered = 0 RETURNING ${LEAD_COLUMNS.join(', ')}`,
          [leadId],
        );
        if (rows[0] === undefined) return;
        const lead = leadRowOf(rows[0]);
        await addRollups(client, leadIncrements(lead, { accepted: lead.accepted ? 0 : 1, delivered: 1 }));
      });
    },

    recordMeeting: async (leadId: string, at: number, booked: boolean) => {
      assertMoment(at);
      await transaction(async (client) => {
        // Counted once while booked: a second "booked" (a reschedule) or "cancelled" finds nothing to change.
        const { rows } = await client.query(
          `UPDATE analytics_leads SET booked = $1 WHERE lead_id = $2 AND booked = $3 RETURNING ${LEAD_COLUMNS.join(', ')}`,
          [booked ? 1 : 0, leadId, booked ? 0 : 1],
        );
        if (rows[0] !== undefined) await addRollups(client, leadIncrements(leadRowOf(rows[0]), { booked: booked ? 1 : -1 }));
      });
    },

    summaryDays: async (range, filter) => {
      const { sql, params } = summarySql('postgres', filter).days(range);
      return toSummaryDays(await report(sql, range, params));
    },
    summaryMonths: async (range, filter) => readSummaryMonths(summaryRun(range), 'postgres', range, filter),
    conversions: async (range, filter) => readConversions(summaryRun(range), 'postgres', range, filter),
    summaryCountedFrom: async () => {
      const rows = await query<{ day: string }>('SELECT day FROM analytics_summary_start');
      return rows[0] === undefined ? null : String(rows[0].day);
    },

    recordVitals: async (samples) => {
      const days = vitalIncrements(samples);
      if (days.length === 0) return;
      await transaction(async (client) => {
        for (const [table, period, rows] of [
          ['analytics_vital_days', 'day', days],
          ['analytics_vital_weeks', 'week', byPeriod(days, weekOf)],
          ['analytics_vital_months', 'month', byPeriod(days, monthOf)],
        ] as const) {
          // Rows in key order, so two servers adding to the same rows at once never deadlock.
          const sorted = [...rows].sort(
            (a, b) => compareText(a.day, b.day) || compareText(a.path, b.path) || compareText(a.metric, b.metric) || a.bucket - b.bucket,
          );
          await client.query(
            `INSERT INTO ${table} (${period}, path, metric, bucket, samples)
             SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::integer[], $5::bigint[])
             ON CONFLICT (${period}, path, metric, bucket) DO UPDATE SET samples = ${table}.samples + excluded.samples`,
            columnsOf(
              sorted,
              (row) => row.day,
              (row) => row.path,
              (row) => row.metric,
              (row) => row.bucket,
              (row) => row.samples,
            ),
          );
        }
      });
    },

    vitals: async (range, minSamples, path) => {
      daysOf(range);
      assertVitalsQuery(minSamples, path);
      const { months, weeks, days } = vitalsPieces(range);
      const { vitals } = reports;
      const read = (sql: string, ofPage: string, span: { from: string; to: string }) =>
        query(path === undefined ? sql : ofPage, path === undefined ? [span.from, span.to] : [span.from, span.to, path]);
      const pieces = await Promise.all([
        months ? read(vitals.months, vitals.monthsOfPage, months) : [],
        ...weeks.map((span) => read(vitals.weeks, vitals.weeksOfPage, span)),
        ...days.map((span) => read(vitals.days, vitals.daysOfPage, span)),
      ]);
      return toRouteVitals(pieces.flat(), minSamples).slice(0, REPORT_ROW_LIMIT);
    },

    dayTotals: async (range) => {
      const days = daysOf(range);
      const [visits, pages] = await Promise.all([report(reports.visitsPerDay, range), report(reports.pagesPerDay, range)]);
      return toDayTotals(days, visits, pages);
    },
    pageTotals: async (range) => toPageTotals(await report(reports.pages, range)),
    referrerTotals: async (range) => toReferrerTotals(await report(reports.referrers, range)),
    campaignTotals: async (range) => toCampaignTotals(await report(reports.campaigns, range)),
    entryTotals: async (range) => toEntryTotals(await report(reports.entries, range)),
    funnel: async (range, split) => toFunnelRows(await report(funnelSql(reports, split), range)),

    deleteRawBefore: async (day: string) => {
      assertDay(day);
      let total = 0;
      // Table by table, each its own statement: a large deletion never holds every raw table at once.
      for (const table of RAW_TABLES) {
        if (closed) throw new Error('The analytics store is closed');
        total += (await pool.query(`DELETE FROM ${table} WHERE day < $1`, [day])).rowCount ?? 0;
      }
      return total;
    },

    saltForDay: async (day: string, candidate: string) => {
      assertDay(day);
      // Two servers asking at once: one insert wins, and both read the winner's salt.
      await query('INSERT INTO analytics_salts (day, salt) VALUES ($1, $2) ON CONFLICT (day) DO NOTHING', [day, candidate]);
      const rows = await query<{ salt: string }>('SELECT salt FROM analytics_salts WHERE day = $1', [day]);
      return String(rows[0]?.salt);
    },

    deleteSaltsBefore: async (day: string) => {
      assertDay(day);
      const deleted = await query('DELETE FROM analytics_salts WHERE day < $1 RETURNING day', [day]);
      // A deleted row stays in the table's file until VACUUM: a copy of the database would still
      // hold the salt. The table has a row a day, so this takes no time.
      if (deleted.length > 0) await query('VACUUM analytics_salts');
    },

    schemaVersion: async () => {
      const [row] = await query<{ version: number | null }>('SELECT MAX(version) AS version FROM analytics_schema_migrations');
      return Number(row?.version ?? 0);
    },

    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}
