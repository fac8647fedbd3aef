import type { FastifyBaseLogger } from 'fastify';
import { SYSTEM_ACTOR } from '../../back-office/accounts/audit-trail.ts';
import {
  RECENT_LEAD_MS,
  type AccountId,
  type NewActivity,
  type Placement,
  type SalesStore,
  type UnplacedLead,
} from '../store/sales/sales-store.ts';
import { chooseOwner, emailDomain, isCompanyDomain } from './assignment.ts';
import { reassignTarget } from './escalation.ts';
import { isAvailable } from './availability.ts';
import { ownerFollowUp } from './crm-follow-ups.ts';
import { emailOf, readTeam, roundRobinPeople, type TeamMember, type TeamStore } from './sales-team.ts';
import { createWorkLoop } from './work-loop.ts';
import { nextOpening, type WeeklyHours } from './working-time.ts';

// The assigner: gives every stored real lead an owner within seconds. The relay wakes it right
// after it answered the visitor (taking a lead never waits for it, and its errors are only logged);
// it also sweeps every few seconds, so a lead stored by another process, while this one was down,
// or marked "Not spam" later is placed too. Each lead is placed exactly once across processes (the
// store's `place` writes only when no process has placed it yet).
//
// For each lead: the same person again (same e-mail or phone within 30 days) joins their earlier
// lead, with its owner and no clock of its own; otherwise the rules and round-robin choose among the
// sales people available now, and the clock starts at the lead's arrival or the next business
// opening. Nobody available: the lead waits unassigned ("Not assigned yet") and the sweep gives it
// to the first person who becomes available.

export const ASSIGNER_DEFAULTS = {
  /** How often the sweep looks for leads to place and unassigned leads to give out. */
  sweepIntervalMs: 3_000,
  /** A burst of new leads shares one pass. */
  nudgeDelayMs: 10,
  /** Leads placed per pass; a backlog is worked through pass after pass, without waiting for the interval. */
  batchSize: 100,
} as const;

/** Passes run back to back while each finds a full batch. */
const MAX_ROUNDS_IN_A_ROW = 20;

/** Same person within this window: the new lead joins the earlier one. */
export const REPEAT_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;

export type AssignerStore = TeamStore &
  Pick<SalesStore, 'listUnplaced' | 'place' | 'findEarlierLead' | 'findDomainOwner' | 'listRules' | 'listUntouched' | 'reassign'>;

export type AssignerOptions = {
  readonly store: AssignerStore;
  /** The site's business hours (the clock of a lead received outside them starts at the next opening). */
  readonly siteHours: () => WeeklyHours;
  readonly log: FastifyBaseLogger;
  readonly now?: () => number;
  readonly sweepIntervalMs?: number;
  readonly nudgeDelayMs?: number;
  readonly batchSize?: number;
};

export type PassResult = { readonly placed: number; readonly pickedUp: number; readonly full: boolean };

export type Assigner = {
  start(): void;
  /** A lead was just stored: place it soon. Never throws and never waits. */
  nudge(): void;
  /** One pass now (tests, and the loop): places what waits and gives unassigned leads to whoever is available. */
  runOnce(): Promise<PassResult>;
  stop(): Promise<void>;
};

/** The timeline's and the audit log's words for an owner chosen by the system. */
export function assignedText(ownerEmail: string | undefined, reason: string): string {
  return ownerEmail === undefined ? `Not assigned: ${reason}` : `Assigned to ${ownerEmail} (${reason})`;
}

export function createAssigner(options: AssignerOptions): Assigner {
  const {
    store,
    siteHours,
    log,
    now = Date.now,
    sweepIntervalMs = ASSIGNER_DEFAULTS.sweepIntervalMs,
    nudgeDelayMs = ASSIGNER_DEFAULTS.nudgeDelayMs,
    batchSize = ASSIGNER_DEFAULTS.batchSize,
  } = options;

  function systemActivity(leadId: string, at: number, kind: NewActivity['kind'], detail: NewActivity['detail']): NewActivity {
    return { leadId, at, kind, actorId: undefined, actor: SYSTEM_ACTOR, detail };
  }

  async function placementFor(lead: UnplacedLead, team: readonly TeamMember[], hours: WeeklyHours, at: number): Promise<Placement> {
    const earlier = await store.findEarlierLead({
      email: lead.email,
      phone: lead.phone,
      since: lead.receivedAt - REPEAT_WINDOW_MS,
      before: lead.leadId,
    });
    if (earlier !== undefined) {
      // The same person again: one conversation, one owner, one clock (the earlier lead's).
      const ownerEmail = emailOf(team, earlier.ownerId);
      return {
        leadId: lead.leadId,
        at,
        ownerId: earlier.ownerId,
        clockStartsAt: earlier.clockStartsAt,
        joinedTo: earlier.leadId,
        roundRobin: false,
        activity: systemActivity(lead.leadId, at, 'joined', {
          joinedTo: earlier.leadId,
          ownerId: earlier.ownerId ?? null,
          owner: ownerEmail ?? null,
        }),
        audit: {
          at,
          actor: SYSTEM_ACTOR,
          action: 'lead.join',
          detail: `${lead.leadId} joined ${earlier.leadId} (the same person again)${ownerEmail === undefined ? '' : `, owner ${ownerEmail}`}`,
        },
        crmEvents:
          earlier.ownerId === undefined ? [] : [ownerFollowUp({ leadId: lead.leadId, at, ownerEmail, previousOwnerEmail: undefined })],
      };
    }
    const [rules, domainOwner] = await Promise.all([store.listRules(), ownerOfDomain(lead.email)]);
    const choice = chooseOwner({ lead, rules, people: roundRobinPeople(team), domainOwner, at });
    const ownerEmail = emailOf(team, choice.ownerId);
    const text = assignedText(ownerEmail, choice.reason);
    return {
      leadId: lead.leadId,
      at,
      ownerId: choice.ownerId,
      clockStartsAt: nextOpening(hours, lead.receivedAt),
      joinedTo: undefined,
      roundRobin: choice.roundRobin,
      activity: systemActivity(lead.leadId, at, 'assigned', {
        ownerId: choice.ownerId ?? null,
        owner: ownerEmail ?? null,
        reason: choice.reason,
      }),
      // Nobody was given the lead: nothing to audit (the timeline says it waits); the hand-out later is audited.
      audit:
        choice.ownerId === undefined ? undefined : { at, actor: SYSTEM_ACTOR, action: 'lead.assign', detail: `${lead.leadId}: ${text}` },
      crmEvents:
        choice.ownerId === undefined ? [] : [ownerFollowUp({ leadId: lead.leadId, at, ownerEmail, previousOwnerEmail: undefined })],
    };
  }

  async function ownerOfDomain(email: string): Promise<AccountId | undefined> {
    const domain = emailDomain(email);
    return isCompanyDomain(domain) ? store.findDomainOwner(domain) : undefined;
  }

  // Unassigned untouched leads go to people who are available now, oldest lead first, one each in
  // round-robin order: a person back from "away" or starting their shift picks up what waited.
  async function pickUpUnassigned(team: TeamMember[], startAt: number): Promise<number> {
    // Each hand-out gets its own moment, for round-robin's turn (see runOnce).
    let at = startAt;
    const waiting = await store.listUntouched({ unassigned: true, limit: batchSize });
    if (waiting.length === 0) return 0;
    let pickedUp = 0;
    let people = roundRobinPeople(team);
    for (const lead of waiting) {
      at += 1;
      if (!people.some((person) => isAvailable(person, at))) break;
      // Round-robin alone: the rules chose nobody when the lead came in, and nobody owned it since.
      const choice = { ownerId: reassignTarget(undefined, people, at) };
      if (choice.ownerId === undefined) break;
      const ownerEmail = emailOf(team, choice.ownerId);
      const reason = 'available again; it was waiting unassigned';
      const moved = await store.reassign({
        leadId: lead.leadId,
        expectedOwnerId: undefined,
        ownerId: choice.ownerId,
        at,
        activity: systemActivity(lead.leadId, at, 'assigned', { ownerId: choice.ownerId, owner: ownerEmail ?? null, reason }),
        audit: { at, actor: SYSTEM_ACTOR, action: 'lead.assign', detail: `${lead.leadId}: ${assignedText(ownerEmail, reason)}` },
        crmEvents: [ownerFollowUp({ leadId: lead.leadId, at, ownerEmail, previousOwnerEmail: undefined })],
        roundRobin: true,
      });
      if (!moved) continue;
      pickedUp += 1;
      // The next waiting lead goes to the next person in the round.
      people = people.map((person) => (person.accountId === choice.ownerId ? { ...person, lastAssignedAt: at } : person));
    }
    return pickedUp;
  }

  async function runOnce(): Promise<PassResult> {
    // Only recent leads: a lead from before the queue existed is never handed out, queued or escalated
    // on its own (RECENT_LEAD_MS says why); a person may give it an owner from its page.
    const unplaced = await store.listUnplaced(batchSize, now() - RECENT_LEAD_MS);
    const hours = siteHours();
    let team = await readTeam(store, hours);
    let placed = 0;
    let lastAt = 0;
    for (const lead of unplaced) {
      // Each placement of a pass gets its own moment: round-robin's turn is the time a person was last
      // given a lead, and two leads given in the same millisecond would leave two people tied.
      const at = Math.max(now(), lastAt + 1);
      lastAt = at;
      const placement = await placementFor(lead, team, hours, at);
      if (!(await store.place(placement))) continue;
      placed += 1;
      if (placement.roundRobin && placement.ownerId !== undefined) {
        // The store moved this person's place in the round in the same transaction; the next lead of this pass sees it too.
        team = team.map((member) => (member.accountId === placement.ownerId ? { ...member, lastAssignedAt: at } : member));
      }
      log.info(
        { leadId: lead.leadId, owner: placement.ownerId ?? null, joinedTo: placement.joinedTo ?? null, waitedMs: at - lead.receivedAt },
        placement.joinedTo !== undefined
          ? 'lead joined the same person’s earlier lead'
          : placement.ownerId === undefined
            ? 'lead waits unassigned: nobody is available'
            : 'lead assigned',
      );
    }
    const pickedUp = await pickUpUnassigned(await readTeam(store, hours), Math.max(now(), lastAt + 1));
    if (pickedUp > 0) log.info({ pickedUp }, 'unassigned leads given to people available again');
    return { placed, pickedUp, full: unplaced.length >= batchSize };
  }

  const loop = createWorkLoop(
    async () => {
      try {
        // A full batch leaves leads behind: the next pass runs at once (a few in a row, then the loop
        // breathes, so a backlog never starves the other work on the store).
        for (let round = 0; round < MAX_ROUNDS_IN_A_ROW && (await runOnce()).full; round += 1);
      } catch (error) {
        log.error({ err: error }, 'assigner: could not place leads; trying again shortly');
      }
    },
    { intervalMs: sweepIntervalMs, nudgeDelayMs },
  );

  return { start: loop.start, nudge: loop.nudge, stop: loop.stop, runOnce };
}
