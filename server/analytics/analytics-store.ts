// Where counted visits live: raw events for a while (ANALYTICS_RAW_DAYS), and roll-ups kept for ever
// that every report reads, so a report over ten million events sums a few thousand rows instead of
// scanning them. SQLite (its own file, beside the lead store's, so counting never holds the lead
// store's write lock) and PostgreSQL (the lead store's database, shared by every server) implement
// it; one contract suite runs against both.
//
// A "visit" is one visit hash on one UTC day (see visit-hash.ts): the same person on five days is
// five visits. Everything a visit did that day is summed under its attribution: the entry page,
// referring site and campaign of its first event that day.
import type { LeadFormId } from '../../lead/rules.ts';
import type { CountedEvent } from './event-shape.ts';
import type { SaltStore } from './visit-hash.ts';

/**
 * A beacon as it is stored: when (ms), which visit, and what the page said. `forms` is named here as
 * well because CountedEvent, an Omit over the two shapes a beacon takes, keeps only their common keys.
 */
export type VisitEvent = CountedEvent & { readonly forms?: readonly LeadFormId[]; readonly at: number; readonly visit: string };

/** A lead the relay accepted (stored, not spam), joined to the visit that sent it. */
export type AcceptedLead = {
  readonly leadId: string;
  readonly at: number;
  readonly visit: string;
  readonly form: LeadFormId;
};

/** A span of UTC days, both ends included: "2026-11-01" to "2026-11-30". */
export type DayRange = { readonly from: string; readonly to: string };

/** The steps of a form's funnel, each counted once per visit. */
export const FUNNEL_STEPS = ['viewed', 'started', 'submitted', 'accepted', 'delivered'] as const;
export type FunnelStep = (typeof FUNNEL_STEPS)[number];
export type FunnelCounts = Readonly<Record<FunnelStep, number>>;

/**
 * How a funnel is split: not at all, by campaign (utm_campaign, with its source and medium), by
 * source (utm_source, else the referring site, else direct) or by entry page.
 */
export const FUNNEL_SPLITS = ['none', 'campaign', 'source', 'entry'] as const;
export type FunnelSplit = (typeof FUNNEL_SPLITS)[number];

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

/** The campaign words of a visit; only those it had. */
export type VisitCampaign = {
  readonly source?: string;
  readonly medium?: string;
  readonly name?: string;
  readonly term?: string;
  readonly content?: string;
};

export type AnalyticsStore = SaltStore & {
  /**
   * Counts a batch of events in one transaction: raw rows, the visit's first-seen attribution, and
   * the roll-ups. A visit's first event of the day (the earliest `at`) names its entry page, and,
   * when it is a page view, its referrer and campaign; later events never change them.
   */
  recordEvents(events: readonly VisitEvent[]): Promise<void>;
  /**
   * The relay accepted a lead from this visit: the funnel's "accepted" step, once per visit and
   * form. A visit no beacon has named yet is counted with no entry page or attribution until its
   * first beacon arrives, which then gives it one (and it counts as a visit from then on).
   */
  recordLeadAccepted(lead: AcceptedLead): Promise<void>;
  /**
   * The CRM took the lead: the funnel's "delivered" step, counted on the day and under the
   * attribution of the visit that sent it. A lead the store never saw accepted is ignored.
   */
  recordLeadDelivered(leadId: string, at: number): Promise<void>;
  /**
   * The campaign words (utm_*) a visit arrived with on `day`, or undefined when it came by no
   * campaign or the store has no such visit (or no longer has it: raw rows are deleted after
   * ANALYTICS_RAW_DAYS). The relay gives them to a lead sent after the page that carried them was
   * left by a full page load, since the browser keeps nothing between loads.
   */
  visitCampaign(day: string, visit: string): Promise<VisitCampaign | undefined>;
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
   * Deletes raw events and per-visit rows (and the leads not yet delivered) of days strictly before
   * `day`; roll-ups stay, so reports do not change. Returns the rows deleted.
   */
  deleteRawBefore(day: string): Promise<number>;
  close(): Promise<void>;
};
