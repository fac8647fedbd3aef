import type { AnalyticsSummary, ConversionRow, KeyFigure, KeyFigureName } from '../../console/api-types.ts';
import type { AnalyticsStore, DayRange, FunnelRow } from '../analytics/analytics-store.ts';

// The weekly summary's analytics: the key figures of a range against the previous period of the same
// length, and what converted (campaigns and entry pages ranked by leads the CRM took, then meetings),
// in the shapes the Analytics screen shows, so the e-mail and the screen say the same. Read from the
// analytics store's reports (day totals, the funnel split by campaign and by entry page), which sum
// roll-ups and never scan events.

const DAY_MS = 24 * 60 * 60 * 1000;

export type WeeklyAnalytics = Pick<AnalyticsSummary, 'range' | 'previousRange' | 'figures' | 'conversions'>;

/** The same number of days as `range`, ending the day before it starts. */
export function previousRangeOf(range: DayRange): DayRange {
  const from = Date.parse(`${range.from}T00:00:00Z`);
  const days = Math.round((Date.parse(`${range.to}T00:00:00Z`) - from) / DAY_MS) + 1;
  const day = (at: number) => new Date(at).toISOString().slice(0, 10);
  return { from: day(from - days * DAY_MS), to: day(from - DAY_MS) };
}

type Totals = { visitors: number; accepted: number; delivered: number; booked: number };

/** A funnel row's meetings: its "booked" step where the store counts one, else none. */
function bookedOf(row: FunnelRow): number {
  return Number((row as Partial<Record<'booked', number>>).booked ?? 0);
}

async function totalsOf(store: AnalyticsStore, range: DayRange): Promise<Totals> {
  const [days, funnel] = await Promise.all([store.dayTotals(range), store.funnel(range, 'none')]);
  const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
  return {
    visitors: sum(days.map((day) => day.visitors)),
    accepted: sum(funnel.map((row) => row.accepted)),
    delivered: sum(funnel.map((row) => row.delivered)),
    booked: sum(funnel.map(bookedOf)),
  };
}

function figure(name: KeyFigureName, value: number | null, previous: number | null): KeyFigure {
  const change = value === null || previous === null || previous === 0 ? null : (value - previous) / previous;
  return { name, value, previous, change };
}

const rate = (totals: Totals) => (totals.visitors === 0 ? null : totals.accepted / totals.visitors);

/** One row per campaign or entry page, its forms summed, ranked by leads the CRM took, then meetings, leads and visitors. */
function conversionsOf(
  kind: ConversionRow['kind'],
  funnel: readonly FunnelRow[],
  visitors: ReadonlyMap<string, number>,
  sources: ReadonlyMap<string, string>,
): ConversionRow[] {
  const rows = new Map<string, ConversionRow>();
  for (const row of funnel) {
    const current = rows.get(row.key) ?? {
      kind,
      key: row.key,
      source: sources.get(row.key) ?? '',
      visitors: visitors.get(row.key) ?? 0,
      accepted: 0,
      delivered: 0,
      booked: 0,
    };
    rows.set(row.key, {
      ...current,
      accepted: current.accepted + row.accepted,
      delivered: current.delivered + row.delivered,
      booked: current.booked + bookedOf(row),
    });
  }
  return [...rows.values()]
    .filter((row) => row.accepted + row.delivered + row.booked > 0)
    .sort(
      (a, b) =>
        b.delivered - a.delivered ||
        b.booked - a.booked ||
        b.accepted - a.accepted ||
        b.visitors - a.visitors ||
        (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
    );
}

/** The key figures of `range` against the period before it, and what converted in `range`. */
export async function weeklyAnalytics(store: AnalyticsStore, range: DayRange): Promise<WeeklyAnalytics> {
  const previousRange = previousRangeOf(range);
  const [now, before, byCampaign, byEntry, campaigns, entries] = await Promise.all([
    totalsOf(store, range),
    totalsOf(store, previousRange),
    store.funnel(range, 'campaign'),
    store.funnel(range, 'entry'),
    store.campaignTotals(range),
    store.entryTotals(range),
  ]);
  // A campaign's visitors summed over its sources and ad clicks; its source is the one most of them came from.
  const campaignVisitors = new Map<string, number>();
  const campaignSource = new Map<string, string>();
  for (const row of campaigns) {
    campaignVisitors.set(row.name, (campaignVisitors.get(row.name) ?? 0) + row.visitors);
    if (!campaignSource.has(row.name)) campaignSource.set(row.name, row.source);
  }
  const entryVisitors = new Map(entries.map((row) => [row.path, row.visitors]));
  return {
    range,
    previousRange,
    figures: [
      figure('visitors', now.visitors, before.visitors),
      figure('accepted', now.accepted, before.accepted),
      figure('delivered', now.delivered, before.delivered),
      figure('booked', now.booked, before.booked),
      figure('visitToLead', rate(now), rate(before)),
    ],
    conversions: [
      ...conversionsOf('campaign', byCampaign, campaignVisitors, campaignSource),
      ...conversionsOf('entry', byEntry, entryVisitors, new Map()),
    ],
  };
}
