// GET /health: the console's first screen. Lead counts and delivery facts from the store, the CRM
// pace and retention from the settings, and the open delivery incident from the notifier.
import type { Health } from '../../../console/api-types.ts';
import type { ConsoleContext } from '../context.ts';
import type { ConsoleRoutes } from '../request-checks.ts';

const MINUTE_MS = 60_000;
const PACE_WINDOW_S = 10;

/** Minutes to send `pending` leads at `maxPer10s` every ten seconds. */
export function drainMinutes(pending: number, maxPer10s: number): number {
  return Math.ceil((Math.ceil(pending / maxPer10s) * PACE_WINDOW_S) / 60);
}

/**
 * True when the CRM is refusing: its last attempt failed (or an incident is open). The pace then says
 * nothing about when the backlog goes: a refused lead waits minutes to hours for its next attempt.
 */
export function isCrmRefusing(lastDeliveredAt: number | undefined, lastFailedAt: number | undefined, incidentOpen: boolean): boolean {
  if (incidentOpen) return true;
  return lastFailedAt !== undefined && (lastDeliveredAt === undefined || lastFailedAt > lastDeliveredAt);
}

export const healthRoutes: ConsoleRoutes<{ context: ConsoleContext }> = async (app, { context }) => {
  const { store, config } = context;
  app.get('/health', { config: { right: 'leads:read' } }, async (request): Promise<Health> => {
    const at = context.now();
    const health = await store.leadHealth(at);
    const open = await request.server.notifier.openIncident();
    const incident = open === undefined ? null : { since: new Date(open.since).toISOString(), lastError: open.lastError ?? null };
    const refusing = isCrmRefusing(health.lastDeliveredAt, health.lastFailedAt, open !== undefined);
    return {
      perForm: health.perForm.map(({ source, today, week }) => ({ form: source, today, week })),
      perDay: health.perDay,
      deliveredLast24h: health.deliveredLast24h,
      failed: health.failed,
      retrying: health.retrying,
      spamWeek: health.spamWeek,
      oldestUndelivered:
        health.oldestUndelivered === undefined
          ? null
          : {
              id: health.oldestUndelivered.id,
              receivedAt: new Date(health.oldestUndelivered.receivedAt).toISOString(),
              waitedMinutes: Math.max(0, Math.floor((at - health.oldestUndelivered.receivedAt) / MINUTE_MS)),
            },
      lastCrmSuccessAt: health.lastDeliveredAt === undefined ? null : new Date(health.lastDeliveredAt).toISOString(),
      backlog: {
        pending: health.pending,
        drainMinutes: refusing ? null : drainMinutes(health.pending, config.crmMaxPer10s),
        maxPer10s: config.crmMaxPer10s,
        crmRefusing: refusing,
      },
      incident,
      retention: { leadDays: config.leadRetentionDays ?? null, spamDays: config.spamRetentionDays },
    };
  });
};
