// The shapes the console's API answers with and the console app reads: one definition for both
// sides, so a field added on the server is a type error where the browser forgets it. Times are ISO
// 8601 strings in UTC; the app shows them in the reader's own time zone.
import type { Action, Role } from '../back-office/roles.ts';
import type { LeadFormId } from '../lead/rules.ts';
import type { DeliveryState, LeadStatus } from '../lead/delivery-states.ts';

export type { Action, DeliveryState, LeadFormId, LeadStatus, Role };
export { LEAD_STATUSES, leadStatusOf } from '../lead/delivery-states.ts';

/** Every API path, under the console's own prefix. */
export const CONSOLE_API = '/console/api';

/** Every failed call answers `{ error, message }`: `message` is a sentence a person can act on. */
export type ApiError = {
  error:
    'validation' | 'signed-out' | 'forbidden' | 'csrf' | 'refused' | 'rate-limited' | 'busy' | 'not-found' | 'conflict' | 'unavailable';
  message: string;
  /** validation: what is wrong with each named input. */
  fields?: Record<string, string>;
  /** rate-limited and busy: when to try again. */
  retryAfterSeconds?: number;
};

/** GET /session (200, or 401 signed-out), and the answer to POST /session { email, password }. */
export type SessionInfo = {
  /** The account's id: the owner ids of the sales queue name accounts by it. */
  id: string;
  email: string;
  role: Role;
  /** Sent back in the X-CSRF-Token header with every POST, PUT, PATCH and DELETE. */
  csrfToken: string;
  /** What this person may do (the buttons the app shows; the server checks again). */
  allowed: Action[];
};

/** The statuses a retry sends; every other lead is skipped (spam, one the CRM has, one being sent). */
export const RETRYABLE_STATUSES: readonly LeadStatus[] = ['failed', 'held', 'waiting', 'retrying'];

/** The inbox's filters, as query parameters of GET /leads and GET /leads/export. All optional. */
export type LeadFilter = {
  /** A form's source name, e.g. `Contact Page Form`. */
  form?: string;
  state?: LeadStatus;
  /** `yes`: only spam; `no`: only real leads. */
  spam?: 'yes' | 'no';
  /** Received on or after this day (YYYY-MM-DD, UTC). */
  from?: string;
  /** Received on or before this day (YYYY-MM-DD, UTC). */
  to?: string;
  /** utm_campaign, exactly. */
  campaign?: string;
  /** utm_source, exactly. */
  source?: string;
  /** Part of the name, e-mail address or company (case-insensitive); a whole address finds it fast. */
  q?: string;
};

/** One row of the inbox. */
export type LeadSummary = {
  id: string;
  receivedAt: string;
  form: string;
  name: string;
  email: string;
  company: string;
  /** The visitor's phone as typed, '' when none; the inbox links it with tel:. Sent by a server that keeps the sales queue. */
  phone?: string;
  /** Who owns the lead, null while nobody does. Sent by a server that keeps the sales queue. */
  owner?: PersonRef | null;
  /** Where the sale stands (apart from the CRM delivery). Sent by a server that keeps the sales queue. */
  salesStatus?: SalesStatus;
  state: DeliveryState;
  /** The state in the console's words (LEAD_STATUSES). */
  status: LeadStatus;
  spamReason: string | null;
  /** Why it was judged spam, one plain sentence per flag; empty for a lead not judged spam. */
  spamSignals: string[];
  /** Attempts since the lead was last made due (a retry starts again from 0); the timeline lists them all. */
  attempts: number;
  nextAttemptAt: string | null;
  campaign: string | null;
  source: string | null;
  /** The visitor ticked "call me back now" (and the relay recorded their agreement). */
  callbackRequested: boolean;
};

/** GET /leads?<LeadFilter>&after=<next>&limit=<1..100, default 50>: newest first. */
export type LeadPage = {
  leads: LeadSummary[];
  /** Pass as `after` for the next page; null on the last page. */
  next: string | null;
};

/** One delivery attempt in a lead's timeline. */
export type DeliveryAttempt = {
  at: string;
  durationMs: number;
  /** The CRM's HTTP status; null for a timeout or network error. */
  status: number | null;
  /** The start of the CRM's answer (at most 500 characters). */
  answerStart: string | null;
  error: string | null;
  outcome: DeliveryState;
};

/** GET /leads/:id */
export type LeadDetail = LeadSummary & {
  /** Every field as the visitor sent it, in the order sent (attribution and ids excluded). */
  fields: [name: string, value: string][];
  attribution: {
    campaign: string | null;
    source: string | null;
    medium: string | null;
    referrer: string | null;
    landingPage: string | null;
    /** Every other attribution value (utm_term, gclid, first_referrer…). */
    other: [name: string, value: string][];
  };
  attemptsLog: DeliveryAttempt[];
};

/** What a retry sent, by the status each lead had. */
export type RetrySent = { failed: number; held: number; waiting: number; retrying: number };
/** What a retry left alone, and why: spam, a lead the CRM already has, one being sent right now, one erased. */
export type RetrySkipped = { spam: number; delivered: number; sending: number; missing: number };

/**
 * POST /leads/retry { ids: string[] } or { allFailed: true }: sends failed, held, waiting and retrying
 * leads only. Spam is sent only after "not spam", a delivered lead only by POST /leads/:id/send-again.
 */
export type RetryResult = { retried: number; sent: RetrySent; skipped: RetrySkipped };
/** POST /leads/:id/send-again {}: a delivered or test-delivered lead sent to the CRM a second time. */
export type SendAgainResult = { state: DeliveryState };
/** POST /leads/:id/spam { spam: boolean } */
export type SpamResult = { state: DeliveryState };
/** GET /erasures?email=… (how many leads an erasure would remove) and POST /erasures { email, count } */
export type ErasurePreview = { count: number };
export type ErasureResult = { erased: number };
/** GET /leads/export?<LeadFilter>&format=csv|json: a file download (Content-Disposition: attachment). */

/** GET /audit?after=<next>: newest first; admins only. */
export type AuditEntry = {
  at: string;
  actor: string;
  /** e.g. `lead.retry`, `lead.spam`, `lead.not-spam`, `leads.erase`, `leads.export`, `retention.purge`, `account.add`. */
  action: string;
  /** What it touched (a lead id, a count, a filter); never an erased person's address. */
  detail: string;
};
export type AuditPage = { entries: AuditEntry[]; next: string | null };

/** GET /health: the console's first screen. */
export type Health = {
  /** Per form: leads received today and in the last 7 days (UTC days), spam excluded. */
  perForm: { form: string; today: number; week: number }[];
  /** Per day for the last 7 days, oldest first, all forms. */
  perDay: { day: string; leads: number }[];
  deliveredLast24h: number;
  /** Leads given up on (status failed). */
  failed: number;
  /** Leads the CRM did not take at the last attempt, with more attempts scheduled (status retrying). */
  retrying: number;
  /** Spam received in the last 7 days (UTC days, today included). */
  spamWeek: number;
  /** The oldest lead not delivered yet (pending or held), or null when none waits. */
  oldestUndelivered: { id: string; receivedAt: string; waitedMinutes: number } | null;
  lastCrmSuccessAt: string | null;
  /**
   * Leads waiting to be sent (waiting and retrying), and how long that takes at the CRM pace: null
   * while the CRM is refusing (its last attempt failed), when no estimate would be true.
   */
  backlog: { pending: number; drainMinutes: number | null; maxPer10s: number; crmRefusing: boolean };
  incident: { since: string; lastError: string | null } | null;
  retention: { leadDays: number | null; spamDays: number };
};

/** GET /notifications; PUT /notifications/forms { form, newLeadEmail } (admin). */
export type NotificationSettings = {
  /** SMTP_URL and NOTIFY_TO are set: e-mails can go. */
  email: boolean;
  /** ALERT_WEBHOOK_URL is set. */
  webhook: boolean;
  alertAfterMinutes: number;
  forms: { form: string; newLeadEmail: boolean }[];
};
/** POST /notifications/test: sends a test notification to every configured channel at once. */
export type TestNotificationResult = { channels: { channel: 'email' | 'webhook'; ok: boolean; error: string | null }[] };

/** GET /accounts, POST /accounts { email, role, password }, PATCH /accounts/:email { role }, DELETE /accounts/:email (admin). */
export type AccountSummary = { email: string; role: Role; createdAt: string; lastSignInAt: string | null };

// The visit reports' shapes are written out here, not imported from the analytics store, whose
// module brings Node's types into the browser's build; the server's route returns this type, so the
// store's rows and these shapes cannot drift apart unnoticed.

/** A span of UTC days, both ends included: "2026-11-01" to "2026-11-30". */
export type DayRange = { from: string; to: string };
/** How the funnel is split: not at all, by campaign, by source (utm_source, else the referring site) or by entry page. */
export const ANALYTICS_SPLITS = ['none', 'campaign', 'source', 'entry'] as const;
export type AnalyticsSplit = (typeof ANALYTICS_SPLITS)[number];
/** The funnel's steps, in order: the first three counted once per visit, the last three once per lead. */
export const FUNNEL_STEP_ORDER = ['viewed', 'started', 'submitted', 'accepted', 'delivered', 'booked'] as const;
export type FunnelStep = (typeof FUNNEL_STEP_ORDER)[number];

export type DayTotals = { day: string; visitors: number; pageviews: number; bookingClicks: number };
export type PageTotals = { path: string; visitors: number; pageviews: number; bookingClicks: number };
/** `host` '' is a visit with no referring site. */
export type ReferrerTotals = { host: string; visitors: number };
/** '' where a link had no such word; `click` '' when the visit came from no ad click. */
export type CampaignTotals = { source: string; medium: string; name: string; click: string; visitors: number };
export type EntryTotals = { path: string; visitors: number };
/** One form's funnel under one value of the split ('' for split none, and where a visit had none). */
export type FunnelRow = Record<FunnelStep, number> & { form: LeadFormId; key: string };

/** GET /analytics?from&to&split: every visit report for a span of UTC days. */
export type AnalyticsReport = {
  /** The days reported: those asked for, or the 30 UTC days ending today. */
  range: DayRange;
  split: AnalyticsSplit;
  /** Every day of the range, oldest first, days without visits as zeros. */
  days: DayTotals[];
  /** Each list: largest first, at most the store's REPORT_ROW_LIMIT rows. */
  pages: PageTotals[];
  referrers: ReferrerTotals[];
  campaigns: CampaignTotals[];
  entryPages: EntryTotals[];
  /** Per form, the visits that reached each of the first three steps and the leads at the last two, unsplit (`key` ''). */
  funnel: FunnelRow[];
  /** Per form and value of `split`; the same as `funnel` for split none. */
  splitFunnel: FunnelRow[];
};
/** GET /analytics/export?report=…&from&to&split: one report as a CSV download. */
export const ANALYTICS_EXPORTS = ['days', 'pages', 'referrers', 'campaigns', 'entry-pages', 'funnel'] as const;
export type AnalyticsExport = (typeof ANALYTICS_EXPORTS)[number];

/** Each lead form as the reports name it. */
export const FORM_NAMES = {
  home: 'Home form',
  roi: 'ROI calculator form',
  contact: 'Contact form',
  landing: 'Landing page form',
} as const satisfies Record<LeadFormId, string>;

/** The funnel's steps as the reports name them, in order. */
export const FUNNEL_STEP_NAMES = {
  viewed: 'Page view',
  started: 'Form started',
  submitted: 'Submitted',
  accepted: 'Lead accepted',
  delivered: 'Delivered to the CRM',
  booked: 'Meeting booked',
} as const satisfies Record<FunnelStep, string>;

/** What a split's empty value means: a visit or lead with no campaign, with no source or referring site, or whose entry page is not known. */
export const SPLIT_EMPTY_NAMES = {
  none: '',
  campaign: '(no campaign)',
  source: '(direct)',
  entry: '(unknown)',
} as const satisfies Record<AnalyticsSplit, string>;

// The sales queue. A lead's sales status (new … lost) is apart from its CRM delivery (LeadStatus):
// "sent to the CRM" is not a sale.

export type { SalesStatus, ActivityKind, TouchOutcome, RuleKind, WorkingWindow } from '../lead/sales.ts';
export { SALES_STATUSES, RULE_KINDS } from '../lead/sales.ts';
import type { SalesStatus, ActivityKind, TouchOutcome, RuleKind, WorkingWindow } from '../lead/sales.ts';

/** A person leads can be given to. */
/** `id` is the account's id (text). */
export type PersonRef = { id: string; email: string };

/** The sales side of a lead, on every queue row and on the lead page. */
export type LeadSalesView = {
  owner: PersonRef | null;
  status: SalesStatus;
  lostReason: string | null;
  /** When the clock started: the lead's arrival, or the next business opening after it. */
  clockStartsAt: string;
  firstTouchAt: string | null;
  /** Business minutes from clockStartsAt to the first touch, or to now while untouched (0 before the opening). */
  clockMinutes: number;
  /** False while untouched before the clock's start (outside business hours) and once touched. */
  clockRunning: boolean;
  /** The earlier lead of the same person this one joined, or null. */
  joinedTo: string | null;
};

/** One row of "Call now". */
export type QueueLead = {
  id: string;
  receivedAt: string;
  form: string;
  name: string;
  company: string;
  email: string;
  phone: string;
  /** What they asked, in their words (message, biggest challenge or service interest); '' when nothing. */
  asked: string;
  /** The visitor ticked "call me back now". */
  callbackRequested: boolean;
  sales: LeadSalesView;
};

/** GET /queue: the signed-in person's untouched leads, then unassigned ones, oldest first. */
export type CallNow = {
  mine: QueueLead[];
  unassigned: QueueLead[];
  /** The site's business hours in words, e.g. "Mon-Fri 9:00 AM-6:00 PM, New York time". */
  businessHours: string;
  /** Whether the business is open now (clocks run only while it is). */
  openNow: boolean;
};

/** One entry of a lead's timeline, worded by the server. */
export type TimelineEntry = {
  at: string;
  kind: ActivityKind | 'crm';
  /** Who acted: an address, or `system`. */
  actor: string;
  /** What happened, one sentence ("Called: reached", "Status: new → lost (price)", "Sent to the CRM"). */
  text: string;
  /** A note's text, shown as written. */
  note: string | null;
};

/** GET /leads/:id adds the sales side (see LeadDetail). */
export type LeadSalesDetail = {
  /**
   * Whether the lead is in the sales queue: `placed` (it has an owner or waits for one, with its
   * clock), `placing` (it arrived moments ago and is being given its owner), `outside` (it came
   * before the queue existed, or over a day before it was looked at: no owner, status or clock until
   * a person gives it an owner; its clock then starts at that moment and the speed figures leave it
   * out). Absent from a server without the queue's placement check: read it as `placed`.
   */
  queue?: LeadQueueState;
  sales: LeadSalesView;
  phone: string;
  callback: { requested: boolean; consentText: string | null; consentAt: string | null };
  timeline: TimelineEntry[];
  /** Later leads of the same person that joined this one. */
  joined: { id: string; receivedAt: string; form: string }[];
  /** The lead's CRM record (CRM_LEAD_URL), or null when not configured. */
  crmUrl: string | null;
};

export type LeadQueueState = 'placed' | 'placing' | 'outside';

/** POST /leads/:id/owner { ownerId: string | null } (leads:assign) → LeadSalesView. On a lead `outside` the queue it puts the lead in. */
export type OwnerChange = { ownerId: string | null };
/** POST /leads/:id/status { status, lostReason? } (leads:work; lostReason required for lost) → LeadSalesView */
export type StatusChange = { status: SalesStatus; lostReason?: string };
/** POST /leads/:id/notes { text } (leads:work, 1..2000 characters) → LeadSalesView */
export type NoteInput = { text: string };
/** POST /leads/:id/touches { kind, outcome } (leads:work) → LeadSalesView */
export type TouchInput = { kind: 'call' | 'email'; outcome: TouchOutcome };

/** GET /people (leads:read): every sales person and admin leads can go to. */
export type SalesPerson = PersonRef & {
  role: Role;
  timeZone: string;
  windows: WorkingWindow[];
  away: boolean;
  /** In working hours and not away right now. */
  availableNow: boolean;
  /** Untouched leads this person owns. */
  untouched: number;
};
/** PUT /people/:id/availability (own, with leads:work; anyone's, with sales:manage) → SalesPerson */
export type AvailabilityInput = { timeZone: string; windows: WorkingWindow[]; away: boolean };

/** A rule as the console shows it. */
export type RuleView = {
  kind: RuleKind;
  value: string;
  owner: PersonRef | null;
  /** Why this rule would give leads to nobody, or null. */ warning: string | null;
};
/** GET /assignment-rules, PUT /assignment-rules { rules: [{ kind, value, ownerId }] } (sales:manage). */
export type AssignmentRules = { rules: RuleView[] };
export type AssignmentRulesInput = { rules: { kind: RuleKind; value: string; ownerId: string | null }[] };

/** Time to the first human touch over a set of leads, in business minutes. */
export type SpeedFigures = {
  leads: number;
  /** Leads touched by a person. */
  reached: number;
  medianMinutes: number | null;
  p90Minutes: number | null;
  /** Shares of all leads, 0..1. */
  within5Minutes: number;
  within1Hour: number;
  neverReached: number;
};
export type SpeedGroup = SpeedFigures & { key: string; label: string };
/** GET /speed?from&to (leads:read); GET /speed/export?from&to&by=owner|form|campaign: CSV. */
export type SpeedReport = {
  range: DayRange;
  /** How business hours were counted, one sentence ending in a full stop. */
  businessHours: string;
  overall: SpeedFigures;
  byOwner: SpeedGroup[];
  byForm: SpeedGroup[];
  byCampaign: SpeedGroup[];
};

/** GET /leads/:id: the lead with its sales side. */
export type LeadWithSales = LeadDetail & LeadSalesDetail;

// Meetings and what converts. The funnel's last step is "Meeting booked" (counted from the booking
// provider's webhooks, once per lead with a meeting that is not cancelled); the Analytics screen
// opens on key figures against the previous period, then one table of what converts.

export type { BookingProvider, BookingChange } from '../lead/booking.ts';
/** The providers as people know them ("Cal.com", "Calendly"), for the console's words. */
export { BOOKING_PROVIDER_NAMES } from '../lead/booking.ts';
import type { BookingProvider, BookingChange } from '../lead/booking.ts';

/** What the screen can be filtered by; each is kept in the address (?campaign=…&source=…&page=…&form=…). */
export const ANALYTICS_FILTERS = ['campaign', 'source', 'page', 'form'] as const;
export type AnalyticsFilterKey = (typeof ANALYTICS_FILTERS)[number];
/** The active filters: '' is a real value ("(no campaign)", "(direct)"); an absent key is no filter. */
export type AnalyticsFilter = Partial<Record<AnalyticsFilterKey, string>>;

/** The key figures, in the order the screen shows them. */
export const KEY_FIGURES = ['visitors', 'accepted', 'delivered', 'booked', 'visitToLead'] as const;
export type KeyFigureName = (typeof KEY_FIGURES)[number];
export type KeyFigure = {
  name: KeyFigureName;
  /** A count, or for visitToLead a share 0..1 (leads accepted ÷ visitors; null without visitors). */
  value: number | null;
  /** The same figure over the previous period of the same length. */
  previous: number | null;
  /** (value − previous) ÷ previous; null when previous is 0 or null. */
  change: number | null;
};

/** One row of "What converts": a campaign (with its source) or an entry page, ranked by leads the CRM took, then meetings. */
export type ConversionRow = {
  kind: 'campaign' | 'entry';
  /** The campaign's name or the entry page's path; '' is "(no campaign)" / "(unknown)". */
  key: string;
  /** For a campaign: its source (utm_source, else the referring site; '' direct). */
  source: string;
  visitors: number;
  accepted: number;
  delivered: number;
  booked: number;
};

/** The longest range the chart shows day by day; a longer one is shown month by month. */
export const SERIES_DAILY_MAX_DAYS = 92;

/** The one chart's metrics. */
export const SERIES_METRICS = ['visitors', 'accepted', 'delivered', 'booked'] as const;
export type SeriesMetric = (typeof SERIES_METRICS)[number];
/** One day of the chart; days where every metric is 0 are left out (the screen says how many). */
export type SeriesPoint = Record<SeriesMetric, number> & { day: string };

/** Field speed from visitors' browsers. */
export const VITAL_METRICS = ['LCP', 'INP', 'CLS'] as const;
export type VitalMetric = (typeof VITAL_METRICS)[number];
export type VitalFigure = {
  metric: VitalMetric;
  /** 75th percentile: milliseconds for LCP and INP, unitless for CLS. */
  p75: number;
  samples: number;
  /** Google's thresholds (LCP 2.5 s / 4 s, INP 200 / 500 ms, CLS 0.1 / 0.25). */
  rating: 'good' | 'needs-improvement' | 'poor';
};
/**
 * Google's thresholds for each metric: at or under the first "good", at or under the second "needs
 * improvement", above it "poor" (milliseconds for LCP and INP).
 */
export const VITAL_THRESHOLDS: Readonly<Record<VitalMetric, readonly [good: number, poor: number]>> = {
  LCP: [2_500, 4_000],
  INP: [200, 500],
  CLS: [0.1, 0.25],
};
/** A route's field speed; only metrics with at least `minSamples` samples in the range are listed. */
export type VitalsRoute = {
  path: string;
  figures: VitalFigure[];
  /** Page loads measured in the range (the most of any metric): how far a route under the minimum still has to go. */
  measured: number;
};

/**
 * GET /analytics/summary?from&to&campaign&source&page&form (analytics:read): the screen's first view.
 * The previous period is the same number of days ending the day before `from`.
 */
export type AnalyticsSummary = {
  range: DayRange;
  previousRange: DayRange;
  filter: AnalyticsFilter;
  figures: KeyFigure[];
  conversions: ConversionRow[];
  series: SeriesPoint[];
  /**
   * A point per day, or per month for a range longer than SERIES_DAILY_MAX_DAYS (a point's `day` is
   * then the month's first day in the range).
   */
  seriesGrain: 'day' | 'month';
  /** Days of the range with nothing at all (left out of `series`); by month, the days of the months left out. */
  emptyDays: number;
  /**
   * The first day the figures, the filters and the meetings are counted for, or null when they cover
   * every day counted (a site whose counting began before meetings were counted starts the day after).
   */
  countedFrom: string | null;
};

/** GET /analytics/vitals?from&to&page (analytics:read): field speed per route, its own section of the screen. */
export type VitalsReport = { minSamples: number; routes: VitalsRoute[] };

/** A meeting the booking provider told us about, as the console lists it. */
export type BookingView = {
  id: number;
  provider: BookingProvider;
  /** The lead it belongs to, or null when none matched (kept and listed, never dropped). */
  leadId: string | null;
  /** How it was matched: the lead id the page passed, or the invitee's e-mail. */
  matchedBy: 'lead-id' | 'email' | null;
  name: string;
  email: string;
  startsAt: string;
  endsAt: string | null;
  status: 'booked' | 'cancelled';
  lastChange: BookingChange;
  receivedAt: string;
};
/** GET /bookings?unmatched=1 (leads:read): meetings, newest first; with unmatched only those that match no lead. */
export type BookingList = { bookings: BookingView[] };

/** GET /me/weekly-summary, PUT /me/weekly-summary { enabled } (any signed-in person, own account only). */
export type WeeklySummaryChoice = {
  enabled: boolean;
  /** Whether e-mail is set up on this server (SMTP_URL); without it nothing can be sent. */
  emailConfigured: boolean;
  /** When it is sent, in words: "Mondays at 8:00 AM, New York time". */
  schedule: string;
};
