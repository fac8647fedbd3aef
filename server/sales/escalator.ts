import type { FastifyBaseLogger } from 'fastify';
import { SYSTEM_ACTOR } from '../../back-office/accounts/audit-trail.ts';
import type { NewNotification, NotificationChannel, NotificationKind } from '../store/notifications/notification-store.ts';
import type { NewActivity, SalesStore, UntouchedLead } from '../store/sales/sales-store.ts';
import { assignedText } from './assigner.ts';

import { ownerFollowUp } from './crm-follow-ups.ts';
import { dueStep, reassignTarget } from './escalation.ts';
import { emailOf, readTeam, roundRobinPeople, type TeamMember, type TeamStore } from './sales-team.ts';
import { createJobRunner, type JobRunner, type RunningJob } from '../jobs/job-runner.ts';
import type { JobStore } from '../store/jobs/job-store.ts';
import { workingMsBetween, type WeeklyHours } from './working-time.ts';

// The escalation ladder: a lead nobody has touched climbs one step each time its business-hours
// clock passes a threshold (ESCALATE_AFTER_MINUTES, default 5, 15, 60): 1 its owner is told (with no
// owner yet, the team is), 2 the whole sales team is told, 3 it goes to the next available person,
// who is told. Each step is taken by the store's `escalate`, which refuses a lead a person has
// touched (a logged call or e-mail, a booked meeting, a status beyond new: an automatic message
// never counts) or that another process moved on already, and stores the step's notices in the same
// transaction under keys of the lead and the step: each notice goes out once, through the
// notifier's retried outbox, across processes and restarts. Nothing here is on a request's path.
// The ladder's look is a held loop of the job runner (`escalation`): one server at a time looks, so
// the untouched leads are read once per turn, not once per server; another takes over within about
// a lease of the holder dying. A lead whose step fell due while no server ran takes it at the first
// look (each look takes whatever step is due then).

export const ESCALATOR_DEFAULTS = {
  intervalMs: 15_000,
  /** Untouched leads read per pass (oldest first). */
  batchSize: 500,
} as const;

export type EscalatorStore = TeamStore & Pick<SalesStore, 'listUntouched' | 'escalate' | 'listActivities'> & JobStore;

/** The ladder's loop, as job_runs names it. */
export const ESCALATION_JOB = 'escalation';

export type EscalatorOptions = {
  readonly store: EscalatorStore;
  readonly siteHours: () => WeeklyHours;
  /** ESCALATE_AFTER_MINUTES: the three thresholds, in business minutes. */
  readonly steps: readonly number[];
  /** The notification channels configured (e-mail with SMTP_URL, the webhook with ALERT_WEBHOOK_URL). */
  readonly channels: readonly NotificationChannel[];
  readonly log: FastifyBaseLogger;
  readonly now?: () => number;
  readonly intervalMs?: number;
  readonly batchSize?: number;
  /** The process's job runner (`app.jobs`); an escalator alone (a test) gets a runner of its own. */
  readonly jobs?: Pick<JobRunner, 'loop'>;
};

export type Escalator = {
  start(): void;
  /** One pass now (tests with a fake clock, and the loop): the number of steps taken. */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
};

/** The key of a step's notice on one channel: the same lead, step and channel is stored once, whoever stores it. */
export function escalationKey(leadId: string, step: number, channel: NotificationChannel): string {
  return `escalation:${leadId}:${step}:${channel}`;
}

export function createEscalator(options: EscalatorOptions): Escalator {
  const {
    store,
    siteHours,
    steps,
    channels,
    log,
    now = Date.now,
    intervalMs = ESCALATOR_DEFAULTS.intervalMs,
    batchSize = ESCALATOR_DEFAULTS.batchSize,
  } = options;

  function notices(
    lead: UntouchedLead,
    step: number,
    at: number,
    kind: NotificationKind,
    to: readonly string[],
    detail: Record<string, string | number>,
  ): NewNotification[] {
    return channels.map((channel) => ({
      key: escalationKey(lead.leadId, step, channel),
      channel,
      kind,
      leadId: lead.leadId,
      eventAt: at,
      detail: channel === 'email' ? { ...detail, to: to.join(',') } : detail,
      createdAt: at,
    }));
  }

  function systemActivity(lead: UntouchedLead, at: number, kind: NewActivity['kind'], detail: NewActivity['detail']): NewActivity {
    return { leadId: lead.leadId, at, kind, actorId: undefined, actor: SYSTEM_ACTOR, detail };
  }

  /** Whether the lead's step 1 went to the whole team (it had no owner then), as its timeline recorded it. */
  async function teamToldAtStepOne(leadId: string): Promise<boolean> {
    const activities = await store.listActivities(leadId);
    return activities.some((activity) => activity.kind === 'escalated' && activity.detail.step === 1 && activity.detail.told === 'team');
  }

  async function climb(lead: UntouchedLead, step: number, team: readonly TeamMember[], hours: WeeklyHours, at: number): Promise<boolean> {
    const minutes = Math.floor(workingMsBetween(hours, lead.clockStartsAt, at) / 60_000);
    const owner = emailOf(team, lead.ownerId);
    const salesTeam = roundRobinPeople(team).map((member) => member.email);
    if (step === 3) {
      const people = roundRobinPeople(team);
      const choice = { ownerId: reassignTarget(lead.ownerId, people, at) };
      const newOwner = emailOf(team, choice.ownerId);
      const reason = `nobody touched it in ${minutes} minutes of business hours`;
      const detail = { step, minutes, owner: owner ?? '', newOwner: newOwner ?? '' };
      // Nobody else available: the lead stays where it is and the team hears so; the step is taken all the same, once.
      return store.escalate({
        leadId: lead.leadId,
        step,
        expectedOwnerId: lead.ownerId,
        at,
        notifications: notices(
          lead,
          step,
          at,
          choice.ownerId === undefined ? 'lead-waiting-team' : 'lead-reassigned',
          choice.ownerId === undefined ? salesTeam : [newOwner ?? ''],
          detail,
        ),
        ...(choice.ownerId === undefined
          ? {}
          : {
              reassign: {
                ownerId: choice.ownerId,
                activity: systemActivity(lead, at, 'assigned', {
                  ownerId: choice.ownerId,
                  owner: newOwner ?? null,
                  previousOwner: owner ?? null,
                  reason,
                }),
                crmEvents: [ownerFollowUp({ leadId: lead.leadId, at, ownerEmail: newOwner, previousOwnerEmail: owner })],
                roundRobin: true,
              },
            }),
        activity: systemActivity(lead, at, 'escalated', {
          step,
          minutes,
          told: choice.ownerId === undefined ? 'team' : 'new-owner',
          owner: owner ?? null,
        }),
        audit:
          choice.ownerId === undefined
            ? undefined
            : {
                at,
                actor: SYSTEM_ACTOR,
                action: 'lead.reassign',
                detail: `${lead.leadId}: ${assignedText(newOwner, reason)}${owner === undefined ? '' : `, was ${owner}`}`,
              },
      });
    }
    // Step 1 tells the owner; a lead without one (nobody was available) has nobody to tell but the team.
    const toOwner = step === 1 && owner !== undefined;
    // The team hears of a lead once: when step 1 already told them (no owner then), step 2 is taken
    // without a second notice, so the ladder still moves on to the reassignment.
    const teamToldAlready = step === 2 && (await teamToldAtStepOne(lead.leadId));
    const told = toOwner ? 'owner' : teamToldAlready ? 'team-already' : 'team';
    return store.escalate({
      leadId: lead.leadId,
      step,
      expectedOwnerId: lead.ownerId,
      at,
      notifications: teamToldAlready
        ? []
        : notices(lead, step, at, toOwner ? 'lead-waiting' : 'lead-waiting-team', toOwner ? [owner] : salesTeam, {
            step,
            minutes,
            owner: owner ?? '',
          }),
      activity: systemActivity(lead, at, 'escalated', { step, minutes, told, owner: owner ?? null }),
      audit: undefined,
    });
  }

  async function runOnce(): Promise<number> {
    const at = now();
    const hours = siteHours();
    const untouched = await store.listUntouched({ limit: batchSize });
    let team: TeamMember[] | undefined;
    let taken = 0;
    for (const lead of untouched) {
      const due = dueStep(lead, hours, steps, at);
      if (due === undefined) continue;
      team ??= await readTeam(store, hours);
      if (!(await climb(lead, due.step, team, hours, at))) continue;
      taken += 1;
      log.info({ leadId: lead.leadId, step: due.step, lateMs: at - due.dueAt }, 'lead escalated: nobody has touched it');
      // A reassignment moved the new owner's place in the round.
      if (due.step === 3) team = undefined;
    }
    return taken;
  }

  async function pass(): Promise<void> {
    try {
      await runOnce();
    } catch (error) {
      log.error({ err: error }, 'escalation: could not look at waiting leads; trying again shortly');
    }
  }

  let loop: RunningJob | undefined;
  return {
    start() {
      const jobs = options.jobs ?? createJobRunner({ store, log, now });
      loop ??= jobs.loop({ name: ESCALATION_JOB, intervalMs, now, pass });
    },
    async stop() {
      await loop?.stop();
    },
    runOnce,
  };
}
