// What both analytics stores share: checking a report's days, turning a batch of events into the
// rows it writes, and turning what the database said was new (a visit, a page of a visit, a funnel
// step of a visit) into roll-up increments, summed per roll-up row so each row is written once per
// batch. The database decides what is new, so two servers counting the same visit at once still
// count it once; this module only plans and sums.
import type { AcceptedLead, DayRange, FunnelSplit, FunnelStep, VisitEvent } from './analytics-store.ts';
import { FUNNEL_STEPS } from './analytics-store.ts';
import { saltDay } from './visit-hash.ts';

/** The longest range a report sums: ten years of days, so a typo cannot ask for a thousand years. */
export const MAX_RANGE_DAYS = 3_700;

const DAY_MS = 24 * 60 * 60 * 1000;
const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** Throws unless `day` is a real calendar day written "2026-11-27". */
export function assertDay(day: string, what = 'A day'): void {
  if (typeof day !== 'string' || !DAY_PATTERN.test(day) || saltDay(Date.parse(`${day}T00:00:00Z`) || 0) !== day) {
    throw new Error(`${what} is a day written YYYY-MM-DD, not "${String(day)}"`);
  }
}

/** The days of a range, oldest first; throws for a malformed, backwards or too long range. */
export function daysOf(range: DayRange): string[] {
  assertDay(range.from, 'The first day of the range');
  assertDay(range.to, 'The last day of the range');
  if (range.from > range.to) throw new Error(`The range starts (${range.from}) after it ends (${range.to})`);
  const first = Date.parse(`${range.from}T00:00:00Z`);
  const count = (Date.parse(`${range.to}T00:00:00Z`) - first) / DAY_MS + 1;
  if (count > MAX_RANGE_DAYS) throw new Error(`A report covers at most ${MAX_RANGE_DAYS} days; this range has ${count}`);
  return Array.from({ length: count }, (_, index) => saltDay(first + index * DAY_MS));
}

/** Where a visit came from, as its first event of the day said; '' for "not given". */
export type Attribution = {
  readonly entryPath: string;
  readonly referrerHost: string;
  readonly source: string;
  readonly medium: string;
  readonly campaign: string;
  readonly term: string;
  readonly content: string;
  readonly click: string;
};

/**
 * A visit row made by an accepted lead before any beacon of the visit arrived (its entry path is '';
 * an event's path always begins with '/'). A lead is sent seconds after the page view that showed
 * its form, but a beacon may wait in a server's queue longer than the lead takes: when it arrives,
 * the visit takes the beacon's attribution and is counted as a visit then, and the steps it already
 * reached move to that attribution.
 */
export const AWAITING_BEACON_ENTRY_PATH = '';

/** A visit whose beacons never came (its lead was accepted all the same): no entry page, no attribution. */
export const UNKNOWN_ATTRIBUTION: Attribution = {
  entryPath: AWAITING_BEACON_ENTRY_PATH,
  referrerHost: '',
  source: '',
  medium: '',
  campaign: '',
  term: '',
  content: '',
  click: '',
};

/** The attribution columns of the visits, source and form roll-up tables, in this order. */
export const ATTRIBUTION_COLUMNS = ['entry_path', 'referrer_host', 'source', 'medium', 'campaign', 'term', 'content', 'click'] as const;

export function attributionValues(attribution: Attribution): string[] {
  return [
    attribution.entryPath,
    attribution.referrerHost,
    attribution.source,
    attribution.medium,
    attribution.campaign,
    attribution.term,
    attribution.content,
    attribution.click,
  ];
}

export function attributionOf(row: Record<string, unknown>): Attribution {
  const text = (column: string) => String(row[column] ?? '');
  return {
    entryPath: text('entry_path'),
    referrerHost: text('referrer_host'),
    source: text('source'),
    medium: text('medium'),
    campaign: text('campaign'),
    term: text('term'),
    content: text('content'),
    click: text('click'),
  };
}

/** The steps bitmask of a visit's form: one bit per funnel step, in FUNNEL_STEPS order. */
export function stepBit(step: FunnelStep): number {
  return 1 << FUNNEL_STEPS.indexOf(step);
}

/** Map keys for (day, visit) and friends: the parts cannot contain a newline. */
export function keyOf(...parts: string[]): string {
  return parts.join('\n');
}

export type VisitKey = { readonly day: string; readonly visit: string };
export type NewVisit = VisitKey & { readonly attribution: Attribution; readonly firstAt: number };
export type VisitPage = VisitKey & { readonly path: string };
export type VisitFormSteps = VisitKey & { readonly form: string; readonly steps: number };
export type RawEvent = VisitKey & { readonly at: number; readonly type: string; readonly path: string; readonly form: string };

/** What a batch writes, before the database says which of it is new. Every list is sorted by its key. */
export type BatchPlan = {
  readonly events: readonly RawEvent[];
  /** Each visit of the batch, with the attribution its first event in the batch would give it. */
  readonly visits: readonly NewVisit[];
  /** Each page a visit viewed in the batch, once. */
  readonly pages: readonly VisitPage[];
  /** The steps each visit reached on each form in the batch. */
  readonly formSteps: readonly VisitFormSteps[];
  /** Page views and booking clicks per day and page: counted on every event, new visit or not. */
  readonly pageCounts: readonly { day: string; path: string; pageviews: number; bookingClicks: number }[];
};

function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sortedValues<T>(map: Map<string, T>): T[] {
  return [...map.entries()].sort(([a], [b]) => compareKeys(a, b)).map(([, value]) => value);
}

/**
 * Plans a batch. Events are taken in time order (the order they arrived for equal times), so a
 * visit's earliest event in the batch names its attribution. The lists are sorted by key so that
 * every transaction locks rows in the same order and two concurrent batches cannot deadlock.
 */
export function planBatch(batch: readonly VisitEvent[]): BatchPlan {
  const ordered = batch.map((event, index) => ({ event, index })).sort((a, b) => a.event.at - b.event.at || a.index - b.index);
  const events: RawEvent[] = [];
  const visits = new Map<string, NewVisit>();
  const pages = new Map<string, VisitPage>();
  const formSteps = new Map<string, { day: string; visit: string; form: string; steps: number }>();
  const pageCounts = new Map<string, { day: string; path: string; pageviews: number; bookingClicks: number }>();
  const addSteps = (day: string, visit: string, form: string, bit: number) => {
    const key = keyOf(day, visit, form);
    const found = formSteps.get(key);
    if (found) found.steps |= bit;
    else formSteps.set(key, { day, visit, form, steps: bit });
  };

  for (const { event } of ordered) {
    const day = saltDay(event.at);
    const form = event.form ?? '';
    events.push({ day, visit: event.visit, at: event.at, type: event.type, path: event.path, form });
    const visitKey = keyOf(day, event.visit);
    if (!visits.has(visitKey)) {
      const pageview = event.type === 'pageview';
      visits.set(visitKey, {
        day,
        visit: event.visit,
        firstAt: event.at,
        attribution: {
          entryPath: event.path,
          referrerHost: pageview ? (event.referrerHost ?? '') : '',
          source: pageview ? (event.campaign?.source ?? '') : '',
          medium: pageview ? (event.campaign?.medium ?? '') : '',
          campaign: pageview ? (event.campaign?.name ?? '') : '',
          term: pageview ? (event.campaign?.term ?? '') : '',
          content: pageview ? (event.campaign?.content ?? '') : '',
          click: pageview ? (event.click ?? '') : '',
        },
      });
    }
    const countsOfPage = () => {
      const countKey = keyOf(day, event.path);
      let counts = pageCounts.get(countKey);
      if (counts === undefined) {
        counts = { day, path: event.path, pageviews: 0, bookingClicks: 0 };
        pageCounts.set(countKey, counts);
      }
      return counts;
    };
    if (event.type === 'pageview') {
      countsOfPage().pageviews += 1;
      pages.set(keyOf(day, event.visit, event.path), { day, visit: event.visit, path: event.path });
      for (const shown of event.forms ?? []) addSteps(day, event.visit, shown, stepBit('viewed'));
    } else if (event.type === 'booking_click') {
      countsOfPage().bookingClicks += 1;
    } else if (event.type === 'form_start' && event.form !== undefined) {
      addSteps(day, event.visit, event.form, stepBit('started'));
    } else if (event.type === 'form_submit' && event.form !== undefined) {
      addSteps(day, event.visit, event.form, stepBit('submitted'));
    }
  }

  return {
    events,
    visits: sortedValues(visits),
    pages: sortedValues(pages),
    formSteps: sortedValues(formSteps),
    pageCounts: sortedValues(pageCounts),
  };
}

export type PageDayIncrement = { day: string; path: string; pageviews: number; visitors: number; bookingClicks: number };
export type SourceDayIncrement = { day: string; attribution: Attribution; visits: number };
export type FormDayIncrement = { day: string; form: string; attribution: Attribution } & Record<FunnelStep, number>;

export type RollupIncrements = {
  readonly pageDays: readonly PageDayIncrement[];
  readonly sourceDays: readonly SourceDayIncrement[];
  readonly formDays: readonly FormDayIncrement[];
};

/**
 * The roll-up increments of what turned out to be new, one per roll-up row, sorted by key.
 * `attributions` holds every visit of the batch as stored (the first writer's, which may be another
 * server's); a step is counted under its visit's stored attribution. `movedSteps` are steps counted
 * earlier under no attribution, for a visit whose first beacon has only now arrived (see
 * AWAITING_BEACON_ENTRY_PATH): they move to the attribution that beacon gave it.
 */
export function rollupIncrements({
  pageCounts = [],
  newVisits = [],
  newPages = [],
  newSteps = [],
  movedSteps = [],
  attributions,
}: {
  pageCounts?: BatchPlan['pageCounts'];
  newVisits?: readonly VisitKey[];
  newPages?: readonly VisitPage[];
  newSteps?: readonly VisitFormSteps[];
  movedSteps?: readonly VisitFormSteps[];
  attributions: ReadonlyMap<string, Attribution>;
}): RollupIncrements {
  const attributionOfVisit = (day: string, visit: string) => attributions.get(keyOf(day, visit)) ?? UNKNOWN_ATTRIBUTION;
  const pageDays = new Map<string, PageDayIncrement>();
  for (const { day, path, pageviews, bookingClicks } of pageCounts) {
    pageDays.set(keyOf(day, path), { day, path, pageviews, bookingClicks, visitors: 0 });
  }
  for (const { day, path } of newPages) {
    const key = keyOf(day, path);
    const found = pageDays.get(key);
    if (found) found.visitors += 1;
    else pageDays.set(key, { day, path, pageviews: 0, bookingClicks: 0, visitors: 1 });
  }

  const sourceDays = new Map<string, SourceDayIncrement>();
  for (const { day, visit } of newVisits) {
    const attribution = attributionOfVisit(day, visit);
    const key = keyOf(day, ...attributionValues(attribution));
    const found = sourceDays.get(key);
    if (found) found.visits += 1;
    else sourceDays.set(key, { day, attribution, visits: 1 });
  }

  const formDays = new Map<string, FormDayIncrement>();
  const addFormSteps = (day: string, form: string, attribution: Attribution, steps: number, by: number) => {
    const key = keyOf(day, form, ...attributionValues(attribution));
    let found = formDays.get(key);
    if (found === undefined) {
      found = { day, form, attribution, viewed: 0, started: 0, submitted: 0, accepted: 0, delivered: 0 };
      formDays.set(key, found);
    }
    for (const step of FUNNEL_STEPS) if (steps & stepBit(step)) found[step] += by;
  };
  for (const { day, visit, form, steps } of newSteps) addFormSteps(day, form, attributionOfVisit(day, visit), steps, 1);
  for (const { day, visit, form, steps } of movedSteps) {
    addFormSteps(day, form, UNKNOWN_ATTRIBUTION, steps, -1);
    addFormSteps(day, form, attributionOfVisit(day, visit), steps, 1);
  }

  return { pageDays: sortedValues(pageDays), sourceDays: sortedValues(sourceDays), formDays: sortedValues(formDays) };
}

/** The visit row an accepted lead makes when the visit's beacons have not come (yet). */
export function visitOfLead(lead: AcceptedLead): NewVisit {
  return { day: saltDay(lead.at), visit: lead.visit, firstAt: lead.at, attribution: UNKNOWN_ATTRIBUTION };
}

/** What a funnel row is keyed by under each split: one SQL expression over the form roll-up's columns. */
export const FUNNEL_KEY_SQL: Record<FunnelSplit, string> = {
  none: `''`,
  campaign: 'campaign',
  source: `CASE WHEN source <> '' THEN source ELSE referrer_host END`,
  entry: 'entry_path',
};
