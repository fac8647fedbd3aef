// What both analytics stores share: checking a report's days, turning a batch of events into the
// rows it writes, and turning what the database said was new (a visit, a page of a visit, a funnel
// step of a visit) into roll-up increments, summed per roll-up row so each row is written once per
// batch. The database decides what is new, so two servers counting the same visit at once still
// count it once; this module only plans and sums.
import type { CountedLead, DayRange, FunnelSplit, FunnelStep, LeadKeys, VisitEvent } from './analytics-store.ts';
import { FUNNEL_SPLITS, FUNNEL_STEPS } from './analytics-store.ts';
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

/** Throws unless `at` is a moment (ms since 1970) a day can be told from. */
export function assertMoment(at: number): void {
  if (typeof at !== 'number' || !Number.isFinite(at) || Number.isNaN(new Date(at).getTime())) {
    throw new Error(`A moment is a number of milliseconds since 1970, not ${String(at)}`);
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
 * an event's path always begins with '/'), as servers before analytics migration 2 made them: when
 * its first beacon arrives, the visit takes the beacon's attribution and is counted as a visit then,
 * and the steps it already reached move to that attribution. Leads no longer make visit rows (they
 * are counted under their own keys), so only rows from before that migration are still waiting.
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

/** The attribution columns of the visits table, in this order (term and content are kept there, not rolled up). */
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

  for (const event of batch) assertMoment(event.at);
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

/** What the summary's roll-ups count: visits (on rows with form ''), visits that viewed a form, and a form's leads' steps. */
export const SUMMARY_COUNTS = ['visits', 'viewed', 'accepted', 'delivered', 'booked'] as const;
export type SummaryCount = (typeof SUMMARY_COUNTS)[number];

/** The keys a summary can filter or group by, besides the day and the form every summary roll-up has. */
export type SummaryKey = 'source' | 'campaign' | 'entry_path';

/**
 * The summary's roll-ups: the same counts keyed by day and form and by more or fewer of the keys a
 * visit or lead came with, so any filter reads the smallest table that still holds the keys it
 * names (every filter is a day range of one table, never a scan of raw rows). A visit is counted on
 * its row with form '' and, per form it viewed, as "viewed" on that form's row; a lead's steps on
 * its form's row. `source` is the funnel's: utm_source, else the referring site. Each has a twin by
 * month (its `day` column holds "2026-11"), so a long range sums its whole months from a table about
 * thirty times smaller and only the days at its ends from the daily one.
 */
export const SUMMARY_ROLLUPS = {
  summaryForm: { table: 'analytics_summary_form_days', keys: ['day', 'form'], counts: SUMMARY_COUNTS },
  summaryCampaign: { table: 'analytics_summary_campaign_days', keys: ['day', 'form', 'source', 'campaign'], counts: SUMMARY_COUNTS },
  summaryEntry: { table: 'analytics_summary_entry_days', keys: ['day', 'form', 'entry_path'], counts: SUMMARY_COUNTS },
  summaryAll: {
    table: 'analytics_summary_days',
    keys: ['day', 'form', 'source', 'campaign', 'entry_path'],
    counts: SUMMARY_COUNTS,
  },
  summaryFormMonths: { table: 'analytics_summary_form_months', keys: ['day', 'form'], counts: SUMMARY_COUNTS },
  summaryCampaignMonths: {
    table: 'analytics_summary_campaign_months',
    keys: ['day', 'form', 'source', 'campaign'],
    counts: SUMMARY_COUNTS,
  },
  summaryEntryMonths: { table: 'analytics_summary_entry_months', keys: ['day', 'form', 'entry_path'], counts: SUMMARY_COUNTS },
  summaryAllMonths: {
    table: 'analytics_summary_months',
    keys: ['day', 'form', 'source', 'campaign', 'entry_path'],
    counts: SUMMARY_COUNTS,
  },
} as const satisfies Record<string, { table: string; keys: readonly string[]; counts: readonly string[] }>;
export type SummaryRollupName = keyof typeof SUMMARY_ROLLUPS;
const SUMMARY_ROLLUP_NAMES = Object.keys(SUMMARY_ROLLUPS) as SummaryRollupName[];
/** The daily roll-ups, smallest first; each has its twin by month, named with "Months". */
const SUMMARY_DAY_ROLLUPS = ['summaryForm', 'summaryCampaign', 'summaryEntry', 'summaryAll'] as const;
export type SummaryGrain = 'day' | 'month';

/** The smallest summary roll-up of a grain that holds every key named. */
export function summaryRollupFor(keys: ReadonlySet<SummaryKey>, grain: SummaryGrain = 'day'): SummaryRollupName {
  const holds = (name: SummaryRollupName) => [...keys].every((key) => (SUMMARY_ROLLUPS[name].keys as readonly string[]).includes(key));
  const name = SUMMARY_DAY_ROLLUPS.find(holds) ?? 'summaryAll';
  return grain === 'day' ? name : (`${name}Months` as SummaryRollupName);
}

/** Where a visit or lead is counted in the summary's roll-ups: its source, campaign and entry page. */
type SummaryPlace = { readonly source: string; readonly campaign: string; readonly entryPath: string };

function summaryKeys(name: SummaryRollupName, day: string, form: string, place: SummaryPlace): string[] {
  const period = name.endsWith('Months') ? day.slice(0, 7) : day;
  const values: Record<string, string> = { day: period, form, source: place.source, campaign: place.campaign, entry_path: place.entryPath };
  return SUMMARY_ROLLUPS[name].keys.map((key) => values[key] ?? '');
}

/**
 * The roll-up tables, each keyed by its first columns and summing the others. Each report reads one
 * of them, so a report sums rows of one or two dimensions: a year of visits from a thousand
 * different places is a few hundred thousand rows of (day, referrer), not one row per visit.
 * A visit is counted in the entry, referrer and campaign roll-ups, and its funnel steps once per
 * split, under that split's key. Every transaction writes them in this order.
 */
export const ROLLUPS = {
  page: { table: 'analytics_page_days', keys: ['day', 'path'], counts: ['pageviews', 'visitors', 'booking_clicks'] },
  entry: { table: 'analytics_entry_days', keys: ['day', 'entry_path'], counts: ['visits'] },
  referrer: { table: 'analytics_referrer_days', keys: ['day', 'referrer_host'], counts: ['visits'] },
  campaign: { table: 'analytics_campaign_days', keys: ['day', 'source', 'medium', 'campaign', 'click'], counts: ['visits'] },
  funnel: { table: 'analytics_funnel_days', keys: ['split', 'day', 'form', 'key'], counts: [...FUNNEL_STEPS] },
  ...SUMMARY_ROLLUPS,
} as const satisfies Record<string, { table: string; keys: readonly string[]; counts: readonly string[] }>;

export type RollupName = keyof typeof ROLLUPS;
export const ROLLUP_NAMES = Object.keys(ROLLUPS) as RollupName[];

/** One roll-up row's key (in its table's key order) and what to add to each count. */
export type RollupRow = { readonly keys: readonly string[]; readonly counts: readonly number[] };
export type RollupIncrements = Readonly<Record<RollupName, readonly RollupRow[]>>;

/** The key of a visit's funnel row under a split: its campaign name, its source (else referring site), its entry page. */
export function funnelKey(attribution: Attribution, split: FunnelSplit): string {
  switch (split) {
    case 'none':
      return '';
    case 'campaign':
      return attribution.campaign;
    case 'source':
      return attribution.source !== '' ? attribution.source : attribution.referrerHost;
    case 'entry':
      return attribution.entryPath;
  }
}

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
  const rows = {} as Record<RollupName, Map<string, { keys: string[]; counts: number[] }>>;
  for (const name of ROLLUP_NAMES) rows[name] = new Map();
  const add = (name: RollupName, keys: string[], counts: readonly number[]) => {
    const key = keyOf(...keys);
    const found = rows[name].get(key);
    if (found === undefined) rows[name].set(key, { keys, counts: [...counts] });
    else counts.forEach((count, index) => (found.counts[index] = (found.counts[index] ?? 0) + count));
  };
  const attributionOfVisit = (day: string, visit: string) => attributions.get(keyOf(day, visit)) ?? UNKNOWN_ATTRIBUTION;

  for (const { day, path, pageviews, bookingClicks } of pageCounts) add('page', [day, path], [pageviews, 0, bookingClicks]);
  for (const { day, path } of newPages) add('page', [day, path], [0, 1, 0]);

  const addSummary = (day: string, form: string, attribution: Attribution, counts: Partial<Record<SummaryCount, number>>) => {
    const place = { source: funnelKey(attribution, 'source'), campaign: attribution.campaign, entryPath: attribution.entryPath };
    const values = SUMMARY_COUNTS.map((count) => counts[count] ?? 0);
    for (const name of SUMMARY_ROLLUP_NAMES) add(name, summaryKeys(name, day, form, place), values);
  };

  for (const { day, visit } of newVisits) {
    const attribution = attributionOfVisit(day, visit);
    const { entryPath, referrerHost, source, medium, campaign, click } = attribution;
    add('entry', [day, entryPath], [1]);
    add('referrer', [day, referrerHost], [1]);
    add('campaign', [day, source, medium, campaign, click], [1]);
    addSummary(day, '', attribution, { visits: 1 });
  }

  const addSteps = (day: string, form: string, attribution: Attribution, steps: number, by: number) => {
    const counts = FUNNEL_STEPS.map((step) => (steps & stepBit(step) ? by : 0));
    for (const split of FUNNEL_SPLITS) add('funnel', [split, day, form, funnelKey(attribution, split)], counts);
    if (steps & stepBit('viewed')) addSummary(day, form, attribution, { viewed: by });
  };
  for (const { day, visit, form, steps } of newSteps) addSteps(day, form, attributionOfVisit(day, visit), steps, 1);
  for (const { day, visit, form, steps } of movedSteps) {
    addSteps(day, form, UNKNOWN_ATTRIBUTION, steps, -1);
    addSteps(day, form, attributionOfVisit(day, visit), steps, 1);
  }

  const increments = {} as Record<RollupName, RollupRow[]>;
  for (const name of ROLLUP_NAMES) increments[name] = sortedValues(rows[name]);
  return increments;
}

/** A lead's row as the stores keep it until the CRM takes it: its day, form, keys, and whether it counts as accepted. */
export type LeadRow = { readonly day: string; readonly form: string; readonly keys: LeadKeys; readonly accepted: boolean };

/** The columns of the leads table after lead_id, in this order. */
export const LEAD_COLUMNS = ['day', 'form', 'campaign', 'source', 'entry_path', 'accepted'] as const;

/** A lead row's values in LEAD_COLUMNS order. */
export function leadValues(lead: LeadRow): [string, string, string, string, string, number] {
  return [lead.day, lead.form, lead.keys.campaign, lead.keys.source, lead.keys.entryPath, lead.accepted ? 1 : 0];
}

/** The row a lead the relay stored makes. */
export function newLeadRow(lead: CountedLead): LeadRow {
  assertMoment(lead.at);
  return { day: saltDay(lead.at), form: lead.form, keys: lead.keys, accepted: !lead.spam };
}

export function leadRowOf(row: Readonly<Record<string, unknown>>): LeadRow {
  return {
    day: String(row.day),
    form: String(row.form),
    keys: { campaign: String(row.campaign), source: String(row.source), entryPath: String(row.entry_path) },
    accepted: Number(row.accepted) === 1,
  };
}

/**
 * The increments of one lead's steps ("accepted", "delivered" and "booked", by -1, 0 or 1), on its
 * day under its own keys in every split of the funnel and in the summary's roll-ups; the visit
 * roll-ups are untouched.
 */
export function leadIncrements(lead: LeadRow, steps: { accepted?: number; delivered?: number; booked?: number }): RollupIncrements {
  const byStep: Partial<Record<FunnelStep, number>> = steps;
  const counts = FUNNEL_STEPS.map((step) => byStep[step] ?? 0);
  const place = { source: lead.keys.source, campaign: lead.keys.campaign, entryPath: lead.keys.entryPath };
  const summaryCounts = SUMMARY_COUNTS.map((count) => (count === 'visits' || count === 'viewed' ? 0 : (steps[count] ?? 0)));
  const summary = Object.fromEntries(
    SUMMARY_ROLLUP_NAMES.map((name) => [name, [{ keys: summaryKeys(name, lead.day, lead.form, place), counts: summaryCounts }]]),
  ) as unknown as Record<SummaryRollupName, RollupRow[]>;
  const keyOfSplit: Record<FunnelSplit, string> = {
    none: '',
    campaign: lead.keys.campaign,
    source: lead.keys.source,
    entry: lead.keys.entryPath,
  };
  const funnel = FUNNEL_SPLITS.map((split) => ({ keys: [split, lead.day, lead.form, keyOfSplit[split]], counts }));
  return {
    page: [],
    entry: [],
    referrer: [],
    campaign: [],
    funnel: funnel.sort((a, b) => compareKeys(keyOf(...a.keys), keyOf(...b.keys))),
    ...summary,
  };
}
