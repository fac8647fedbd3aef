// The reports, as SQL both stores run: each sums roll-up rows of the range's days (the roll-up
// tables' keys begin with the day, so the range is one index range) and never reads raw events.
// Lists are largest first, ties by key in byte order (PostgreSQL is told COLLATE "C" so both stores
// order alike), cut at REPORT_ROW_LIMIT. `$1` and `$2` are the range's first and last day.
import type {
  CampaignTotals,
  ConversionTotals,
  DayRange,
  DayTotals,
  EntryConversionTotals,
  EntryTotals,
  FunnelRow,
  FunnelSplit,
  PageTotals,
  ReferrerTotals,
  SummaryDay,
  SummaryFilter,
} from './analytics-store.ts';
import { REPORT_ROW_LIMIT } from './analytics-store.ts';
import { ROLLUPS, summaryRollupFor, type SummaryKey } from './analytics-batch.ts';
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
        SUM(accepted) AS accepted, SUM(delivered) AS delivered, SUM(booked) AS booked
      FROM analytics_funnel_days WHERE split = '${split}' AND ${inRange}
      GROUP BY form, key
      HAVING SUM(viewed) + SUM(started) + SUM(submitted) + SUM(accepted) + SUM(delivered) + SUM(booked) > 0
      ORDER BY viewed DESC, started DESC, submitted DESC, accepted DESC, delivered DESC, booked DESC, ${text('form')}, ${text('key')}
      LIMIT ${REPORT_ROW_LIMIT}`);
  const visits = (table: string, columns: string) =>
    words(`
      SELECT ${columns}, SUM(visits) AS visitors FROM ${table} WHERE ${inRange}
      GROUP BY ${columns}
      ORDER BY visitors DESC, ${columns.split(', ').map(text).join(', ')}
      LIMIT ${REPORT_ROW_LIMIT}`);
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
    booked: Number(row.booked),
  }));

/** A summary filter's keys in the order their values follow the range's two days as parameters. */
const FILTER_COLUMNS = [
  ['form', 'form'],
  ['source', 'source'],
  ['campaign', 'campaign'],
  ['page', 'entry_path'],
] as const satisfies readonly (readonly [keyof SummaryFilter, string])[];

/** A summary query: its SQL and its parameters (the range's days, then the filter's values). */
export type SummaryQuery = { readonly sql: string; readonly params: readonly string[] };

/**
 * The summary's queries over the smallest roll-up that holds the filter's keys (and the grouping's).
 * With a form filter, a visitor is a visit that viewed the form ("viewed" on its rows); without,
 * every visit (the "visits" on the rows with form ''), and the leads' steps of every form.
 */
export function summarySql(dialect: Dialect, filter: SummaryFilter) {
  const text = (column: string) => (dialect === 'postgres' ? `${column} COLLATE "C"` : column);
  const words = (sql: string) => (dialect === 'sqlite' ? sql.replace(/\$(\d+)/g, '?$1') : sql);
  const filtered = FILTER_COLUMNS.filter(([key]) => filter[key] !== undefined);
  const where = ['day >= $1', 'day <= $2', ...filtered.map(([, column], index) => `${column} = $${index + 3}`)].join(' AND ');
  const params = (range: DayRange) => [range.from, range.to, ...filtered.map(([key]) => String(filter[key]))];
  const visitors = filter.form === undefined ? 'SUM(visits)' : 'SUM(viewed)';
  const sums = `${visitors} AS visitors, SUM(accepted) AS accepted, SUM(delivered) AS delivered, SUM(booked) AS booked`;
  const something = `${visitors} + SUM(accepted) + SUM(delivered) + SUM(booked) > 0`;
  const tableFor = (grouped: readonly SummaryKey[]) => {
    const keys = new Set<SummaryKey>(grouped);
    for (const [, column] of filtered) if (column !== 'form') keys.add(column);
    return ROLLUPS[summaryRollupFor(keys)].table;
  };
  const ranked = `delivered DESC, booked DESC, accepted DESC, visitors DESC`;
  return {
    days: (range: DayRange): SummaryQuery => ({
      sql: words(`SELECT day, ${sums} FROM ${tableFor([])} WHERE ${where} GROUP BY day HAVING ${something} ORDER BY day`),
      params: params(range),
    }),
    campaigns: (range: DayRange): SummaryQuery => ({
      sql: words(`
        SELECT campaign, source, ${sums} FROM ${tableFor(['campaign', 'source'])} WHERE ${where}
        GROUP BY campaign, source HAVING ${something}
        ORDER BY ${ranked}, ${text('campaign')}, ${text('source')}
        LIMIT ${REPORT_ROW_LIMIT}`),
      params: params(range),
    }),
    entries: (range: DayRange): SummaryQuery => ({
      sql: words(`
        SELECT entry_path, ${sums} FROM ${tableFor(['entry_path'])} WHERE ${where}
        GROUP BY entry_path HAVING ${something}
        ORDER BY ${ranked}, ${text('entry_path')}
        LIMIT ${REPORT_ROW_LIMIT}`),
      params: params(range),
    }),
  };
}

const summaryCounts = (row: Row) => ({
  visitors: Number(row.visitors),
  accepted: Number(row.accepted),
  delivered: Number(row.delivered),
  booked: Number(row.booked),
});

export const toSummaryDays = (rows: readonly Row[]): SummaryDay[] => rows.map((row) => ({ day: String(row.day), ...summaryCounts(row) }));

export const toConversionTotals = (rows: readonly Row[]): ConversionTotals[] =>
  rows.map((row) => ({ campaign: String(row.campaign), source: String(row.source), ...summaryCounts(row) }));

export const toEntryConversionTotals = (rows: readonly Row[]): EntryConversionTotals[] =>
  rows.map((row) => ({ entryPath: String(row.entry_path), ...summaryCounts(row) }));
