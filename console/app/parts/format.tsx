// Times and amounts as people read them: the API's UTC instants in the reader's own time zone.
import { leadStatusOf, type DeliveryState, type LeadStatus } from '../../api-types.ts';

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

/** Each status's word: the badge shows text, so a status never rests on colour alone. */
export const STATUS_LABELS: Readonly<Record<LeadStatus, string>> = {
  held: 'Held',
  waiting: 'Waiting',
  retrying: 'Retrying',
  delivered: 'Delivered',
  'delivered-test': 'Delivered (test)',
  failed: 'Failed',
  spam: 'Spam',
};

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

/** An attempt's outcome in the same words: a refused attempt with more to come is "Retrying". */
export function attemptStatusOf(outcome: DeliveryState): LeadStatus {
  return leadStatusOf(outcome, 1);
}
