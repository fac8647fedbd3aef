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
import { ROLLUPS, summaryRollupFor, type SummaryGrain, type SummaryKey } from './analytics-batch.ts';
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
    booked: Number(row.booked),
  }));

/** A summary filter's keys in the order their values follow the range's two days as parameters. */
const FILTER_COLUMNS = [
  ['form', 'form'],
  ['source', 'source'],
  ['campaign', 'campaign'],
  ['page', 'entry_path'],
] as const satisfies readonly (readonly [keyof SummaryFilter, string])[];

/** A summary query: its SQL and its parameters (the range's first and last day or month, then the filter's values). */
export type SummaryQuery = { readonly sql: string; readonly params: readonly string[] };

/**
 * The summary's queries over the smallest roll-up of a grain that holds the filter's keys (and the
 * grouping's). With a form filter, a visitor is a visit that viewed the form ("viewed" on its rows);
 * without, every visit (the "visits" on the rows with form ''), and the leads' steps of every form.
 * By month, the range's ends are months ("2026-11"). Conversions come unranked and whole: a range
 * read in parts is summed before it is ranked and cut (see readConversions).
 */
export function summarySql(dialect: Dialect, filter: SummaryFilter, grain: SummaryGrain = 'day') {
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
    return ROLLUPS[summaryRollupFor(keys, grain)].table;
  };
  return {
    days: (range: DayRange): SummaryQuery => ({
      sql: words(`SELECT day, ${sums} FROM ${tableFor([])} WHERE ${where} GROUP BY day HAVING ${something} ORDER BY day`),
      params: params(range),
    }),
    campaigns: (range: DayRange): SummaryQuery => ({
      sql: words(`SELECT campaign, source, ${sums} FROM ${tableFor(['campaign', 'source'])} WHERE ${where}
        GROUP BY campaign, source HAVING ${something}`),
      params: params(range),
    }),
    entries: (range: DayRange): SummaryQuery => ({
      sql: words(`SELECT entry_path, ${sums} FROM ${tableFor(['entry_path'])} WHERE ${where}
        GROUP BY entry_path HAVING ${something}`),
      params: params(range),
    }),
  };
}

const DAY_MS = 24 * 60 * 60 * 1000;
const dayAt = (at: number) => new Date(at).toISOString().slice(0, 10);
const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);
/** The first day of the month after `month` ("2026-11" → "2026-12-01"). */
function nextMonthStart(month: string): string {
  const [year, index] = month.split('-').map(Number) as [number, number];
  return dayAt(Date.UTC(year, index, 1));
}

/**
 * A range as the parts the summary reads: its whole months (by month) and the days before and after
 * them (by day); a range without a whole month is days only.
 */
export function summaryParts(range: DayRange): { months: DayRange | undefined; days: DayRange[] } {
  const firstWhole = range.from.endsWith('-01') ? range.from.slice(0, 7) : nextMonthStart(range.from.slice(0, 7)).slice(0, 7);
  const afterTo = dayAt(dayMs(range.to) + DAY_MS);
  const lastWhole = afterTo.endsWith('-01') ? range.to.slice(0, 7) : dayAt(dayMs(`${range.to.slice(0, 7)}-01`) - DAY_MS).slice(0, 7);
  if (firstWhole > lastWhole) return { months: undefined, days: [range] };
  const days: DayRange[] = [];
  const monthsStart = `${firstWhole}-01`;
  const monthsEnd = dayAt(dayMs(nextMonthStart(lastWhole)) - DAY_MS);
  if (range.from < monthsStart) days.push({ from: range.from, to: dayAt(dayMs(monthsStart) - DAY_MS) });
  if (range.to > monthsEnd) days.push({ from: dayAt(dayMs(monthsEnd) + DAY_MS), to: range.to });
  return { months: { from: firstWhole, to: lastWhole }, days };
}

/** Runs one summary query: the store's own database call. */
export type RunSummary = (query: SummaryQuery) => Promise<readonly Row[]>;

type Counted = { visitors: number; accepted: number; delivered: number; booked: number };

function addCounts(into: Counted, row: Row): void {
  into.visitors += Number(row.visitors);
  into.accepted += Number(row.accepted);
  into.delivered += Number(row.delivered);
  into.booked += Number(row.booked);
}

/** Largest first by leads the CRM took, then meetings, leads accepted and visitors; ties by key in byte order. */
function rankCounted<T extends Counted>(rows: T[], key: (row: T) => string): T[] {
  return rows
    .sort((a, b) => {
      const ka = key(a);
      const kb = key(b);
      return (
        b.delivered - a.delivered ||
        b.booked - a.booked ||
        b.accepted - a.accepted ||
        b.visitors - a.visitors ||
        (ka < kb ? -1 : ka > kb ? 1 : 0)
      );
    })
    .slice(0, REPORT_ROW_LIMIT);
}

/** What converts over a range: its whole months and its other days read apart, summed, ranked and cut. */
export async function readConversions(
  run: RunSummary,
  dialect: Dialect,
  range: DayRange,
  filter: SummaryFilter,
): Promise<{ campaigns: ConversionTotals[]; entries: EntryConversionTotals[] }> {
  const parts = summaryParts(range);
  const byDay = summarySql(dialect, filter, 'day');
  const byMonth = summarySql(dialect, filter, 'month');
  const queries = [
    ...parts.days.flatMap((days) => [
      { kind: 'campaigns', query: byDay.campaigns(days) },
      { kind: 'entries', query: byDay.entries(days) },
    ]),
    ...(parts.months
      ? [
          { kind: 'campaigns', query: byMonth.campaigns(parts.months) },
          { kind: 'entries', query: byMonth.entries(parts.months) },
        ]
      : []),
  ];
  const answers = await Promise.all(queries.map(({ query }) => run(query)));
  const campaigns = new Map<string, ConversionTotals & Counted>();
  const entries = new Map<string, EntryConversionTotals & Counted>();
  answers.forEach((rows, index) => {
    for (const row of rows) {
      if (queries[index]!.kind === 'campaigns') {
        const campaign = String(row.campaign);
        const source = String(row.source);
        const key = `${campaign}\n${source}`;
        const found = campaigns.get(key) ?? { campaign, source, visitors: 0, accepted: 0, delivered: 0, booked: 0 };
        addCounts(found, row);
        campaigns.set(key, found);
      } else {
        const entryPath = String(row.entry_path);
        const found = entries.get(entryPath) ?? { entryPath, visitors: 0, accepted: 0, delivered: 0, booked: 0 };
        addCounts(found, row);
        entries.set(entryPath, found);
      }
    }
  });
  return {
    campaigns: rankCounted([...campaigns.values()], (row) => `${row.campaign}\n${row.source}`),
    entries: rankCounted([...entries.values()], (row) => row.entryPath),
  };
}

/**
 * The range's sums per month ("day" is the month's first day in the range): whole months from the
 * roll-ups by month, the days at the ends from those by day; only months with something counted.
 */
export async function readSummaryMonths(run: RunSummary, dialect: Dialect, range: DayRange, filter: SummaryFilter): Promise<SummaryDay[]> {
  const parts = summaryParts(range);
  const queries = [
    ...parts.days.map((days) => summarySql(dialect, filter, 'day').days(days)),
    ...(parts.months ? [summarySql(dialect, filter, 'month').days(parts.months)] : []),
  ];
  const months = new Map<string, Counted>();
  for (const rows of await Promise.all(queries.map(run))) {
    for (const row of rows) {
      const month = String(row.day).slice(0, 7);
      const found = months.get(month) ?? { visitors: 0, accepted: 0, delivered: 0, booked: 0 };
      addCounts(found, row);
      months.set(month, found);
    }
  }
  return [...months.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .filter(([, counts]) => counts.visitors + counts.accepted + counts.delivered + counts.booked > 0)
    .map(([month, counts]) => ({ day: `${month}-01` < range.from ? range.from : `${month}-01`, ...counts }));
}

const summaryCounts = (row: Row) => ({
  visitors: Number(row.visitors),
  accepted: Number(row.accepted),
  delivered: Number(row.delivered),
  booked: Number(row.booked),
});

export const toSummaryDays = (rows: readonly Row[]): SummaryDay[] => rows.map((row) => ({ day: String(row.day), ...summaryCounts(row) }));
