// Where counted visits live: raw events for a while (ANALYTICS_RAW_DAYS), and roll-ups kept for ever
// that every report reads, so a report over ten million events sums a few thousand rows instead of
// scanning them. SQLite (its own file, beside the lead store's, so counting never holds the lead
// store's write lock) and PostgreSQL (the lead store's database, shared by every server) implement
// it; one contract suite runs against both.
//
// A "visit" is one visit hash on one UTC day (see visit-hash.ts): the same person on five days is
// five visits. Everything a visit did that day is summed under its attribution: the entry page,
// referring site and campaign of its first event that day. A lead is counted under what it carried
// itself (its utm_* words, its landing page), as the inbox shows it, whatever its visit began with.
import type { LeadFormId } from '../../lead/rules.ts';
import type { CountedEvent } from './event-shape.ts';
import type { RouteVitals, VitalsSample } from './vital-buckets.ts';
import type { SaltStore } from './visit-hash.ts';

export type { RouteVitals, VitalFigures, VitalsSample } from './vital-buckets.ts';

/**
 * A beacon as it is stored: when (ms), which visit, and what the page said. `forms` is named here as
 * well because CountedEvent, an Omit over the two shapes a beacon takes, keeps only their common keys.
 */
export type VisitEvent = CountedEvent & { readonly forms?: readonly LeadFormId[]; readonly at: number; readonly visit: string };

/**
 * Where a lead says it came from, as the inbox holds it: the keys its funnel steps are counted under
 * ('' where it says nothing). See lead-keys.ts.
 */
export type LeadKeys = {
  /** Its utm_campaign. */
  readonly campaign: string;
  /** Its utm_source, else the site its first referrer was on. */
  readonly source: string;
  /** The path of its landing page. */
  readonly entryPath: string;
};

/**
 * A lead the relay stored, sent by a counted visitor. The lead, not its visit, is what the funnel's
 * last two steps count: each lead once, on the day it was received, under the keys it carried.
 */
export type CountedLead = {
  readonly leadId: string;
  /** When the relay received it (ms): its day is the day both its steps are counted on. */
  readonly at: number;
  readonly form: LeadFormId;
  readonly keys: LeadKeys;
  /** Stored as spam: "accepted" only once someone marks it not spam, or the CRM takes it. */
  readonly spam: boolean;
};

/** A span of UTC days, both ends included: "2026-11-01" to "2026-11-30". */
export type DayRange = { readonly from: string; readonly to: string };

/**
 * The steps of a form's funnel: the first three counted once per visit, "accepted", "delivered" and
 * "booked" (a meeting the booking provider confirmed and that is not cancelled) once per lead (a
 * visitor who sends two leads has two in the inbox).
 */
export const FUNNEL_STEPS = ['viewed', 'started', 'submitted', 'accepted', 'delivered', 'booked'] as const;
export type FunnelStep = (typeof FUNNEL_STEPS)[number];
export type FunnelCounts = Readonly<Record<FunnelStep, number>>;

/**
 * How a funnel is split: not at all, by campaign (utm_campaign, with its source and medium), by
 * source (utm_source, else the referring site, else direct) or by entry page.
 */
export const FUNNEL_SPLITS = ['none', 'campaign', 'source', 'entry'] as const;
export type FunnelSplit = (typeof FUNNEL_SPLITS)[number];

/**
 * What the summary is narrowed to; an absent key is no filter, '' is a real value ("no campaign",
 * "direct", "no entry page known"). `source` is a lead's or visit's source as the funnel keys it
 * (utm_source, else the referring site); `page` is the entry page; with `form`, a visitor is a visit
 * that viewed that form.
 */
export type SummaryFilter = {
  readonly campaign?: string | undefined;
  readonly source?: string | undefined;
  readonly page?: string | undefined;
  readonly form?: string | undefined;
};

/** One day of the summary: visitors (with a form filter, visits that viewed it) and the leads' steps. */
export type SummaryDay = {
  readonly day: string;
  readonly visitors: number;
  readonly accepted: number;
  readonly delivered: number;
  readonly booked: number;
};

/** A campaign (with its source) or an entry page, summed over a range under a filter. */
export type ConversionTotals = {
  readonly campaign: string;
  readonly source: string;
  readonly visitors: number;
  readonly accepted: number;
  readonly delivered: number;
  readonly booked: number;
};
export type EntryConversionTotals = Omit<ConversionTotals, 'campaign' | 'source'> & { readonly entryPath: string };

/** Reports list at most this many rows, largest first (the CSV export too). */
export const REPORT_ROW_LIMIT = 200;

export type DayTotals = { readonly day: string; readonly visitors: number; readonly pageviews: number; readonly bookingClicks: number };
export type PageTotals = { readonly path: string; readonly visitors: number; readonly pageviews: number; readonly bookingClicks: number };
/** `host` '' is a visit with no referring site (typed, bookmarked, or the referrer withheld). */
export type ReferrerTotals = { readonly host: string; readonly visitors: number };
/** '' where a link had no such word; `click` '' when the visit came from no ad click. */
export type CampaignTotals = {
  readonly source: string;
  readonly medium: string;
  readonly name: string;
  readonly click: string;
  readonly visitors: number;
};
export type EntryTotals = { readonly path: string; readonly visitors: number };
/** One form's funnel under one value of the split ('' for split 'none' and for "none given"). */
export type FunnelRow = FunnelCounts & { readonly form: LeadFormId; readonly key: string };

export type AnalyticsStore = SaltStore & {
  /**
   * Counts a batch of events in one transaction: raw rows, the visit's first-seen attribution, and
   * the roll-ups. A visit's first event of the day (the earliest `at`) names its entry page, and,
   * when it is a page view, its referrer and campaign; later events never change them.
   */
  recordEvents(events: readonly VisitEvent[]): Promise<void>;
  /**
   * The relay stored a lead from a counted visitor: unless it is spam, the funnel's "accepted" step,
   * on the lead's day, under its own keys. A second call for the same lead changes nothing.
   */
  recordLead(lead: CountedLead): Promise<void>;
  /**
   * Someone judged a stored lead: not spam counts it as accepted (once), spam takes back an
   * "accepted" it had, so the funnel agrees with the inbox. A lead the store does not hold (not
   * counted, delivered already, or past ANALYTICS_RAW_DAYS) is ignored.
   */
  recordLeadJudged(leadId: string, spam: boolean): Promise<void>;
  /**
   * The CRM took the lead: the funnel's "delivered" step, on the lead's day under its keys, and
   * "accepted" too if it was not yet (a lead sent on from spam by an operator). Counted once; a lead
   * the store does not hold is ignored.
   */
  recordLeadDelivered(leadId: string, at: number): Promise<void>;
  /**
   * The booking provider said the lead has a meeting (`booked` true) or that it has none any more
   * (cancelled): the funnel's "booked" step, on the lead's day under its keys, counted once while
   * booked and taken back when not. A lead the store does not hold is ignored.
   */
  recordMeeting(leadId: string, at: number, booked: boolean): Promise<void>;
  /**
   * The summary's days: only days of the range with something counted under the filter, oldest
   * first. Read from the smallest roll-up that holds the filter's keys.
   */
  summaryDays(range: DayRange, filter: SummaryFilter): Promise<SummaryDay[]>;
  /**
   * The same per month, for a long range: each month's sums (its `day` the month's first day in the
   * range), only months with something counted, oldest first. Whole months are read from the
   * roll-ups by month, the days at the range's ends from those by day.
   */
  summaryMonths(range: DayRange, filter: SummaryFilter): Promise<SummaryDay[]>;
  /**
   * What converts under the filter: campaigns (with their source) and entry pages, each ranked by
   * leads the CRM took, then meetings, leads accepted, visitors, then by key; rows with nothing
   * left out, at most REPORT_ROW_LIMIT of each.
   */
  conversions(range: DayRange, filter: SummaryFilter): Promise<{ campaigns: ConversionTotals[]; entries: EntryConversionTotals[] }>;
  /**
   * The first day the summary's roll-ups hold in full, or null when they hold every day counted.
   * A store that counted visits before those roll-ups existed answers the day after they were made.
   */
  summaryCountedFrom(): Promise<string | null>;
  /**
   * Every day of the range, oldest first, days without visits included as zeros. Every report
   * refuses (throws) a range that is not two YYYY-MM-DD days, ends before it starts, or is longer
   * than 3,700 days.
   */
  dayTotals(range: DayRange): Promise<DayTotals[]>;
  /** Most viewed first (then most visitors, then by path). */
  pageTotals(range: DayRange): Promise<PageTotals[]>;
  /** Most visits first; the visits with no referring site are the row with `host` ''. */
  referrerTotals(range: DayRange): Promise<ReferrerTotals[]>;
  /** Most visits first; the visits that came from no campaign are the row whose words are all ''. */
  campaignTotals(range: DayRange): Promise<CampaignTotals[]>;
  entryTotals(range: DayRange): Promise<EntryTotals[]>;
  /**
   * Per form (and per value of the split), the visits that reached each step; only forms with a
   * count in the range. Ordered by viewed, then started, submitted, accepted and delivered, largest
   * first, then by form and key.
   */
  funnel(range: DayRange, split: FunnelSplit): Promise<FunnelRow[]>;
  /**
   * Counts page loads' field speed in one transaction, each value in its page's, day's and metric's
   * histogram (vital-buckets.ts). No visit, no raw row: only the bucket counts are kept, for ever.
   */
  recordVitals(samples: readonly VitalsSample[]): Promise<void>;
  /**
   * Field speed per page over the range (only `path` when given): every page with a measurement, most
   * page loads measured first, each with the 75th percentile of the metrics measured on at least
   * `minSamples` page loads. Refuses a range as the other reports do, and a minimum under 1.
   */
  vitals(range: DayRange, minSamples: number, path?: string): Promise<RouteVitals[]>;
  /**
   * Deletes raw events and per-visit rows (and the leads, so a meeting for a lead older than that is
   * no longer counted) of days strictly before `day`; roll-ups stay, so reports do not change.
   * Returns the rows deleted.
   */
  deleteRawBefore(day: string): Promise<number>;
  /** The highest schema version applied to the store (readiness compares it with the versions this code knows). */
  schemaVersion(): Promise<number>;
  close(): Promise<void>;
};
