import type { SQLInputValue } from 'node:sqlite';
import type { Migration } from '../../back-office/database/migrations.ts';
import { cachedStatements, inSqliteTransaction, openSqliteDatabase } from '../../back-office/database/sqlite-database.ts';
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
import { assertVitalsQuery, byPeriod, monthOf, toRouteVitals, vitalIncrements, vitalsPieces, weekOf } from './vital-buckets.ts';
import { REPORT_ROW_LIMIT } from './analytics-store.ts';

// node:sqlite analytics store, in its own file beside the lead store's: counting visits takes only
// this file's write lock, so a burst of page views never makes a lead wait. WAL with
// synchronous=NORMAL: a commit survives a crash of the process (the WAL is written before COMMIT
// returns) and is fsynced at the next checkpoint; a power cut may lose the last moments of counts,
// which is a fair price for not paying an fsync per beacon batch. BEGIN IMMEDIATE makes each batch's
// "is this visit new?" decisions exclusive across processes sharing the file.

// Another process holding the write lock (a second server) is waited for this long.
const BUSY_TIMEOUT_MS = 5_000;
// Raw rows are deleted this many at a time, each batch its own transaction, so a large first
// deletion never holds the write lock for long.
const DELETE_BATCH_SIZE = 5_000;

const ATTRIBUTION_DEFINITIONS = ATTRIBUTION_COLUMNS.map((column) => `${column} TEXT NOT NULL`).join(', ');
const ATTRIBUTION_LIST = ATTRIBUTION_COLUMNS.join(', ');

// Raw tables (deleted after ANALYTICS_RAW_DAYS) are ordinary rowid tables with an index on their day,
// so the retention deletion finds the old days without scanning. Roll-ups (see ROLLUPS) are WITHOUT
// ROWID tables keyed by day first (the funnel's by split, then day): the rows of a report's range are
// one contiguous range of the table itself.
// Text dimensions are '' rather than NULL, so a key's parts compare plainly.
export const SQLITE_ANALYTICS_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'raw events, visits and their pages, forms and leads; salts; page, entry, referrer, campaign and funnel roll-ups per day',
    sql: `
      CREATE TABLE analytics_events (
        day TEXT NOT NULL, at INTEGER NOT NULL, visit TEXT NOT NULL, type TEXT NOT NULL, path TEXT NOT NULL, form TEXT NOT NULL
      );
      CREATE INDEX analytics_events_day ON analytics_events (day);
      CREATE TABLE analytics_visits (
        day TEXT NOT NULL, visit TEXT NOT NULL, ${ATTRIBUTION_DEFINITIONS}, first_at INTEGER NOT NULL,
        PRIMARY KEY (day, visit)
      );
      CREATE TABLE analytics_visit_pages (
        day TEXT NOT NULL, visit TEXT NOT NULL, path TEXT NOT NULL, PRIMARY KEY (day, visit, path)
      );
      CREATE TABLE analytics_visit_forms (
        day TEXT NOT NULL, visit TEXT NOT NULL, form TEXT NOT NULL, steps INTEGER NOT NULL, PRIMARY KEY (day, visit, form)
      );
      CREATE TABLE analytics_leads (
        lead_id TEXT PRIMARY KEY, day TEXT NOT NULL, visit TEXT NOT NULL, form TEXT NOT NULL, at INTEGER NOT NULL
      );
      CREATE INDEX analytics_leads_day ON analytics_leads (day);
      CREATE TABLE analytics_salts (day TEXT PRIMARY KEY, salt TEXT NOT NULL);
      CREATE TABLE analytics_page_days (
        day TEXT NOT NULL, path TEXT NOT NULL,
        pageviews INTEGER NOT NULL, visitors INTEGER NOT NULL, booking_clicks INTEGER NOT NULL,
        PRIMARY KEY (day, path)
      ) WITHOUT ROWID;
      CREATE TABLE analytics_entry_days (
        day TEXT NOT NULL, entry_path TEXT NOT NULL, visits INTEGER NOT NULL, PRIMARY KEY (day, entry_path)
      ) WITHOUT ROWID;
      CREATE TABLE analytics_referrer_days (
        day TEXT NOT NULL, referrer_host TEXT NOT NULL, visits INTEGER NOT NULL, PRIMARY KEY (day, referrer_host)
      ) WITHOUT ROWID;
      CREATE TABLE analytics_campaign_days (
        day TEXT NOT NULL, source TEXT NOT NULL, medium TEXT NOT NULL, campaign TEXT NOT NULL, click TEXT NOT NULL,
        visits INTEGER NOT NULL,
        PRIMARY KEY (day, source, medium, campaign, click)
      ) WITHOUT ROWID;
      CREATE TABLE analytics_funnel_days (
        split TEXT NOT NULL, day TEXT NOT NULL, form TEXT NOT NULL, key TEXT NOT NULL,
        viewed INTEGER NOT NULL, started INTEGER NOT NULL, submitted INTEGER NOT NULL,
        accepted INTEGER NOT NULL, delivered INTEGER NOT NULL,
        PRIMARY KEY (split, day, form, key)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 2,
    name: 'leads counted under their own keys, spam among them until judged; no visit named beside a lead',
    // A lead waiting for the CRM keeps the keys its visit had, which it was counted under so far.
    sql: `
      CREATE TABLE analytics_leads_keyed (
        lead_id TEXT PRIMARY KEY, day TEXT NOT NULL, form TEXT NOT NULL,
        campaign TEXT NOT NULL, source TEXT NOT NULL, entry_path TEXT NOT NULL, accepted INTEGER NOT NULL
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
      ALTER TABLE analytics_funnel_days ADD COLUMN booked INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE analytics_leads ADD COLUMN delivered INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE analytics_leads ADD COLUMN booked INTEGER NOT NULL DEFAULT 0;
      CREATE TABLE analytics_summary_form_days (
        day TEXT NOT NULL, form TEXT NOT NULL, visits INTEGER NOT NULL, viewed INTEGER NOT NULL, accepted INTEGER NOT NULL, delivered INTEGER NOT NULL, booked INTEGER NOT NULL, PRIMARY KEY (day, form)
      ) WITHOUT ROWID;
      CREATE TABLE analytics_summary_campaign_days (
        day TEXT NOT NULL, form TEXT NOT NULL, source TEXT NOT NULL, campaign TEXT NOT NULL, visits INTEGER NOT NULL, viewed INTEGER NOT NULL, accepted INTEGER NOT NULL, delivered INTEGER NOT NULL, booked INTEGER NOT NULL,
        PRIMARY KEY (day, form, source, campaign)
      ) WITHOUT ROWID;
      CREATE TABLE analytics_summary_entry_days (
        day TEXT NOT NULL, form TEXT NOT NULL, entry_path TEXT NOT NULL, visits INTEGER NOT NULL, viewed INTEGER NOT NULL, accepted INTEGER NOT NULL, delivered INTEGER NOT NULL, booked INTEGER NOT NULL, PRIMARY KEY (day, form, entry_path)
      ) WITHOUT ROWID;
      CREATE TABLE analytics_summary_days (
        day TEXT NOT NULL, form TEXT NOT NULL, source TEXT NOT NULL, campaign TEXT NOT NULL, entry_path TEXT NOT NULL, visits INTEGER NOT NULL, viewed INTEGER NOT NULL, accepted INTEGER NOT NULL, delivered INTEGER NOT NULL, booked INTEGER NOT NULL,
        PRIMARY KEY (day, form, source, campaign, entry_path)
      ) WITHOUT ROWID;
      CREATE TABLE analytics_summary_form_months (
        day TEXT NOT NULL, form TEXT NOT NULL, visits INTEGER NOT NULL, viewed INTEGER NOT NULL, accepted INTEGER NOT NULL, delivered INTEGER NOT NULL, booked INTEGER NOT NULL, PRIMARY KEY (day, form)
      ) WITHOUT ROWID;
      CREATE TABLE analytics_summary_campaign_months (
        day TEXT NOT NULL, form TEXT NOT NULL, source TEXT NOT NULL, campaign TEXT NOT NULL, visits INTEGER NOT NULL, viewed INTEGER NOT NULL, accepted INTEGER NOT NULL, delivered INTEGER NOT NULL, booked INTEGER NOT NULL,
        PRIMARY KEY (day, form, source, campaign)
      ) WITHOUT ROWID;
      CREATE TABLE analytics_summary_entry_months (
        day TEXT NOT NULL, form TEXT NOT NULL, entry_path TEXT NOT NULL, visits INTEGER NOT NULL, viewed INTEGER NOT NULL, accepted INTEGER NOT NULL, delivered INTEGER NOT NULL, booked INTEGER NOT NULL, PRIMARY KEY (day, form, entry_path)
      ) WITHOUT ROWID;
      CREATE TABLE analytics_summary_months (
        day TEXT NOT NULL, form TEXT NOT NULL, source TEXT NOT NULL, campaign TEXT NOT NULL, entry_path TEXT NOT NULL, visits INTEGER NOT NULL, viewed INTEGER NOT NULL, accepted INTEGER NOT NULL, delivered INTEGER NOT NULL, booked INTEGER NOT NULL,
        PRIMARY KEY (day, form, source, campaign, entry_path)
      ) WITHOUT ROWID;
      CREATE INDEX analytics_summary_days_campaign ON analytics_summary_days (campaign, day, form, source, campaign, entry_path, visits, viewed, accepted, delivered, booked);
      CREATE INDEX analytics_summary_days_source ON analytics_summary_days (source, day, form, source, campaign, entry_path, visits, viewed, accepted, delivered, booked);
      CREATE INDEX analytics_summary_days_entry ON analytics_summary_days (entry_path, day, form, source, campaign, entry_path, visits, viewed, accepted, delivered, booked);
      CREATE INDEX analytics_summary_months_campaign ON analytics_summary_months (campaign, day, form, source, campaign, entry_path, visits, viewed, accepted, delivered, booked);
      CREATE INDEX analytics_summary_months_source ON analytics_summary_months (source, day, form, source, campaign, entry_path, visits, viewed, accepted, delivered, booked);
      CREATE INDEX analytics_summary_months_entry ON analytics_summary_months (entry_path, day, form, source, campaign, entry_path, visits, viewed, accepted, delivered, booked);
      CREATE TABLE analytics_summary_start (day TEXT NOT NULL);
      INSERT INTO analytics_summary_start (day)
        SELECT date('now', '+1 day')
        WHERE EXISTS (SELECT 1 FROM analytics_entry_days) OR EXISTS (SELECT 1 FROM analytics_funnel_days);
    `,
  },
  {
    version: 4,
    name: 'field speed: page loads per day and per month, page, metric and bucket of its value',
    // No raw rows: the bucket counts are all a percentile needs (vital-buckets.ts), kept for ever.
    sql: `
      CREATE TABLE analytics_vital_days (
        day TEXT NOT NULL, path TEXT NOT NULL, metric TEXT NOT NULL, bucket INTEGER NOT NULL, samples INTEGER NOT NULL,
        PRIMARY KEY (day, path, metric, bucket)
      ) WITHOUT ROWID;
      CREATE TABLE analytics_vital_weeks (
        week TEXT NOT NULL, path TEXT NOT NULL, metric TEXT NOT NULL, bucket INTEGER NOT NULL, samples INTEGER NOT NULL,
        PRIMARY KEY (week, path, metric, bucket)
      ) WITHOUT ROWID;
      CREATE TABLE analytics_vital_months (
        month TEXT NOT NULL, path TEXT NOT NULL, metric TEXT NOT NULL, bucket INTEGER NOT NULL, samples INTEGER NOT NULL,
        PRIMARY KEY (month, path, metric, bucket)
      ) WITHOUT ROWID;
    `,
  },
];

/** The raw tables, deleted by day; the visit's own rows last, as the others hang off it. */
const RAW_TABLES = ['analytics_events', 'analytics_visit_pages', 'analytics_visit_forms', 'analytics_leads', 'analytics_visits'] as const;

type Row = Record<string, SQLInputValue>;

export function openSqliteAnalyticsStore(file: string, migrations: readonly Migration[] = SQLITE_ANALYTICS_MIGRATIONS): AnalyticsStore {
  const db = openSqliteDatabase(file, {
    busyTimeoutMs: BUSY_TIMEOUT_MS,
    pragmas: [
      'journal_mode = WAL',
      'synchronous = NORMAL',
      // A deleted row's bytes are overwritten, not left in a free page: a day's salt deleted here is gone
      // from the file too, so a copy of it cannot name the addresses behind that day's visits.
      'secure_delete = ON',
    ],
    migrations,
    table: 'analytics_schema_migrations',
    database: 'analytics',
  });
  const { all, get, run } = cachedStatements(db);
  const reports = reportSql('sqlite');
  let closed = false;

  function transaction<T>(work: () => T): T {
    if (closed) throw new Error('The analytics store is closed');
    return inSqliteTransaction(db, work);
  }

  /** A report's rows, once its range has been checked. */
  function report(sql: string, range: DayRange, params: readonly string[] = [range.from, range.to]): Row[] {
    daysOf(range);
    if (closed) throw new Error('The analytics store is closed');
    return all(sql, ...params);
  }

  /** Runs the summary's queries of a range, once the range has been checked. */
  function summaryRun(range: DayRange) {
    daysOf(range);
    return async (query: SummaryQuery) => {
      if (closed) throw new Error('The analytics store is closed');
      return all(query.sql, ...query.params);
    };
  }

  /** Inserts the visits not yet kept; returns those that were new. */
  function insertVisits(visits: readonly NewVisit[]): VisitKey[] {
    return visits.filter(
      ({ day, visit, attribution, firstAt }) =>
        run(
          `INSERT INTO analytics_visits (day, visit, ${ATTRIBUTION_LIST}, first_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (day, visit) DO NOTHING`,
          day,
          visit,
          ...attributionValues(attribution),
          firstAt,
        ) > 0,
    );
  }

  /** Gives the visits made by a lead before their first beacon that beacon's attribution; returns those it gave one. */
  function upgradeVisits(visits: readonly NewVisit[]): VisitKey[] {
    return visits.filter(
      ({ day, visit, attribution }) =>
        run(
          `UPDATE analytics_visits SET ${ATTRIBUTION_COLUMNS.map((column) => `${column} = ?`).join(', ')}
           WHERE day = ? AND visit = ? AND entry_path = ?`,
          ...attributionValues(attribution),
          day,
          visit,
          AWAITING_BEACON_ENTRY_PATH,
        ) > 0,
    );
  }

  /** The steps the given visits reached so far, each visit's forms. */
  function stepsOf(visits: readonly VisitKey[]): VisitFormSteps[] {
    return visits.flatMap(({ day, visit }) =>
      all('SELECT form, steps FROM analytics_visit_forms WHERE day = ? AND visit = ? ORDER BY form', day, visit).map((row) => ({
        day,
        visit,
        form: String(row.form),
        steps: Number(row.steps),
      })),
    );
  }

  /** The stored attribution of each visit (the first writer's), by keyOf(day, visit). */
  function attributionsOf(visits: readonly VisitKey[]): Map<string, Attribution> {
    const found = new Map<string, Attribution>();
    for (const { day, visit } of visits) {
      const row = get(`SELECT ${ATTRIBUTION_LIST} FROM analytics_visits WHERE day = ? AND visit = ?`, day, visit);
      if (row !== undefined) found.set(keyOf(day, visit), attributionOf(row));
    }
    return found;
  }

  function insertPages(pages: readonly VisitPage[]): VisitPage[] {
    return pages.filter(
      ({ day, visit, path: page }) =>
        run('INSERT INTO analytics_visit_pages (day, visit, path) VALUES (?, ?, ?) ON CONFLICT DO NOTHING', day, visit, page) > 0,
    );
  }

  /** Adds the steps each visit reached; returns, per visit and form, only the steps it had not reached before. */
  function addSteps(formSteps: readonly VisitFormSteps[]): VisitFormSteps[] {
    const added: VisitFormSteps[] = [];
    for (const { day, visit, form, steps } of formSteps) {
      const before = Number(
        get('SELECT steps FROM analytics_visit_forms WHERE day = ? AND visit = ? AND form = ?', day, visit, form)?.steps ?? 0,
      );
      const fresh = steps & ~before;
      if (fresh === 0) continue;
      run(
        `INSERT INTO analytics_visit_forms (day, visit, form, steps) VALUES (?, ?, ?, ?)
         ON CONFLICT (day, visit, form) DO UPDATE SET steps = steps | excluded.steps`,
        day,
        visit,
        form,
        fresh,
      );
      added.push({ day, visit, form, steps: fresh });
    }
    return added;
  }

  function addRollups(increments: RollupIncrements): void {
    for (const name of ROLLUP_NAMES) {
      const { table, keys, counts } = ROLLUPS[name];
      const sql = `INSERT INTO ${table} (${[...keys, ...counts].join(', ')}) VALUES (${[...keys, ...counts].map(() => '?').join(', ')})
        ON CONFLICT (${keys.join(', ')}) DO UPDATE SET ${counts.map((count) => `${count} = ${count} + excluded.${count}`).join(', ')}`;
      for (const row of increments[name]) run(sql, ...row.keys, ...row.counts);
    }
  }

  return {
    recordEvents: async (events: readonly VisitEvent[]) => {
      if (events.length === 0) return;
      const plan = planBatch(events);
      transaction(() => {
        for (const event of plan.events) {
          run(
            'INSERT INTO analytics_events (day, at, visit, type, path, form) VALUES (?, ?, ?, ?, ?, ?)',
            event.day,
            event.at,
            event.visit,
            event.type,
            event.path,
            event.form,
          );
        }
        const inserted = insertVisits(plan.visits);
        const isInserted = new Set(inserted.map(({ day, visit }) => keyOf(day, visit)));
        const upgraded = upgradeVisits(plan.visits.filter(({ day, visit }) => !isInserted.has(keyOf(day, visit))));
        const movedSteps = stepsOf(upgraded);
        const newVisits = [...inserted, ...upgraded];
        const newPages = insertPages(plan.pages);
        const newSteps = addSteps(plan.formSteps);
        // A visit new in this batch is under the attribution just stored; an older one is read back.
        const isNew = new Set(newVisits.map(({ day, visit }) => keyOf(day, visit)));
        const attributions = attributionsOf(newSteps.filter(({ day, visit }) => !isNew.has(keyOf(day, visit))));
        for (const visit of plan.visits)
          if (isNew.has(keyOf(visit.day, visit.visit))) attributions.set(keyOf(visit.day, visit.visit), visit.attribution);
        addRollups(rollupIncrements({ pageCounts: plan.pageCounts, newVisits, newPages, newSteps, movedSteps, attributions }));
      });
    },

    recordLead: async (lead: CountedLead) => {
      const row = newLeadRow(lead);
      transaction(() => {
        const added = run(
          `INSERT INTO analytics_leads (lead_id, ${LEAD_COLUMNS.join(', ')}) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (lead_id) DO NOTHING`,
          lead.leadId,
          ...leadValues(row),
        );
        if (added > 0 && row.accepted) addRollups(leadIncrements(row, { accepted: 1, delivered: 0 }));
      });
    },

    recordLeadJudged: async (leadId: string, spam: boolean) => {
      transaction(() => {
        // A lead the CRM took is accepted for good: judging it afterwards changes no count.
        const row = get(
          `UPDATE analytics_leads SET accepted = ? WHERE lead_id = ? AND accepted = ? AND delivered = 0 RETURNING ${LEAD_COLUMNS.join(', ')}`,
          spam ? 0 : 1,
          leadId,
          spam ? 1 : 0,
        );
        if (row !== undefined) addRollups(leadIncrements(leadRowOf(row), { accepted: spam ? -1 : 1, delivered: 0 }));
      });
    },

    recordLeadDelivered: async (leadId: string) => {
      transaction(() => {
        // The lead's row stays (a meeting may follow) but is flagged: a second "delivered" for it finds nothing.
        const row = get(
          `UPDATE analytics_leads SET delivered = 1 WHERE lead_id = ? AND delivered = 0 RETURNING ${LEAD_COLUMNS.join(', ')}`,
          leadId,
        );
        if (row === undefined) return;
        const lead = leadRowOf(row);
        addRollups(leadIncrements(lead, { accepted: lead.accepted ? 0 : 1, delivered: 1 }));
      });
    },

    recordMeeting: async (leadId: string, at: number, booked: boolean) => {
      assertMoment(at);
      transaction(() => {
        // Counted once while booked: a second "booked" (a reschedule) or "cancelled" finds nothing to change.
        const row = get(
          `UPDATE analytics_leads SET booked = ? WHERE lead_id = ? AND booked = ? RETURNING ${LEAD_COLUMNS.join(', ')}`,
          booked ? 1 : 0,
          leadId,
          booked ? 0 : 1,
        );
        if (row !== undefined) addRollups(leadIncrements(leadRowOf(row), { booked: booked ? 1 : -1 }));
      });
    },

    summaryDays: async (range, filter) => {
      const { sql, params } = summarySql('sqlite', filter).days(range);
      return toSummaryDays(report(sql, range, params));
    },
    summaryMonths: async (range, filter) => readSummaryMonths(summaryRun(range), 'sqlite', range, filter),
    conversions: async (range, filter) => readConversions(summaryRun(range), 'sqlite', range, filter),
    summaryCountedFrom: async () => {
      if (closed) throw new Error('The analytics store is closed');
      const row = get('SELECT day FROM analytics_summary_start');
      return row === undefined ? null : String(row.day);
    },

    recordVitals: async (samples) => {
      const days = vitalIncrements(samples);
      if (days.length === 0) return;
      transaction(() => {
        for (const [table, period, rows] of [
          ['analytics_vital_days', 'day', days],
          ['analytics_vital_weeks', 'week', byPeriod(days, weekOf)],
          ['analytics_vital_months', 'month', byPeriod(days, monthOf)],
        ] as const)
          for (const row of rows)
            run(
              `INSERT INTO ${table} (${period}, path, metric, bucket, samples) VALUES (?, ?, ?, ?, ?)
               ON CONFLICT (${period}, path, metric, bucket) DO UPDATE SET samples = samples + excluded.samples`,
              row.day,
              row.path,
              row.metric,
              row.bucket,
              row.samples,
            );
      });
    },

    vitals: async (range, minSamples, path) => {
      daysOf(range);
      assertVitalsQuery(minSamples, path);
      if (closed) throw new Error('The analytics store is closed');
      const { months, weeks, days } = vitalsPieces(range);
      const { vitals } = reports;
      const read = (sql: string, ofPage: string, span: { from: string; to: string }) =>
        path === undefined ? all(sql, span.from, span.to) : all(ofPage, span.from, span.to, path);
      const rows = [
        ...(months ? read(vitals.months, vitals.monthsOfPage, months) : []),
        ...weeks.flatMap((span) => read(vitals.weeks, vitals.weeksOfPage, span)),
        ...days.flatMap((span) => read(vitals.days, vitals.daysOfPage, span)),
      ];
      return toRouteVitals(rows, minSamples).slice(0, REPORT_ROW_LIMIT);
    },

    dayTotals: async (range) => {
      const days = daysOf(range);
      return toDayTotals(days, report(reports.visitsPerDay, range), report(reports.pagesPerDay, range));
    },
    pageTotals: async (range) => toPageTotals(report(reports.pages, range)),
    referrerTotals: async (range) => toReferrerTotals(report(reports.referrers, range)),
    campaignTotals: async (range) => toCampaignTotals(report(reports.campaigns, range)),
    entryTotals: async (range) => toEntryTotals(report(reports.entries, range)),
    funnel: async (range, split) => toFunnelRows(report(funnelSql(reports, split), range)),

    deleteRawBefore: async (day: string) => {
      assertDay(day);
      let total = 0;
      for (const table of RAW_TABLES) {
        for (;;) {
          const deleted = transaction(() =>
            run(`DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} WHERE day < ? LIMIT ?)`, day, DELETE_BATCH_SIZE),
          );
          total += deleted;
          if (deleted < DELETE_BATCH_SIZE) break;
          // Other calls (a batch of events on the worker thread) go between deletion batches.
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
      return total;
    },

    saltForDay: async (day: string, candidate: string) => {
      assertDay(day);
      return transaction(() => {
        run('INSERT INTO analytics_salts (day, salt) VALUES (?, ?) ON CONFLICT (day) DO NOTHING', day, candidate);
        return String(get('SELECT salt FROM analytics_salts WHERE day = ?', day)?.salt);
      });
    },

    deleteSaltsBefore: async (day: string) => {
      assertDay(day);
      transaction(() => run('DELETE FROM analytics_salts WHERE day < ?', day));
    },

    schemaVersion: async () => {
      if (closed) throw new Error('The analytics store is closed');
      return Number(get('SELECT MAX(version) AS version FROM analytics_schema_migrations')?.version ?? 0);
    },

    async close() {
      if (closed) return;
      closed = true;
      db.close();
    },
  };
}
