// The reports, as SQL both stores run: each sums roll-up rows of the range's days (the roll-up
// tables' keys begin with the day, so the range is one index range) and never reads raw events.
// Lists are largest first, ties by key in byte order (PostgreSQL is told COLLATE "C" so both stores
// order alike), cut at REPORT_ROW_LIMIT. `$1` and `$2` are the range's first and last day.
import type { CampaignTotals, DayTotals, EntryTotals, FunnelRow, FunnelSplit, PageTotals, ReferrerTotals } from './analytics-store.ts';
import { REPORT_ROW_LIMIT } from './analytics-store.ts';
import type { LeadFormId } from '../../lead/rules.ts';

export type Dialect = 'sqlite' | 'postgres';

type Row = Record<string, unknown>;

/** The report queries in one database's words: SQLite numbers its parameters ?1, PostgreSQL $1. */
export function reportSql(dialect: Dialect) {
  const text = (column: string) => (dialect === 'postgres' ? `${column} COLLATE "C"` : column);
  const words = (sql: string) => (dialect === 'sqlite' ? sql.replace(/\$(\d+)/g, '?$1') : sql);
  const inRange = 'day >= $1 AND day <= $2';
  // The split is one of four fixed words, written into the query so each split is its own index range.
  const funnel = (split: FunnelSplit) =>
    words(`
      SELECT form, key,
        SUM(viewed) AS viewed, SUM(started) AS started, SUM(submitted) AS submitted,
        SUM(accepted) AS accepted, SUM(delivered) AS delivered
      FROM analytics_funnel_days WHERE split = '${split}' AND ${inRange}
      GROUP BY form, key
      HAVING SUM(viewed) + SUM(started) + SUM(submitted) + SUM(accepted) + SUM(delivered) > 0
      ORDER BY viewed DESC, started DESC, submitted DESC, accepted DESC, delivered DESC, ${text('form')}, ${text('key')}
      LIMIT ${REPORT_ROW_LIMIT}`);
  const visits = (table: string, columns: string) =>
    words(`
      SELECT ${columns}, SUM(visits) AS visitors FROM ${table} WHERE ${inRange}
      GROUP BY ${columns}
      ORDER BY visitors DESC, ${columns.split(', ').map(text).join(', ')}
      LIMIT ${REPORT_ROW_LIMIT}`);
  const vitals = (table: string, period: string, ofPage: boolean) =>
    words(`
      SELECT path, metric, bucket, SUM(samples) AS samples FROM ${table}
      WHERE ${period} >= $1 AND ${period} <= $2${ofPage ? ' AND path = $3' : ''}
      GROUP BY path, metric, bucket`);
  return {
    visitsPerDay: words(`SELECT day, SUM(visits) AS visitors FROM analytics_entry_days WHERE ${inRange} GROUP BY day`),
    pagesPerDay: words(
      `SELECT day, SUM(pageviews) AS pageviews, SUM(booking_clicks) AS booking_clicks FROM analytics_page_days WHERE ${inRange} GROUP BY day`,
    ),
    pages: words(`
      SELECT path, SUM(visitors) AS visitors, SUM(pageviews) AS pageviews, SUM(booking_clicks) AS booking_clicks
      FROM analytics_page_days WHERE ${inRange}
      GROUP BY path
      ORDER BY pageviews DESC, visitors DESC, ${text('path')}
      LIMIT ${REPORT_ROW_LIMIT}`),
    referrers: visits('analytics_referrer_days', 'referrer_host'),
    campaigns: visits('analytics_campaign_days', 'source, medium, campaign, click'),
    entries: visits('analytics_entry_days', 'entry_path'),
    // Field speed's histogram rows summed over a span of one roll-up (days, weeks by their Monday,
    // months "2026-11"); the percentiles are read from them in vital-buckets.ts. `$3`, when given, is
    // the one page asked for.
    vitals: {
      days: vitals('analytics_vital_days', 'day', false),
      daysOfPage: vitals('analytics_vital_days', 'day', true),
      weeks: vitals('analytics_vital_weeks', 'week', false),
      weeksOfPage: vitals('analytics_vital_weeks', 'week', true),
      months: vitals('analytics_vital_months', 'month', false),
      monthsOfPage: vitals('analytics_vital_months', 'month', true),
    },
    funnel: {
      none: funnel('none'),
      campaign: funnel('campaign'),
      source: funnel('source'),
      entry: funnel('entry'),
    } satisfies Record<FunnelSplit, string>,
  };
}

export type ReportSql = ReturnType<typeof reportSql>;

/** The funnel query of a split; an unknown split (from a caller past the type checker) is refused. */
export function funnelSql(reports: ReportSql, split: FunnelSplit): string {
  if (!Object.hasOwn(reports.funnel, split)) throw new Error(`Unknown funnel split "${String(split)}"`);
  return reports.funnel[split];
}

/** Every day of the range with its sums, zeros where no row says otherwise. */
export function toDayTotals(days: readonly string[], visitsPerDay: readonly Row[], pagesPerDay: readonly Row[]): DayTotals[] {
  const visitors = new Map(visitsPerDay.map((row) => [String(row.day), Number(row.visitors)]));
  const pages = new Map(pagesPerDay.map((row) => [String(row.day), row]));
  return days.map((day) => ({
    day,
    visitors: visitors.get(day) ?? 0,
    pageviews: Number(pages.get(day)?.pageviews ?? 0),
    bookingClicks: Number(pages.get(day)?.booking_clicks ?? 0),
  }));
}

export const toPageTotals = (rows: readonly Row[]): PageTotals[] =>
  rows.map((row) => ({
    path: String(row.path),
    visitors: Number(row.visitors),
    pageviews: Number(row.pageviews),
    bookingClicks: Number(row.booking_clicks),
  }));

export const toReferrerTotals = (rows: readonly Row[]): ReferrerTotals[] =>
  rows.map((row) => ({ host: String(row.referrer_host), visitors: Number(row.visitors) }));

export const toCampaignTotals = (rows: readonly Row[]): CampaignTotals[] =>
  rows.map((row) => ({
    source: String(row.source),
    medium: String(row.medium),
    name: String(row.campaign),
    click: String(row.click),
    visitors: Number(row.visitors),
  }));

export const toEntryTotals = (rows: readonly Row[]): EntryTotals[] =>
  rows.map((row) => ({ path: String(row.entry_path), visitors: Number(row.visitors) }));

export const toFunnelRows = (rows: readonly Row[]): FunnelRow[] =>
  rows.map((row) => ({
    form: String(row.form) as LeadFormId,
    key: String(row.key),
    viewed: Number(row.viewed),
    started: Number(row.started),
    submitted: Number(row.submitted),
    accepted: Number(row.accepted),
    delivered: Number(row.delivered),
  }));
