// For tests of what reads the visit reports: an AnalyticsStore held in memory that answers each
// report with the rows a test gives it, records the range (and split) every report was asked for,
// and can be made to fail as a database that is down does. Days come back as the store promises:
// every day of the range, oldest first, days without visits as zeros.
import type {
  AnalyticsStore,
  CampaignTotals,
  DayRange,
  DayTotals,
  EntryTotals,
  FunnelRow,
  FunnelSplit,
  PageTotals,
  ReferrerTotals,
  SummaryDay,
  ConversionTotals,
  EntryConversionTotals,
  RouteVitals,
} from '../analytics/analytics-store.ts';
import { SQLITE_ANALYTICS_MIGRATIONS } from '../analytics/sqlite-analytics-store.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export type FakeReports = {
  days?: readonly DayTotals[];
  pages?: readonly PageTotals[];
  referrers?: readonly ReferrerTotals[];
  campaigns?: readonly CampaignTotals[];
  entries?: readonly EntryTotals[];
  /** The funnel rows of each split; a split not given answers none. */
  funnel?: Partial<Record<FunnelSplit, readonly FunnelRow[]>>;
  /** The summary's days (those of the range asked are answered, whatever the filter). */
  summaryDays?: readonly SummaryDay[];
  conversions?: { campaigns?: readonly ConversionTotals[]; entries?: readonly EntryConversionTotals[] };
  countedFrom?: string | null;
  /** Field speed per page, answered for any minimum (a page asked for: that page's row only). */
  vitals?: readonly RouteVitals[];
};

export type FakeAnalyticsStore = AnalyticsStore & {
  /** Every report asked for, in order: `dayTotals 2026-11-01..2026-11-30`, `funnel:source 2026-11-01..2026-11-30`. */
  readonly asked: string[];
  /** While set, every report fails as a store whose database is down does. */
  failing: boolean;
};

function everyDay(range: DayRange): string[] {
  const days: string[] = [];
  for (let at = Date.parse(`${range.from}T00:00:00Z`); at <= Date.parse(`${range.to}T00:00:00Z`); at += DAY_MS)
    days.push(new Date(at).toISOString().slice(0, 10));
  return days;
}

export function createFakeAnalyticsStore(reports: FakeReports = {}): FakeAnalyticsStore {
  const store: FakeAnalyticsStore = {
    asked: [],
    failing: false,
    async saltForDay(_day, candidate) {
      return candidate;
    },
    async deleteSaltsBefore() {},
    // Current, as a store the server migrated at start is.
    async schemaVersion() {
      return SQLITE_ANALYTICS_MIGRATIONS.length;
    },
    async recordEvents() {},
    async recordLead() {},
    async recordLeadJudged() {},
    async recordLeadDelivered() {},
    async recordMeeting() {},
    async summaryDays(range, filter) {
      answer(`summaryDays ${JSON.stringify(filter)}`, range);
      return [...(reports.summaryDays ?? [])].filter((row) => row.day >= range.from && row.day <= range.to);
    },
    async summaryMonths(range, filter) {
      answer(`summaryMonths ${JSON.stringify(filter)}`, range);
      const months = new Map<string, SummaryDay>();
      for (const row of reports.summaryDays ?? []) {
        if (row.day < range.from || row.day > range.to) continue;
        const day = `${row.day.slice(0, 7)}-01` < range.from ? range.from : `${row.day.slice(0, 7)}-01`;
        const found = months.get(day) ?? { day, visitors: 0, accepted: 0, delivered: 0, booked: 0 };
        months.set(day, {
          day,
          visitors: found.visitors + row.visitors,
          accepted: found.accepted + row.accepted,
          delivered: found.delivered + row.delivered,
          booked: found.booked + row.booked,
        });
      }
      return [...months.values()].sort((a, b) => (a.day < b.day ? -1 : 1));
    },
    async conversions(range, filter) {
      answer(`conversions ${JSON.stringify(filter)}`, range);
      return { campaigns: [...(reports.conversions?.campaigns ?? [])], entries: [...(reports.conversions?.entries ?? [])] };
    },
    async summaryCountedFrom() {
      return reports.countedFrom ?? null;
    },
    async dayTotals(range) {
      answer('dayTotals', range);
      return everyDay(range).map(
        (day) => reports.days?.find((row) => row.day === day) ?? { day, visitors: 0, pageviews: 0, bookingClicks: 0 },
      );
    },
    async pageTotals(range) {
      answer('pageTotals', range);
      return [...(reports.pages ?? [])];
    },
    async referrerTotals(range) {
      answer('referrerTotals', range);
      return [...(reports.referrers ?? [])];
    },
    async campaignTotals(range) {
      answer('campaignTotals', range);
      return [...(reports.campaigns ?? [])];
    },
    async entryTotals(range) {
      answer('entryTotals', range);
      return [...(reports.entries ?? [])];
    },
    async funnel(range, split) {
      answer(`funnel:${split}`, range);
      return [...(reports.funnel?.[split] ?? [])];
    },
    async recordVitals() {},
    async vitals(range, minSamples, path) {
      answer(`vitals:${minSamples}${path === undefined ? '' : `:${path}`}`, range);
      return (reports.vitals ?? []).filter((route) => path === undefined || route.path === path);
    },
    async deleteRawBefore() {
      return 0;
    },
    async close() {},
  };
  function answer(report: string, range: DayRange): void {
    if (store.failing) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
    store.asked.push(`${report} ${range.from}..${range.to}`);
  }
  return store;
}
