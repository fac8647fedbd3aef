// The visit reports: GET /analytics (every report for a span of UTC days, as JSON),
// GET /analytics/summary (key figures, what converts and one series, under a filter),
// GET /analytics/export (one report as a CSV download) and GET /analytics/vitals (field speed per
// page from visitors' browsers). They hold counts only, no person, so every
// role may read them. The store is the analytics service's (`app.analytics.store`); when it fails,
// the reports say so with a 503 instead of an empty page that would read as "no visits".
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  ANALYTICS_EXPORTS,
  FORM_NAMES,
  FUNNEL_STEP_NAMES,
  SPLIT_EMPTY_NAMES,
  type AnalyticsExport,
  type AnalyticsFilter,
  type AnalyticsReport,
  type AnalyticsSplit,
  VITAL_THRESHOLDS,
  type VitalFigure,
  type VitalsReport,
} from '../../../console/api-types.ts';
import { PAGE_PATH_MAX_LENGTH } from '../../../lead/beacon-event.ts';
import {
  FUNNEL_SPLITS,
  FUNNEL_STEPS,
  type AnalyticsStore,
  type DayRange,
  type FunnelRow,
  type VitalFigures,
} from '../../analytics/analytics-store.ts';
import { analyticsSummary } from '../../analytics/summary.ts';
import { LEAD_FORM_IDS } from '../../../lead/rules.ts';
import { toCsvCell } from '../../leads/lead-export.ts';
import { apiError } from '../api-errors.ts';
import type { ConsoleContext } from '../context.ts';
import { day, optional } from '../lead-view.ts';
import { consoleText, type ConsoleRoutes } from '../request-checks.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The range shown when none is asked for: the 30 UTC days ending today. */
export const DEFAULT_RANGE_DAYS = 30;
/** About ten years: the roll-ups are kept for ever, but a longer range is a mistyped year. */
export const MAX_RANGE_DAYS = 3_700;
const UNAVAILABLE_MESSAGE = 'The visit reports are briefly unavailable: try again in a moment.';
const UNAVAILABLE_RETRY_SECONDS = 2;

/** The UTC day `days` days after `from` (before, when negative). */
export function addDays(from: string, days: number): string {
  return new Date(Date.parse(`${from}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Days from `from` to `to`, both included. */
function daysIn(range: DayRange): number {
  return Math.round((Date.parse(`${range.to}T00:00:00Z`) - Date.parse(`${range.from}T00:00:00Z`)) / DAY_MS) + 1;
}

/** The range a query names: `to` defaults to today, `from` to the 30 days ending at `to`. */
function rangeOf(query: { from?: string | undefined; to?: string | undefined }, today: string): DayRange {
  const to = query.to ?? today;
  return { from: query.from ?? addDays(to, 1 - DEFAULT_RANGE_DAYS), to };
}

const rangeShape = { from: optional(day), to: optional(day), split: optional(z.enum(FUNNEL_SPLITS)) };
type RangeQuery = { from?: string | undefined; to?: string | undefined; split?: AnalyticsSplit | undefined };

/**
 * Checks a query's range against today: `from` on or before `to`, at most MAX_RANGE_DAYS days, and
 * `to` at most tomorrow (a reader east of UTC is already there; later days hold nothing yet).
 */
function checkRange(today: () => string) {
  return (query: RangeQuery, context: z.RefinementCtx) => {
    // zod runs this even after a day failed its own check; such a day is refused already.
    if (![query.from, query.to].every((value) => value === undefined || Number.isFinite(Date.parse(`${value}T00:00:00Z`)))) return;
    const now = today();
    const range = rangeOf(query, now);
    const latest = addDays(now, 1);
    if (range.to > latest)
      context.addIssue({ code: 'custom', path: ['to'], message: `Must be ${latest} or earlier: no visits are counted after that yet.` });
    else if (range.from > range.to)
      context.addIssue({
        code: 'custom',
        path: [query.to === undefined ? 'from' : 'to'],
        message: query.to === undefined ? `Must be ${now} or earlier, or give "to" too.` : 'Must be on or after "from".',
      });
    else if (daysIn(range) > MAX_RANGE_DAYS)
      context.addIssue({
        code: 'custom',
        path: ['from'],
        message: `The range must span at most ${MAX_RANGE_DAYS.toLocaleString('en')} days.`,
      });
  };
}

/** The query with its range worked out (defaults filled in) and its split (none by default). */
function resolveRange(today: () => string) {
  return <Query extends RangeQuery>({ from, to, split, ...rest }: Query) => ({
    ...rest,
    range: rangeOf({ from, to }, today()),
    split: split ?? ('none' as AnalyticsSplit),
  });
}

/** A funnel row's rate of a step from its first (page views), or undefined when nothing was viewed. */
export function stepRate(row: FunnelRow, step: (typeof FUNNEL_STEPS)[number]): number | undefined {
  return row.viewed === 0 ? undefined : row[step] / row.viewed;
}

/**
 * Page loads a page needs in the range before its field speed is shown. With fewer, the 75th
 * percentile is one of the last few values, so one slow phone or connection decides it; from 30, at
 * least seven page loads lie above it, and a small site's main pages still reach 30 within weeks.
 */
export const VITALS_MIN_SAMPLES = 30;

/** A metric's rating by Google's thresholds: at or under the first good, above the second poor. */
export function ratingOf({ metric, p75 }: Pick<VitalFigures, 'metric' | 'p75'>): VitalFigure['rating'] {
  const [good, poor] = VITAL_THRESHOLDS[metric];
  return p75 <= good ? 'good' : p75 <= poor ? 'needs-improvement' : 'poor';
}

/** A page of the site as the reports name it: "/" or "/about", as the beacons send it. */
const pagePath = z
  .string()
  .max(PAGE_PATH_MAX_LENGTH, 'Must be a page of the site, such as /about.')
  .regex(/^\/(?:[a-z0-9-]+(?:\/[a-z0-9-]+)*)?$/, 'Must be a page of the site, such as /about.');

const SPLIT_COLUMNS: Readonly<Record<AnalyticsSplit, string>> = { none: '', campaign: 'Campaign', source: 'Source', entry: 'Entry page' };
const NO_REFERRER = '(no referring site)';

type Csv = { columns: readonly string[]; rows: readonly (readonly unknown[])[] };

/** A share as a percentage with one decimal, as a spreadsheet and a person both read it. */
function percent(rate: number | undefined): string {
  return rate === undefined ? '' : `${(rate * 100).toFixed(1)}%`;
}

async function csvOf(store: AnalyticsStore, report: AnalyticsExport, range: DayRange, split: AnalyticsSplit): Promise<Csv> {
  switch (report) {
    case 'days':
      return {
        columns: ['Day (UTC)', 'Visitors', 'Page views', 'Booking clicks'],
        rows: (await store.dayTotals(range)).map((row) => [row.day, row.visitors, row.pageviews, row.bookingClicks]),
      };
    case 'pages':
      return {
        columns: ['Page', 'Visitors', 'Page views', 'Booking clicks'],
        rows: (await store.pageTotals(range)).map((row) => [row.path, row.visitors, row.pageviews, row.bookingClicks]),
      };
    case 'referrers':
      return {
        columns: ['Referring site', 'Visitors'],
        rows: (await store.referrerTotals(range)).map((row) => [row.host || NO_REFERRER, row.visitors]),
      };
    case 'campaigns':
      return {
        columns: ['Source', 'Medium', 'Campaign', 'Ad click', 'Visitors'],
        rows: (await store.campaignTotals(range)).map((row) => [row.source, row.medium, row.name, row.click, row.visitors]),
      };
    case 'entry-pages':
      return { columns: ['Entry page', 'Visitors'], rows: (await store.entryTotals(range)).map((row) => [row.path, row.visitors]) };
    case 'funnel': {
      const steps = FUNNEL_STEPS.map((step) => FUNNEL_STEP_NAMES[step]);
      const rated = FUNNEL_STEPS.slice(1);
      return {
        columns: [
          'Form',
          ...(split === 'none' ? [] : [SPLIT_COLUMNS[split]]),
          ...steps,
          ...rated.map((step) => `${FUNNEL_STEP_NAMES[step]} (% of page views)`),
        ],
        rows: (await store.funnel(range, split)).map((row) => [
          FORM_NAMES[row.form],
          ...(split === 'none' ? [] : [row.key || SPLIT_EMPTY_NAMES[split]]),
          ...FUNNEL_STEPS.map((step) => row[step]),
          ...rated.map((step) => percent(stepRate(row, step))),
        ]),
      };
    }
  }
}

function csvText({ columns, rows }: Csv): string {
  return [columns, ...rows].map((cells) => `${cells.map(toCsvCell).join(',')}\r\n`).join('');
}

/**
 * Runs a read of the analytics store; a store that fails (its database down) is answered 503, logged, so the page says "try again" rather than showing no visits.
 */
async function fromStore<T>(request: FastifyRequest, reply: FastifyReply, read: (store: AnalyticsStore) => Promise<T>) {
  try {
    return { value: await read(request.server.analytics.store) };
  } catch (error) {
    request.log.error({ err: error }, 'analytics store failed to answer a report');
    return { answered: apiError(reply, 503, 'unavailable', UNAVAILABLE_MESSAGE, { retryAfterSeconds: UNAVAILABLE_RETRY_SECONDS }) };
  }
}

export const analyticsRoutes: ConsoleRoutes<{ context: ConsoleContext }> = async (app, { context }) => {
  const today = () => new Date(context.now()).toISOString().slice(0, 10);
  const listQuery = z.strictObject(rangeShape).superRefine(checkRange(today)).transform(resolveRange(today));
  const exportQuery = z
    .strictObject({ ...rangeShape, report: z.enum(ANALYTICS_EXPORTS) })
    .superRefine(checkRange(today))
    .transform(resolveRange(today));

  app.get('/analytics', { config: { right: 'analytics:read' }, schema: { querystring: listQuery } }, async (request, reply) => {
    const { range, split } = request.query;
    const read = await fromStore(request, reply, async (store): Promise<AnalyticsReport> => {
      const [days, pages, referrers, campaigns, entryPages, funnel, splitFunnel] = await Promise.all([
        store.dayTotals(range),
        store.pageTotals(range),
        store.referrerTotals(range),
        store.campaignTotals(range),
        store.entryTotals(range),
        store.funnel(range, 'none'),
        split === 'none' ? undefined : store.funnel(range, split),
      ]);
      return { range, split, days, pages, referrers, campaigns, entryPages, funnel, splitFunnel: splitFunnel ?? funnel };
    });
    return 'answered' in read ? read.answered : read.value;
  });

  // The summary's filters: '' is a real value (no campaign, direct, no entry page known), so an
  // empty parameter is kept, not dropped; only a parameter left out is no filter.
  const summaryQuery = z
    .strictObject({
      from: optional(day),
      to: optional(day),
      campaign: consoleText(500).optional(),
      source: consoleText(500).optional(),
      page: consoleText(2_000)
        .refine((value) => value === '' || value.startsWith('/'), 'Must be a page of the site, starting with "/", or empty for no page.')
        .optional(),
      form: z.enum(LEAD_FORM_IDS, { message: `Must be one of the site's forms: ${LEAD_FORM_IDS.join(', ')}.` }).optional(),
    })
    .superRefine(checkRange(today))
    .transform(resolveRange(today));

  app.get('/analytics/summary', { config: { right: 'analytics:read' }, schema: { querystring: summaryQuery } }, async (request, reply) => {
    const { range, campaign, source, page, form } = request.query;
    const filter: AnalyticsFilter = {
      ...(campaign === undefined ? {} : { campaign }),
      ...(source === undefined ? {} : { source }),
      ...(page === undefined ? {} : { page }),
      ...(form === undefined ? {} : { form }),
    };
    const read = await fromStore(request, reply, (store) => analyticsSummary(store, range, filter));
    return 'answered' in read ? read.answered : read.value;
  });

  const vitalsQuery = z
    .strictObject({ from: optional(day), to: optional(day), page: optional(pagePath) })
    .superRefine(checkRange(today))
    .transform(({ from, to, page }) => ({ range: rangeOf({ from, to }, today()), page }));

  app.get('/analytics/vitals', { config: { right: 'analytics:read' }, schema: { querystring: vitalsQuery } }, async (request, reply) => {
    const { range, page } = request.query;
    const read = await fromStore(request, reply, async (store): Promise<VitalsReport> => ({
      minSamples: VITALS_MIN_SAMPLES,
      routes: (await store.vitals(range, VITALS_MIN_SAMPLES, page)).map((route) => ({
        path: route.path,
        measured: route.measured,
        figures: route.figures.map((figure) => ({ ...figure, rating: ratingOf(figure) })),
      })),
    }));
    return 'answered' in read ? read.answered : read.value;
  });

  app.get('/analytics/export', { config: { right: 'analytics:read' }, schema: { querystring: exportQuery } }, async (request, reply) => {
    const { range, split, report } = request.query;
    const read = await fromStore(request, reply, (store) => csvOf(store, report, range, split));
    if ('answered' in read) return read.answered;
    const name = `analytics-${report}${report === 'funnel' && split !== 'none' ? `-by-${split}` : ''}-${range.from}-to-${range.to}.csv`;
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${name}"`)
      .send(csvText(read.value));
  });
};
