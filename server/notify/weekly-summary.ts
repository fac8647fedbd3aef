import type { FastifyBaseLogger } from 'fastify';
import type { DayRange } from '../../console/api-types.ts';
import { can } from '../../back-office/roles.ts';
import type { AnalyticsStore } from '../analytics/analytics-store.ts';
import { speedFigures } from '../sales/speed-figures.ts';
import { describeZone, wallToInstant, type WeeklyHours } from '../sales/working-time.ts';
import type { NewNotification, NotificationChannel, NotificationStore } from '../store/notifications/notification-store.ts';
import type { SalesStore } from '../store/sales/sales-store.ts';
import type { MessageContext } from './messages.ts';
import type { NotificationSource } from './notifier.ts';
import { analyticsSummary } from '../analytics/summary.ts';
import type { Period } from '../jobs/periods.ts';
import { weeklySummaryMessage } from './weekly-summary-message.ts';

// The weekly summary by e-mail, for each account that asked for it: once a week, on Monday at 8:00 in
// the site's time zone (its business hours' zone), the key figures of the 7 days before against the 7
// days before those, what converted, and the speed to lead.
// - Exactly once per account and week: each is one row in the notifier's outbox under the key
//   `weekly-summary:<the Monday>:<account>:email`, so a second process, or a restart, stores nothing.
// - Queued by one server a week: the job `weekly-summary`, whose period is the week from one Monday
//   8:00 to the next, runs once per such week across servers (through the job runner).
// - A week missed while no server ran is sent when one starts, once: its run looks only at the
//   latest Monday 8:00 that has passed, never at the weeks before it.
// - Only accounts that chose it by that Monday 8:00 get that week's (one switched on later waits for
//   the next), only while e-mail is configured, and only to roles that may read the visit reports,
//   since that is what it holds.
// - The figures are read when it is sent, for the account as it is then: one removed, switched off or
//   no longer allowed to read the reports meanwhile gets nothing (the row is skipped).
// The week is whole UTC days, as the Analytics screen counts them: the 7 that ended before the
// Monday 8:00 (in the Americas and Europe, Monday to Sunday).

export const WEEKLY_SUMMARY_KIND = 'weekly-summary' as const;
/** The job that queues them, as job_runs names it. */
export const WEEKLY_SUMMARY_JOB = 'weekly-summary';
/** Monday, 8:00 in the morning. */
export const SEND_WEEKDAY = 1;
export const SEND_MINUTE = 8 * 60;

const DAY_MS = 24 * 60 * 60 * 1000;

/** When it is sent, in words: "Mondays at 8:00 AM, New York time". */
export function weeklySummarySchedule(timeZone: string): string {
  return `Mondays at 8:00 AM, ${describeZone(timeZone)}`;
}

/** One week's summary: the Monday it is for (a local date), when it is due, and the days it covers. */
export type SummaryWeek = {
  /** The local date of the Monday, YYYY-MM-DD. */
  readonly week: string;
  /** That Monday at 8:00 in the site's zone. */
  readonly dueAt: number;
  /** The 7 whole UTC days that ended before `dueAt`. */
  readonly range: DayRange;
};

const dayOf = (at: number) => new Date(at).toISOString().slice(0, 10);

const formatters = new Map<string, Intl.DateTimeFormat>();
/** The local calendar date at `at` in `zone`, as a UTC midnight. */
function localDate(zone: string, at: number): number {
  let formatter = formatters.get(zone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: 'numeric', day: 'numeric' });
    formatters.set(zone, formatter);
  }
  const parts = Object.fromEntries(formatter.formatToParts(at).map((part) => [part.type, part.value]));
  return Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day));
}

function dueOn(zone: string, date: number): number {
  const day = new Date(date);
  return wallToInstant(zone, day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate(), SEND_MINUTE);
}

/** The latest week whose summary is due at `at`: the last Monday 8:00 in `zone` at or before it. */
export function summaryWeekAt(at: number, zone: string): SummaryWeek {
  const today = localDate(zone, at);
  let monday = today - ((new Date(today).getUTCDay() - SEND_WEEKDAY + 7) % 7) * DAY_MS;
  if (dueOn(zone, monday) > at) monday -= 7 * DAY_MS;
  const dueAt = dueOn(zone, monday);
  const lastDay = Math.floor(dueAt / DAY_MS) * DAY_MS - DAY_MS;
  return { week: dayOf(monday), dueAt, range: { from: dayOf(lastDay - 6 * DAY_MS), to: dayOf(lastDay) } };
}

/** The week a summary is queued in: from its Monday 8:00 in `zone` to the next, keyed by the Monday's date. */
export function summaryPeriod(at: number, zone: string): Period {
  const week = summaryWeekAt(at, zone);
  // A week later and two hours, past any daylight-saving shift: the next Monday 8:00.
  const next = summaryWeekAt(week.dueAt + 7 * DAY_MS + 2 * 60 * 60_000, zone);
  return { key: week.week, start: week.dueAt, end: next.dueAt };
}

export type WeeklySummaryOptions = {
  readonly store: Pick<NotificationStore, 'enqueueNotifications' | 'listWeeklySummaryRecipients'> & Pick<SalesStore, 'listSpeedRows'>;
  readonly analytics: AnalyticsStore;
  /** The site's business hours now: their zone sets when it is sent, their hours how speed is counted. */
  readonly siteHours: () => WeeklyHours;
  readonly context: MessageContext;
  readonly log: FastifyBaseLogger;
  readonly now?: () => number;
};

export type WeeklySummaryJob = NotificationSource & {
  /** Stores the summaries due at `at`; how many were new. */
  queueDue(at: number): Promise<number>;
};

/** The weekly summary, as a source of the notifier's e-mails. */
export function createWeeklySummary({ store, analytics, siteHours, context, log, now = Date.now }: WeeklySummaryOptions): WeeklySummaryJob {
  // The week this process has queued; a restart queues it once more, and the keys add nothing.
  let weekQueued: string | undefined;

  async function queueDue(at: number): Promise<number> {
    const week = summaryWeekAt(at, siteHours().timeZone);
    if (week.week === weekQueued) return 0;
    const recipients = (await store.listWeeklySummaryRecipients(week.dueAt)).filter((recipient) => can(recipient.role, 'analytics:read'));
    const notifications = recipients.map((recipient): NewNotification => ({
      key: `${WEEKLY_SUMMARY_KIND}:${week.week}:${recipient.accountId}:email`,
      channel: 'email',
      kind: WEEKLY_SUMMARY_KIND,
      leadId: undefined,
      eventAt: week.dueAt,
      detail: { week: week.week, from: week.range.from, to: week.range.to, accountId: recipient.accountId },
      createdAt: at,
    }));
    const stored = notifications.length === 0 ? 0 : await store.enqueueNotifications(notifications);
    if (stored > 0) log.info({ week: week.week, stored }, 'weekly summaries queued');
    weekQueued = week.week;
    return stored;
  }

  async function speedOf(range: DayRange, at: number) {
    const from = Date.parse(`${range.from}T00:00:00Z`);
    const before = Date.parse(`${range.to}T00:00:00Z`) + DAY_MS;
    return speedFigures(await store.listSpeedRows(from, before), siteHours(), at);
  }

  return {
    kinds: [WEEKLY_SUMMARY_KIND],
    schedule: { job: WEEKLY_SUMMARY_JOB, period: (at) => summaryPeriod(at, siteHours().timeZone) },
    queueDue,
    async queue(at: number, channels: readonly NotificationChannel[]) {
      if (channels.includes('email')) await queueDue(at);
    },
    async compose(notification) {
      if (notification.channel !== 'email') return { skip: 'the weekly summary goes by e-mail only' };
      const accountId = String(notification.detail.accountId ?? '');
      const recipient = (await store.listWeeklySummaryRecipients()).find((candidate) => candidate.accountId === accountId);
      if (recipient === undefined) return { skip: 'the account switched the weekly summary off or was removed' };
      if (!can(recipient.role, 'analytics:read')) return { skip: "the account's role no longer shows the visit reports" };
      const range = { from: String(notification.detail.from), to: String(notification.detail.to) };
      const at = now();
      // The Analytics screen's own figures for those days, unfiltered: the e-mail and the screen agree.
      const summary = await analyticsSummary(analytics, range, {});
      const [week, before] = await Promise.all([speedOf(summary.range, at), speedOf(summary.previousRange, at)]);
      const message = weeklySummaryMessage({ ...summary, speed: { week, before } }, context);
      return { message: { ...message, email: { ...message.email, to: [recipient.email] } } };
    },
  };
}
