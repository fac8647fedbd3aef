import type { NotificationStore } from '../store/notifications/notification-store.ts';
import type { InboxStore, LeadRecord } from '../store/inbox/inbox-store.ts';
import type { JobStore } from '../store/jobs/job-store.ts';
import { createJobRunner, type JobRunner, type RunningJob } from '../jobs/job-runner.ts';
import type { PeriodRule } from '../jobs/periods.ts';
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { NotificationSettings, TestNotificationResult } from '../../console/api-types.ts';
import { LEAD_SOURCES } from '../../lead/rules.ts';
import type { Config } from '../config.ts';
import type {
  ClaimedNotification,
  NewNotification,
  NotificationChannel,
  NotificationDetail,
  NotificationKind,
  NotificationResult,
  NotifyLeadEvent,
} from '../store/notifications/notification-store.ts';
import { DAY_MS } from '../store/inbox/inbox-store.ts';
import { createEmailChannel, createWebhookChannel } from './channels.ts';
import type { Channel } from './channels.ts';
import { judgeIncident } from './incident.ts';
import {
  incidentOpenedMessage,
  incidentRecoveredMessage,
  leadFailedMessage,
  leadReassignedMessage,
  leadTestMessage,
  leadWaitingMessage,
  leadWaitingTeamMessage,
  newLeadMessage,
  spamDailyMessage,
  testMessage,
} from './messages.ts';
import type { Message, MessageContext } from './messages.ts';

// The notifier, apart from the lead relay's request path. Its work is split by who may do it:
// - The scan, a held loop (one server at a time, through the job runner): every few seconds it reads
//   what happened since its stored watermark (new leads, leads that became failed or delivered-test,
//   the CRM's delivery record), stores a notification per event and channel under a unique key, and
//   opens or closes the one delivery incident. One scanner means one judgement of the incident and
//   no duplicated reads; the unique keys would make a second scanner (a takeover mid-pass) harmless.
//   Events while no server ran are read from the watermark when one starts.
// - The spam count, a daily job (once per UTC day across servers, a few minutes into the day): it
//   stores the day before's spam count per alert channel under a key of that day.
// - Each source's queueing (the weekly summary), a periodic job of the source's own period.
// - Sending, in every server: each pass claims due notifications under a lease, sends them and
//   records each try, retrying on a schedule and then giving up. The claim gives each notification
//   to one process, so it is sent once however many servers send.
// Everything it knows lives in the store, so a restart resends nothing that was sent, and picks up
// what was not.

export const NOTIFIER_DEFAULTS = {
  pollIntervalMs: 5_000,
  // A lead's receive time is taken before its commit, and servers' clocks differ a little: each pass
  // looks this far behind its watermark, and the unique keys make the overlap harmless.
  overlapMs: 2 * 60_000,
  // Events taken per pass; a burst is worked through over the next passes.
  scanLimit: 200,
  claimLimit: 10,
  // Outlives one send (connect, greeting and socket timeouts): a notification is sent again only if its notifier died.
  leaseMs: 2 * 60_000,
  // About 1 min, 5 min, 30 min and 2 h between tries; after the last, it is given up (and logged).
  retryDelaysMs: [60_000, 300_000, 1_800_000, 7_200_000],
} as const;

const MINUTE_MS = 60_000;

export type NotifierConfig = Pick<
  Config,
  'smtpUrl' | 'smtpAllowPlaintext' | 'notifyTo' | 'notifyFrom' | 'alertAfterMinutes' | 'alertWebhookUrl' | 'siteUrl' | 'host' | 'port'
>;

export type NotifierTuning = {
  readonly now?: () => number;
  readonly pollIntervalMs?: number;
  readonly overlapMs?: number;
  readonly scanLimit?: number;
  readonly leaseMs?: number;
  readonly retryDelaysMs?: readonly number[];
  /** One limit for every step of a send (tests); production uses the channels' own. */
  readonly sendTimeoutMs?: number;
};

export type NotifierOptions = NotifierTuning & {
  readonly store: NotificationStore & InboxStore & JobStore;
  readonly config: NotifierConfig;
  readonly log: FastifyBaseLogger;
  /** Identifies this notifier's leases; one per process. */
  readonly owner?: string;
  /**
   * The process's job runner (the server's `app.jobs`), which runs the scan, the spam count and the
   * sources' queueing once across servers. A notifier alone (a test, a tool) gets a runner of its own.
   */
  readonly jobs?: Pick<JobRunner, 'periodic' | 'loop'>;
};

/** A claimed notification's message, or why there is none to send any more. */
export type Composed = { message: Message } | { skip: string };

/**
 * Notifications another part of the server schedules and words (the weekly summary): on each pass
 * the notifier lets it store what is due, under unique keys as its own events are, then sends them
 * through its outbox with the same lease, retries and giving up.
 */
export type NotificationSource = {
  readonly kinds: readonly NotificationKind[];
  /**
   * When the source has something to queue: its job's name and period. Its `queue` runs once per
   * period across servers (a few seconds into it, or when a server starts in a period not yet run).
   * Undefined: the source stores its notifications itself (the studio).
   */
  readonly schedule?: { readonly job: string; readonly period: PeriodRule };
  /** Stores what is due at `at` for the configured channels; a key already stored adds nothing. */
  queue(at: number, channels: readonly NotificationChannel[]): Promise<void>;
  compose(notification: ClaimedNotification): Promise<Composed>;
};

/** The notifier's jobs, as job_runs names them. */
export const NOTIFIER_JOBS = { scan: 'notifier-scan', spamDaily: 'spam-daily' } as const;

export type Notifier = {
  /** An e-mail or webhook channel is configured; without one the notifier does nothing. */
  readonly active: boolean;
  /** Whether e-mail can be sent (SMTP_URL and NOTIFY_TO are set). */
  readonly emailConfigured: boolean;
  /** Adds a source of notifications; attach every source before `start`. */
  attach(source: NotificationSource): void;
  start(): void;
  /** Stops the loop; resolves once the pass under way has recorded what it sent. Safe to call twice. */
  stop(): Promise<void>;
  settings(): Promise<NotificationSettings>;
  /** Switches a form's new-lead e-mail on or off for every process. False: no form has that name. */
  setFormEmail(form: string, on: boolean): Promise<boolean>;
  /** Sends a test message to every configured channel now (not through the outbox). */
  sendTest(): Promise<TestNotificationResult>;
  /** The delivery incident open now, if any. */
  openIncident(): Promise<{ since: number; lastError?: string } | undefined>;
};

/** What a failed try leads to: the next try after the schedule's wait, or giving up after the last. */
export function decideNotificationRetry(
  attemptsBefore: number,
  now: number,
  retryDelaysMs: readonly number[],
): { nextState: 'pending'; nextAttemptAt: number } | { nextState: 'given-up'; nextAttemptAt: undefined } {
  const delay = retryDelaysMs[attemptsBefore];
  return delay === undefined ? { nextState: 'given-up', nextAttemptAt: undefined } : { nextState: 'pending', nextAttemptAt: now + delay };
}

/** The escalation ladder's notices, each e-mailed to the people its detail names. */
const ESCALATION_MESSAGES: Partial<Record<NotificationKind, typeof leadWaitingMessage>> = {
  'lead-waiting': leadWaitingMessage,
  'lead-waiting-team': leadWaitingTeamMessage,
  'lead-reassigned': leadReassignedMessage,
};

const ALERT_KIND_BY_STATE: Readonly<Record<string, NotificationKind>> = { failed: 'lead-failed', 'delivered-test': 'lead-test' };

export function createNotifier(options: NotifierOptions): Notifier {
  const {
    store,
    config,
    log,
    now = Date.now,
    pollIntervalMs = NOTIFIER_DEFAULTS.pollIntervalMs,
    overlapMs = NOTIFIER_DEFAULTS.overlapMs,
    scanLimit = NOTIFIER_DEFAULTS.scanLimit,
    leaseMs = NOTIFIER_DEFAULTS.leaseMs,
    retryDelaysMs = NOTIFIER_DEFAULTS.retryDelaysMs,
    owner = `notifier-${randomUUID()}`,
    sendTimeoutMs,
  } = options;
  const jobs = options.jobs ?? createJobRunner({ store, log, holder: owner, now });

  const email =
    config.smtpUrl !== undefined && config.notifyTo.length > 0
      ? createEmailChannel({
          smtpUrl: config.smtpUrl,
          from: config.notifyFrom,
          to: config.notifyTo,
          allowPlaintext: config.smtpAllowPlaintext,
          timeoutMs: sendTimeoutMs,
        })
      : undefined;
  const webhook = config.alertWebhookUrl === undefined ? undefined : createWebhookChannel(config.alertWebhookUrl, sendTimeoutMs);
  const channels: Partial<Record<NotificationChannel, Channel>> = { email, webhook };
  const alertChannels = [email, webhook].filter((channel) => channel !== undefined).map((channel) => channel.name);
  const active = alertChannels.length > 0;
  const context: MessageContext = { siteUrl: config.siteUrl ?? `http://${config.host}:${config.port}` };
  const alertAfterMs = config.alertAfterMinutes * MINUTE_MS;

  const sources: NotificationSource[] = [];
  const running: RunningJob[] = [];

  let sending: Promise<void> | undefined;
  let stopping = false;
  let wake: (() => void) | undefined;

  function alertsFor(kind: NotificationKind, eventKey: string, eventAt: number, leadId: string | undefined, detail: NotificationDetail) {
    return alertChannels.map((channel): NewNotification => ({
      key: `${kind}:${eventKey}:${channel}`,
      channel,
      kind,
      leadId,
      eventAt,
      detail,
      createdAt: now(),
    }));
  }

  function newLeadNotification(event: NotifyLeadEvent, createdAt: number): NewNotification {
    return {
      key: `new-lead:${event.leadId}:email`,
      channel: 'email',
      kind: 'new-lead',
      leadId: event.leadId,
      eventAt: event.at,
      detail: {},
      createdAt,
    };
  }

  async function findEvents(): Promise<void> {
    const startedAt = now();
    const watermark = await store.notifyWatermark();
    const since = (watermark ?? startedAt) - overlapMs;
    const events = await store.readNotifyEvents({ since, limit: scanLimit, newLeads: email !== undefined });
    const notifications = [
      ...events.newLeads.map((event) => newLeadNotification(event, startedAt)),
      ...events.settledLeads.flatMap((event) => {
        const kind = ALERT_KIND_BY_STATE[event.state];
        return kind === undefined ? [] : alertsFor(kind, `${event.leadId}:${event.at}`, event.at, event.leadId, {});
      }),
    ];
    // A full batch may have left events behind: the watermark stays, and the next pass takes the rest.
    const full = events.newLeads.length >= scanLimit || events.settledLeads.length >= scanLimit;
    const stored = await store.enqueueNotifications(notifications, full ? undefined : startedAt);
    if (stored > 0) log.debug({ stored }, 'notifications queued');

    const open = await store.findOpenIncident();
    const decision = judgeIncident({ health: events.health, open, now: startedAt, alertAfterMs });
    if (decision.kind === 'open') {
      const detail = { since: decision.since, lastError: decision.lastError ?? 'unknown', openedAt: startedAt };
      const opened = await store.startIncident(
        { since: decision.since, lastError: decision.lastError, openedAt: startedAt },
        alertsFor('incident-opened', String(decision.since), decision.since, undefined, detail),
      );
      if (opened) {
        log.error(
          { since: new Date(decision.since).toISOString(), lastError: decision.lastError },
          'delivery incident: no lead has reached the CRM since the first failure',
        );
      }
    } else if (decision.kind === 'recover') {
      const detail = { since: decision.since, recoveredAt: decision.recoveredAt };
      const closed = await store.endIncident(
        decision.since,
        decision.recoveredAt,
        alertsFor('incident-recovered', String(decision.since), decision.recoveredAt, undefined, detail),
      );
      if (closed) log.info({ since: new Date(decision.since).toISOString() }, 'delivery incident over: a lead reached the CRM again');
    }
  }

  // The spam of the UTC day before, counted once that day is over and its last leads have committed
  // (a lead's receive time is taken before its commit: the daily job is due the same overlap as the
  // scan's into the day, and the day counted is the one before the day `overlapMs` ago, so no older
  // day is ever called yesterday and no day is counted before its last leads are in). A day without
  // spam sends nothing. The count is the Spam view's for that day, read when it is stored; a lead
  // marked "Not spam" later is still in the message, and the link shows what is left. A day when no
  // server ran is counted by the first run of the next (the key of the day makes a repeat add nothing);
  // only the day just before is ever counted.
  async function queueSpamDaily(at: number): Promise<void> {
    const today = Math.floor((at - overlapMs) / DAY_MS) * DAY_MS;
    const dayStart = today - DAY_MS;
    const day = new Date(dayStart).toISOString().slice(0, 10);
    const count = await store.countSpam(dayStart, dayStart + DAY_MS);
    if (count > 0) {
      const stored = await store.enqueueNotifications(alertsFor('spam-daily', day, dayStart + DAY_MS, undefined, { day, count }));
      if (stored > 0) log.info({ day, count }, 'spam count of the day queued');
    }
  }

  // The message for a claimed notification, or why there is none to send any more.
  async function compose(notification: ClaimedNotification): Promise<Composed> {
    const { detail } = notification;
    const source = sources.find((candidate) => candidate.kinds.includes(notification.kind));
    if (source !== undefined) return source.compose(notification);
    if (notification.kind === 'incident-opened') {
      return {
        message: incidentOpenedMessage(
          { since: Number(detail.since), lastError: String(detail.lastError), now: Number(detail.openedAt ?? now()) },
          context,
        ),
      };
    }
    if (notification.kind === 'incident-recovered') {
      return { message: incidentRecoveredMessage({ since: Number(detail.since), recoveredAt: Number(detail.recoveredAt) }, context) };
    }
    if (notification.kind === 'spam-daily') {
      return { message: spamDailyMessage({ day: String(detail.day), count: Number(detail.count) }, context) };
    }
    const lead = notification.leadId === undefined ? undefined : await store.getLead(notification.leadId);
    if (lead === undefined) return { skip: 'the lead was erased' };
    const escalation = ESCALATION_MESSAGES[notification.kind];
    if (escalation !== undefined) return composeEscalation(notification, lead, escalation);
    const renders: Partial<Record<NotificationKind, typeof newLeadMessage>> = {
      'new-lead': newLeadMessage,
      'lead-failed': leadFailedMessage,
      'lead-test': leadTestMessage,
    };
    const render = renders[notification.kind];
    if (render === undefined) return { skip: `no message for notifications of the kind ${notification.kind}` };
    return { message: render(lead, context) };
  }

  // The ladder's notices: the e-mail goes to the people the step named (the owner, the sales team,
  // the new owner), never to NOTIFY_TO; the webhook gets the same words.
  function composeEscalation(
    notification: ClaimedNotification,
    lead: LeadRecord,
    render: typeof leadWaitingMessage,
  ): { message: Message } | { skip: string } {
    const { detail } = notification;
    const text = (value: string | number | undefined) => (value === undefined || value === '' ? undefined : String(value));
    const facts = { minutes: Number(detail.minutes ?? 0), owner: text(detail.owner), newOwner: text(detail.newOwner) };
    const message = render(lead, facts, context);
    if (notification.channel !== 'email') return { message };
    const to = (text(detail.to) ?? '').split(',').filter((address) => address !== '');
    if (to.length === 0) return { skip: 'nobody to e-mail: the step named no one' };
    return { message: { ...message, email: { ...message.email, to } } };
  }

  async function sendOne(notification: ClaimedNotification): Promise<NotificationResult> {
    const base = { id: notification.id, owner };
    const fields = { notificationId: notification.id, kind: notification.kind, channel: notification.channel, leadId: notification.leadId };
    const channel = channels[notification.channel];
    const composed =
      channel === undefined ? { skip: `the ${notification.channel} channel is no longer configured` } : await compose(notification);
    if ('skip' in composed || channel === undefined) {
      const reason = 'skip' in composed ? composed.skip : 'no channel';
      log.info({ ...fields, reason }, 'notification skipped');
      return { ...base, at: now(), nextState: 'skipped', error: reason, nextAttemptAt: undefined };
    }
    const outcome = await channel.send(composed.message);
    const at = now();
    if (outcome.ok) {
      log.info({ ...fields, attempt: notification.attempts + 1 }, 'notification sent');
      return { ...base, at, nextState: 'sent', error: undefined, nextAttemptAt: undefined };
    }
    const retry = decideNotificationRetry(notification.attempts, at, retryDelaysMs);
    if (retry.nextState === 'given-up') {
      log.error({ ...fields, attempts: notification.attempts + 1, error: outcome.error }, 'notification given up after its last try');
    } else {
      log.warn(
        { ...fields, attempt: notification.attempts + 1, error: outcome.error, nextAttemptAt: new Date(retry.nextAttemptAt).toISOString() },
        'notification not sent; will retry',
      );
    }
    return { ...base, at, nextState: retry.nextState, error: outcome.error, nextAttemptAt: retry.nextAttemptAt };
  }

  async function sendDue(): Promise<void> {
    const claimed = await store.claimNotifications({ now: now(), limit: NOTIFIER_DEFAULTS.claimLimit, owner, leaseMs });
    if (claimed.length === 0) return;
    await store.recordNotificationResults(await Promise.all(claimed.map(sendOne)));
  }

  async function scan(): Promise<void> {
    // A store hiccup is logged, and the next pass tries again.
    try {
      await findEvents();
    } catch (error) {
      log.error({ err: error }, 'notifier: could not look for new events');
    }
    sendSoon();
  }

  // What this process just queued goes out at once, not at its sending loop's next turn (the other
  // servers' loops may claim it first; the claim sends it once either way).
  function sendSoon(): void {
    wake?.();
  }

  async function send(): Promise<void> {
    try {
      await sendDue();
    } catch (error) {
      log.error({ err: error }, 'notifier: could not send or record due notifications');
    }
  }

  function startJobs(): void {
    running.push(jobs.loop({ name: NOTIFIER_JOBS.scan, intervalMs: pollIntervalMs, now, pass: scan }));
    running.push(
      jobs.periodic({
        name: NOTIFIER_JOBS.spamDaily,
        period: 'day',
        dueAfterMs: overlapMs,
        now,
        checkIntervalMs: pollIntervalMs,
        run: async ({ at }) => {
          await queueSpamDaily(at);
          sendSoon();
        },
      }),
    );
    for (const source of sources) {
      const { schedule } = source;
      if (schedule === undefined) continue;
      running.push(
        jobs.periodic({
          name: schedule.job,
          period: schedule.period,
          now,
          checkIntervalMs: pollIntervalMs,
          run: async ({ at }) => {
            await source.queue(at, alertChannels);
            sendSoon();
          },
        }),
      );
    }
  }

  async function loop(): Promise<void> {
    while (!stopping) {
      await send();
      if (stopping) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollIntervalMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  }

  const formNames = Object.values(LEAD_SOURCES) as string[];

  return {
    active,
    emailConfigured: email !== undefined,
    attach(source) {
      sources.push(source);
    },
    start() {
      if (!active || sending !== undefined) return;
      startJobs();
      sending = loop();
    },
    async stop() {
      stopping = true;
      wake?.();
      await Promise.all([...running.splice(0).map((job) => job.stop()), sending]);
      email?.close();
      webhook?.close();
    },
    async settings() {
      const stored = new Map((await store.listNotifyForms()).map((setting) => [setting.form, setting.newLeadEmail]));
      return {
        email: email !== undefined,
        webhook: webhook !== undefined,
        alertAfterMinutes: config.alertAfterMinutes,
        forms: formNames.map((form) => ({ form, newLeadEmail: stored.get(form) ?? true })),
      };
    },
    async setFormEmail(form, on) {
      if (!formNames.includes(form)) return false;
      await store.setNotifyForm(form, on, now());
      return true;
    },
    async sendTest() {
      const message = testMessage(now(), context);
      const configured = [email, webhook].filter((channel) => channel !== undefined);
      const outcomes = await Promise.all(configured.map((channel) => channel.send(message)));
      const results = configured.map((channel, index) => {
        const outcome = outcomes[index];
        return { channel: channel.name, ok: outcome?.ok === true, error: outcome?.ok === false ? outcome.error : null };
      });
      log.info({ results }, 'test notification sent');
      return { channels: results };
    },
    async openIncident() {
      const incident = await store.findOpenIncident();
      if (incident === undefined) return undefined;
      return incident.lastError === undefined ? { since: incident.since } : { since: incident.since, lastError: incident.lastError };
    },
  };
}
