import type { OutboxStore } from '../store/outbox/outbox-store.ts';
import type { CrmPaceStore } from '../store/crm-pace/crm-pace-store.ts';
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { ClaimedDelivery, DeliveryResult } from '../store/outbox/outbox-store.ts';
import type { CrmClient } from './crm-client.ts';
import { CRM_TIMEOUT_MS } from './crm-client.ts';
import { decideDelivery } from './delivery-policy.ts';

// The outbox worker: claims due leads from the store (under a lease), posts each to the CRM, and
// records every attempt. Up to `concurrency` deliveries are in flight; a lead stored while the worker
// waits wakes it shortly after (nudge), so leads are forwarded within milliseconds, not a poll later.
// Results are written in batches: one transaction for all results that finished meanwhile.
// Before each claim the worker asks the store for CRM slots (shared by every process on the store)
// and claims at most that many, so a backlog drains at the CRM's pace instead of meeting its 429s.

export const OUTBOX_DEFAULTS = {
  concurrency: 32,
  pollIntervalMs: 1_000,
  // Nudges within this window share one claim, so a burst of leads costs one transaction, not one each.
  nudgeDelayMs: 20,
  // Outlives one attempt (timeout plus margin): a lead is claimed again only if its worker died.
  leaseMs: CRM_TIMEOUT_MS * 6,
} as const;

export type OutboxWorkerOptions = {
  readonly store: OutboxStore & CrmPaceStore;
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
  let pendingResults: DeliveryResult[] = [];
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
    while (pendingResults.length > 0) {
      const batch = pendingResults;
      pendingResults = [];
      try {
        await store.recordResults(batch);
      } catch (error) {
        // The leases lapse and these leads are sent again later: at most one extra delivery each.
        log.error({ err: error, leadIds: batch.map((result) => result.leadId) }, 'outbox: could not record delivery results');
        continue;
      }
      const delivered = batch.filter((result) => result.nextState === 'delivered').map((result) => result.leadId);
      if (onDelivered !== undefined && delivered.length > 0) tellDelivered(onDelivered, delivered, now());
    }
    flushing = undefined;
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
    for (const claim of claimed) {
      const delivery: Promise<void> = deliver(claim)
        .catch((error: unknown) => log.error({ err: error, leadId: claim.leadId }, 'outbox: delivery crashed'))
        .finally(() => {
          inFlight.delete(delivery);
          scheduleWakeUp();
        });
      inFlight.add(delivery);
    }
    await giveBack(slots - claimed.length);
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
