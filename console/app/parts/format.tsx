// Times and amounts as people read them: the API's UTC instants in the reader's own time zone.
import { leadStatusOf, type DeliveryState, type LeadStatus, type SalesStatus, type TouchOutcome } from '../../api-types.ts';

const DATE_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const NUMBER = new Intl.NumberFormat();
const PERCENT = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 });

/** `12345` → `12,345` in the reader's own way of writing numbers. */
export function formatNumber(count: number): string {
  return NUMBER.format(count);
}

/** A share (0.125) as a percentage (`12.5%`); `n/a` when there was nothing to take a share of. */
export function formatPercent(share: number | undefined): string {
  return share === undefined ? 'n/a' : PERCENT.format(share);
}

export function formatTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : DATE_TIME.format(date);
}

/** `95` → `1 h 35 min`, `3000` → `2 days 2 h`. */
export function formatMinutes(minutes: number): string {
  const whole = Math.max(0, Math.round(minutes));
  if (whole < 60) return `${whole} min`;
  const days = Math.floor(whole / 1440);
  const hours = Math.floor((whole % 1440) / 60);
  const rest = whole % 60;
  if (days > 0) return `${days} ${days === 1 ? 'day' : 'days'}${hours ? ` ${hours} h` : ''}`;
  return `${hours} h${rest ? ` ${rest} min` : ''}`;
}

export function formatSeconds(seconds: number): string {
  return seconds < 60 ? `${Math.ceil(seconds)} seconds` : formatMinutes(Math.ceil(seconds / 60));
}

export function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/**
 * Each CRM delivery status's words: the badge shows text, so a status never rests on colour alone.
 * They say what happened with the CRM, never "delivered" alone, so nobody reads a lead the CRM has
 * as a sale (the sale has its own status, SALES_STATUS_LABELS).
 */
export const STATUS_LABELS: Readonly<Record<LeadStatus, string>> = {
  held: 'Waiting for a CRM address',
  waiting: 'Waiting to be sent',
  retrying: 'Still trying',
  delivered: 'Sent to the CRM',
  'delivered-test': 'Sent to the CRM as a test',
  failed: 'Gave up',
  spam: 'Spam',
};

/** Where the sale stands, in the sales team's words. */
export const SALES_STATUS_LABELS: Readonly<Record<SalesStatus, string>> = {
  new: 'New',
  contacted: 'Contacted',
  qualified: 'Qualified',
  won: 'Won',
  lost: 'Lost',
};

/** The outcomes a person picks after a call, and the one after an e-mail. */
export const OUTCOME_LABELS: Readonly<Record<TouchOutcome, string>> = {
  reached: 'Reached them',
  'left-voicemail': 'Left a voicemail',
  'no-answer': 'No answer',
  'wrong-number': 'Wrong number',
  sent: 'E-mail sent',
};

/** How long a lead has waited, as its clock shows it: "12 min", "2 h 5 min". */
export function formatClock(minutes: number): string {
  const whole = Math.max(0, Math.floor(minutes));
  if (whole < 60) return `${whole} min`;
  const hours = Math.floor(whole / 60);
  const rest = whole % 60;
  return `${hours} h${rest ? ` ${rest} min` : ''}`;
}

/** A clock's urgency: late past 5 minutes (the first escalation), soon from 3. */
export function clockUrgency(minutes: number): 'late' | 'soon' | 'fresh' {
  if (minutes > 5) return 'late';
  return minutes >= 3 ? 'soon' : 'fresh';
}

const TIME_OF_DAY = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });
const DAY_AND_TIME = new Intl.DateTimeFormat(undefined, { weekday: 'short', hour: 'numeric', minute: '2-digit' });

/** When a clock starts, in the reader's time zone: "9:00 AM" today, "Mon 9:00 AM" another day. */
export function formatClockStart(iso: string, now: number): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return at.toDateString() === new Date(now).toDateString() ? TIME_OF_DAY.format(at) : DAY_AND_TIME.format(at);
}

/** What each status means, for the filter's hints and the lead's page. */
export const STATUS_MEANINGS: Readonly<Record<LeadStatus, string>> = {
  held: 'Kept here: no CRM is set up to send it to.',
  waiting: 'Due to be sent to the CRM.',
  retrying: 'The CRM did not take the last attempt; it is tried again on schedule.',
  delivered: 'The CRM has it.',
  'delivered-test': 'The CRM took it only as a test: its workflow was in draft.',
  failed: 'Given up: no attempts left, or the CRM refused it for good.',
  spam: 'Judged spam: never sent to the CRM unless marked "Not spam".',
};

/**
 * Text a visitor typed, set apart from what surrounds it: a direction control inside it (U+202E in
 * `Bob\u202Egnp.exe`) reorders only its own characters, never the words, badge or column beside it.
 * The text itself is shown as typed.
 */
export function VisitorText({ children }: { children: string | null | undefined }) {
  return <bdi dir="auto">{children}</bdi>;
}

export function StatusBadge({ status }: { status: LeadStatus }) {
  return <span className={`badge badge-${status}`}>{STATUS_LABELS[status]}</span>;
}

/** An attempt's outcome in the same words: a refused attempt with more to come is "Still trying". */
export function attemptStatusOf(outcome: DeliveryState): LeadStatus {
  return leadStatusOf(outcome, 1);
}
