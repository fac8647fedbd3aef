// The Analytics screen's first view, and the weekly e-mail's figures: the key figures of a range
// against the previous period of the same length, what converts (campaigns with their source, and
// entry pages, ranked by leads the CRM took, then meetings), and one series over the range's days.
// Every number honours the same filter. All of it is read from the summary's roll-ups (see
// SUMMARY_ROLLUPS), so a year over ten million events is a few index ranges.
import type { AnalyticsFilter, AnalyticsSummary, ConversionRow, KeyFigure, KeyFigureName, SeriesPoint } from '../../console/api-types.ts';
import { KEY_FIGURES, SERIES_DAILY_MAX_DAYS } from '../../console/api-types.ts';
import { daysOf } from './analytics-batch.ts';
import type { AnalyticsStore, DayRange, SummaryDay, SummaryFilter } from './analytics-store.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC day `days` days after `day` (before, when negative). */
function shiftDay(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The days of the range in the month that `day` is in. */
function daysOfMonthIn(day: string, range: DayRange): number {
  const start = `${day.slice(0, 7)}-01`;
  const [year, month] = day.split('-').map(Number) as [number, number];
  const end = new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
  return daysOf({ from: start < range.from ? range.from : start, to: end > range.to ? range.to : end }).length;
}

/** The same number of days as `range`, ending the day before it starts. */
export function previousRangeOf(range: DayRange): DayRange {
  const length = daysOf(range).length;
  return { from: shiftDay(range.from, -length), to: shiftDay(range.from, -1) };
}

type Totals = { visitors: number; accepted: number; delivered: number; booked: number };

function totalsOf(days: readonly SummaryDay[]): Totals {
  const totals = { visitors: 0, accepted: 0, delivered: 0, booked: 0 };
  for (const day of days) {
    totals.visitors += day.visitors;
    totals.accepted += day.accepted;
    totals.delivered += day.delivered;
    totals.booked += day.booked;
  }
  return totals;
}

function figureValue(name: KeyFigureName, totals: Totals): number | null {
  if (name === 'visitToLead') return totals.visitors === 0 ? null : totals.accepted / totals.visitors;
  return totals[name];
}

/** A figure with its previous value and the change between them; no change is computed from nothing. */
export function keyFigure(name: KeyFigureName, value: number | null, previous: number | null): KeyFigure {
  const change = value === null || previous === null || previous === 0 ? null : (value - previous) / previous;
  return { name, value, previous, change };
}

/** The filter with only the keys given (an absent key is no filter; '' is one). */
function cleanFilter(filter: AnalyticsFilter): SummaryFilter & AnalyticsFilter {
  const clean: Record<string, string> = {};
  for (const key of ['campaign', 'source', 'page', 'form'] as const) if (filter[key] !== undefined) clean[key] = filter[key];
  return clean;
}

/**
 * Campaigns (with their source) and entry pages in one list, ranked by leads the CRM took, then
 * meetings, leads accepted and visitors; ties campaigns first, then by name.
 */
function rankConversions(rows: ConversionRow[]): ConversionRow[] {
  const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return rows.sort(
    (a, b) =>
      b.delivered - a.delivered ||
      b.booked - a.booked ||
      b.accepted - a.accepted ||
      b.visitors - a.visitors ||
      compareText(a.kind, b.kind) ||
      compareText(a.key, b.key) ||
      compareText(a.source, b.source),
  );
}

/**
 * The summary of `range` under `filter`: key figures against the previous period of the same length,
 * what converts, the days with anything counted (and how many had nothing), and the first day the
 * summary's roll-ups hold. Throws for a range the store refuses.
 */
export async function analyticsSummary(store: AnalyticsStore, range: DayRange, filter: AnalyticsFilter): Promise<AnalyticsSummary> {
  const days = daysOf(range);
  const previousRange = previousRangeOf(range);
  const clean = cleanFilter(filter);
  // A long range is read (and charted) by month: its whole months come from roll-ups a thirtieth the size.
  const grain = days.length > SERIES_DAILY_MAX_DAYS ? 'month' : 'day';
  const read = (which: DayRange) => (grain === 'day' ? store.summaryDays(which, clean) : store.summaryMonths(which, clean));
  const [current, previous, conversions, countedFrom] = await Promise.all([
    read(range),
    read(previousRange),
    store.conversions(range, clean),
    store.summaryCountedFrom(),
  ]);
  const now = totalsOf(current);
  const before = totalsOf(previous);
  const series: SeriesPoint[] = current.map(({ day, visitors, accepted, delivered, booked }) => ({
    day,
    visitors,
    accepted,
    delivered,
    booked,
  }));
  return {
    range: { from: range.from, to: range.to },
    previousRange,
    filter: clean,
    figures: KEY_FIGURES.map((name) => keyFigure(name, figureValue(name, now), figureValue(name, before))),
    conversions: rankConversions([
      ...conversions.campaigns.map((row) => ({
        kind: 'campaign' as const,
        key: row.campaign,
        source: row.source,
        visitors: row.visitors,
        accepted: row.accepted,
        delivered: row.delivered,
        booked: row.booked,
      })),
      ...conversions.entries.map((row) => ({
        kind: 'entry' as const,
        key: row.entryPath,
        source: '',
        visitors: row.visitors,
        accepted: row.accepted,
        delivered: row.delivered,
        booked: row.booked,
      })),
    ]),
    series,
    seriesGrain: grain,
    emptyDays: days.length - (grain === 'day' ? series.length : series.reduce((sum, point) => sum + daysOfMonthIn(point.day, range), 0)),
    countedFrom,
  };
}
