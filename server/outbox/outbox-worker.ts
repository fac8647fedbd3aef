import type { OutboxStore } from '../store/outbox/outbox-store.ts';
import type { CrmPaceStore } from '../store/crm-pace/crm-pace-store.ts';
import type { ClaimedCrmEvent, CrmEventResult, CrmEventStore } from '../store/crm-events/crm-event-store.ts';
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { ClaimedDelivery, DeliveryResult } from '../store/outbox/outbox-store.ts';
import type { CrmClient } from './crm-client.ts';
import { CRM_TIMEOUT_MS } from './crm-client.ts';
import { CRM_EVENT_NAMES, crmEventMessageId } from './crm-events.ts';
import { decideDelivery } from './delivery-policy.ts';

// The outbox worker: claims due leads from the store (under a lease), posts each to the CRM, and
// records every attempt. Up to `concurrency` deliveries are in flight; a lead stored while the worker
// waits wakes it shortly after (nudge), so leads are forwarded within milliseconds, not a poll later.
// Results are written in batches: one transaction for all results that finished meanwhile.
// Before each claim the worker asks the store for CRM slots (shared by every process on the store)
// and claims at most that many, so a backlog drains at the CRM's pace instead of meeting its 429s.
//
// The CRM's follow-up events (owner and status changes, bookings) go the same way, signed, retried
// and paced alike: one budget of slots for leads and events together. Leads are claimed first and
// events get the slots left over, and events never fill more than half of the deliveries in flight,
// so a new lead never waits behind a backlog of events. An event is due only once the CRM has taken
// its lead (the store's claim sees to it). Events are looked for once per poll interval, and at once
// after a lead or an event was settled (the next ones may have become due), not on every nudge.

export const OUTBOX_DEFAULTS = {
  concurrency: 32,
  pollIntervalMs: 1_000,
  // Nudges within this window share one claim, so a burst of leads costs one transaction, not one each.
  nudgeDelayMs: 20,
  // Outlives one attempt (timeout plus margin): a lead is claimed again only if its worker died.
  leaseMs: CRM_TIMEOUT_MS * 6,
} as const;

export type OutboxWorkerOptions = {
  readonly store: OutboxStore & CrmPaceStore & CrmEventStore;
  readonly client: CrmClient;
  readonly retryDelaysMs: readonly number[];
  /** At most this many sends in any 10 seconds, counted with every other worker on the same store. */
  readonly crmMaxPer10s: number;
  readonly log: FastifyBaseLogger;
  readonly now?: () => number;
  readonly random?: () => number;
  readonly concurrency?: number;
  readonly pollIntervalMs?: number;
  readonly nudgeDelayMs?: number;
  readonly leaseMs?: number;
  /** Identifies this worker's leases; one per process. */
  readonly owner?: string;
  /**
   * Told of the leads the CRM took (answered 2xx, not a test), once their results are recorded: the
   * analytics funnel's last step. Its failure is logged, never the delivery's.
   */
  readonly onDelivered?: (leadIds: readonly string[], at: number) => Promise<void>;
};

export type OutboxWorker = {
  start(): void;
  /** A lead was stored: look for due leads soon. */
  nudge(): void;
  /** Stops claiming, waits for in-flight deliveries and their records. Safe to call twice. */
  stop(): Promise<void>;
};

export function createOutboxWorker(options: OutboxWorkerOptions): OutboxWorker {
  const {
    store,
    client,
    retryDelaysMs,
    crmMaxPer10s,
    log,
    now = Date.now,
    random = Math.random,
    concurrency = OUTBOX_DEFAULTS.concurrency,
    pollIntervalMs = OUTBOX_DEFAULTS.pollIntervalMs,
    nudgeDelayMs = OUTBOX_DEFAULTS.nudgeDelayMs,
    leaseMs = OUTBOX_DEFAULTS.leaseMs,
    owner = `worker-${randomUUID()}`,
    onDelivered,
  } = options;

  const inFlight = new Set<Promise<void>>();
  let eventsInFlight = 0;
  // Half the deliveries in flight at most are events: the rest is always there for leads.
  const eventConcurrency = Math.max(1, Math.floor(concurrency / 2));
  let eventsMayBeDue = true;
  let lastEventClaimAt = Number.NEGATIVE_INFINITY;
  let pendingResults: DeliveryResult[] = [];
  let pendingEventResults: CrmEventResult[] = [];
  let flushing: Promise<void> | undefined;
  let telling: Promise<void> = Promise.resolve();
  let running: Promise<void> | undefined;
  let stopping = false;
  let wake: (() => void) | undefined;
  let nudgeTimer: NodeJS.Timeout | undefined;

  // A wake-up that arrives while the loop is busy claiming is remembered, not lost.
  let wakeRequested = false;

  function wakeUp(): void {
    if (wake === undefined) wakeRequested = true;
    else wake();
  }

  // Stored leads and freed slots wake the loop after nudgeDelayMs, so a burst shares one claim.
  function scheduleWakeUp(): void {
    if (stopping || nudgeTimer !== undefined) return;
    nudgeTimer = setTimeout(() => {
      nudgeTimer = undefined;
      wakeUp();
    }, nudgeDelayMs);
  }

  async function flushResults(): Promise<void> {
    while (pendingResults.length > 0 || pendingEventResults.length > 0) {
      const batch = pendingResults;
      pendingResults = [];
      const eventBatch = pendingEventResults;
      pendingEventResults = [];
      await recordEventResults(eventBatch);
      if (batch.length === 0) continue;
      try {
        await store.recordResults(batch);
      } catch (error) {
        // The leases lapse and these leads are sent again later: at most one extra delivery each.
        log.error({ err: error, leadIds: batch.map((result) => result.leadId) }, 'outbox: could not record delivery results');
        continue;
      }
      const delivered = batch.filter((result) => result.nextState === 'delivered').map((result) => result.leadId);
      // A lead the CRM took may have events waiting for it.
      if (batch.some((result) => result.nextState === 'delivered' || result.nextState === 'delivered-test')) eventsMayBeDue = true;
      if (onDelivered !== undefined && delivered.length > 0) tellDelivered(onDelivered, delivered, now());
    }
    flushing = undefined;
  }

  async function recordEventResults(batch: CrmEventResult[]): Promise<void> {
    if (batch.length === 0) return;
    try {
      await store.recordCrmEventResults(batch);
      // The next event of the same lead may be due now.
      eventsMayBeDue = true;
    } catch (error) {
      // The leases lapse and these events are sent again later: at most one extra send each.
      log.error({ err: error, eventIds: batch.map((result) => result.id) }, 'outbox: could not record CRM event results');
    }
  }

  // The analytics are told in order, one call after another, on a chain of their own: a slow or
  // stuck analytics store never holds back the recording of later delivery results (their leases
  // would lapse and the CRM would get those leads twice).
  function tellDelivered(tell: NonNullable<OutboxWorkerOptions['onDelivered']>, leadIds: string[], at: number): void {
    telling = telling
      .then(() => tell(leadIds, at))
      .catch((error: unknown) => log.warn({ err: error, leadIds }, 'outbox: could not count delivered leads in the analytics'));
  }

  function queueResult(result: DeliveryResult): void {
    pendingResults.push(result);
    flushing ??= flushResults();
  }

  async function deliver(claim: ClaimedDelivery): Promise<void> {
    const attemptedAt = now();
    const answer = await client.send(claim.leadId, claim.body);
    const decision = decideDelivery(answer, { attemptsBefore: claim.attempts, retryDelaysMs, now: now(), random });
    const status = answer.kind === 'answered' ? answer.status : undefined;
    const attempt = claim.attempts + 1;
    const logFields = { leadId: claim.leadId, attempt, status, outcome: decision.nextState, durationMs: answer.durationMs };
    if (decision.nextState === 'delivered') log.info(logFields, 'lead delivered to the CRM');
    else if (decision.nextState === 'delivered-test')
      log.warn(logFields, 'CRM answered that this was only a test request: the lead reached no live workflow');
    else if (decision.nextState === 'pending')
      log.warn(
        { ...logFields, reason: decision.reason, nextAttemptAt: new Date(decision.nextAttemptAt ?? 0).toISOString() },
        'lead delivery failed; will retry',
      );
    else log.error({ ...logFields, reason: decision.reason }, 'lead delivery failed for good; it stays in the inbox');
    queueResult({
      leadId: claim.leadId,
      owner,
      attempt: {
        attemptedAt,
        durationMs: answer.durationMs,
        status,
        responseBody: answer.kind === 'answered' ? answer.body : undefined,
        error: answer.kind === 'unanswered' ? answer.error : undefined,
      },
      nextState: decision.nextState,
      nextAttemptAt: decision.nextAttemptAt,
    });
  }

  async function deliverEvent(claim: ClaimedCrmEvent): Promise<void> {
    const attemptedAt = now();
    const eventName = CRM_EVENT_NAMES[claim.kind];
    const answer = await client.send(crmEventMessageId(claim), claim.body, eventName);
    const decision = decideDelivery(answer, { attemptsBefore: claim.attempts, retryDelaysMs, now: now(), random });
    const status = answer.kind === 'answered' ? answer.status : undefined;
    const nextState =
      decision.nextState === 'delivered' ? 'sent' : decision.nextState === 'delivered-test' ? 'sent-test' : decision.nextState;
    const logFields = {
      leadId: claim.leadId,
      eventId: claim.id,
      event: eventName,
      attempt: claim.attempts + 1,
      status,
      outcome: nextState,
    };
    if (nextState === 'sent') log.info(logFields, 'CRM event sent');
    else if (nextState === 'sent-test') log.warn(logFields, 'CRM answered that this event was only a test request: no live workflow ran');
    else if (nextState === 'pending')
      log.warn(
        { ...logFields, reason: decision.reason, nextAttemptAt: new Date(decision.nextAttemptAt ?? 0).toISOString() },
        'CRM event failed; will retry',
      );
    else log.error({ ...logFields, reason: decision.reason }, 'CRM event failed for good');
    pendingEventResults.push({
      id: claim.id,
      owner,
      attemptedAt,
      finishedAt: attemptedAt + answer.durationMs,
      status,
      error: answer.kind === 'unanswered' ? answer.error : undefined,
      nextState,
      nextAttemptAt: decision.nextAttemptAt,
    });
    flushing ??= flushResults();
  }

  function track(work: Promise<void>, description: Record<string, unknown>, onSettled?: () => void): void {
    const delivery: Promise<void> = work
      .catch((error: unknown) => log.error({ err: error, ...description }, 'outbox: delivery crashed'))
      .finally(() => {
        inFlight.delete(delivery);
        onSettled?.();
        scheduleWakeUp();
      });
    inFlight.add(delivery);
  }

  // Events get the slots the due leads left, when they may be due (see the header).
  async function claimEvents(slots: number): Promise<ClaimedCrmEvent[]> {
    const limit = Math.min(slots, eventConcurrency - eventsInFlight);
    const at = now();
    if (limit <= 0 || (!eventsMayBeDue && at - lastEventClaimAt < pollIntervalMs)) return [];
    eventsMayBeDue = false;
    lastEventClaimAt = at;
    try {
      const claimed = await store.claimDueCrmEvents({ now: at, limit, owner, leaseMs });
      // A full claim may have left more behind.
      if (claimed.length === limit) eventsMayBeDue = true;
      return claimed;
    } catch (error) {
      log.error({ err: error }, 'outbox: could not claim due CRM events');
      return [];
    }
  }

  // Slots granted but not used (fewer leads were due) go back, or an idle worker would use up the window.
  async function giveBack(unused: number): Promise<void> {
    if (unused <= 0) return;
    try {
      await store.giveBackCrmSlots(now(), unused);
    } catch (error) {
      // They lapse with the window: the pace is only slower for up to 10 seconds.
      log.warn({ err: error, unused }, 'outbox: could not hand back unused CRM slots');
    }
  }

  async function claimAndSend(): Promise<void> {
    const free = concurrency - inFlight.size;
    if (free <= 0) return;
    let slots: number;
    try {
      slots = await store.takeCrmSlots(now(), free, crmMaxPer10s);
    } catch (error) {
      log.error({ err: error }, 'outbox: could not take CRM slots');
      return;
    }
    // None left in this window: the next poll asks again.
    if (slots === 0) return;
    let claimed: ClaimedDelivery[];
    try {
      claimed = await store.claimDue({ now: now(), limit: slots, owner, leaseMs });
    } catch (error) {
      log.error({ err: error }, 'outbox: could not claim due leads');
      await giveBack(slots);
      return;
    }
    for (const claim of claimed) track(deliver(claim), { leadId: claim.leadId });
    const events = await claimEvents(slots - claimed.length);
    for (const event of events) {
      eventsInFlight += 1;
      track(deliverEvent(event), { leadId: event.leadId, eventId: event.id }, () => {
        eventsInFlight -= 1;
      });
    }
    await giveBack(slots - claimed.length - events.length);
  }

  async function loop(): Promise<void> {
    while (!stopping) {
      wakeRequested = false;
      await claimAndSend();
      // Sleep until a lead is stored, a delivery frees a slot, or the poll interval passes.
      if (wakeRequested || stopping) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollIntervalMs);
        wake = () => {
          clearTimeout(timer);
          wake = undefined;
          resolve();
        };
      });
    }
  }

  return {
    start() {
      running ??= loop();
    },
    nudge: scheduleWakeUp,
    async stop() {
      stopping = true;
      clearTimeout(nudgeTimer);
      wakeUp();
      await running;
      await Promise.all(inFlight);
      await flushing;
      await telling;
    },
  };
}
