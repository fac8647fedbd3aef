import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { settledWithin } from '../../back-office/concurrency.ts';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { createCrmClient } from '../outbox/crm-client.ts';
import type { CrmClient } from '../outbox/crm-client.ts';
import { createOutboxWorker } from '../outbox/outbox-worker.ts';
import type { OutboxWorker, OutboxWorkerOptions } from '../outbox/outbox-worker.ts';
import type { Database } from '../store/database.ts';
import { openDatabase } from '../store/database.ts';
import { LEAD_SCHEMA_VERSIONS } from '../store/lead-schema.ts';
import { schemaReadinessCheck } from './schema-readiness.ts';

// The lead relay's capabilities: the store (opened and migrated at start, checked by /healthz) and,
// when CRM_WEBHOOK_URL is set, the outbox worker (leads and the CRM's follow-up events). On close (after in-flight requests have finished)
// the worker finishes its in-flight deliveries first, then the store closes. The background jobs that
// work on the store (the retention purge among them) are the jobs plugin's, closed before this one.

export type LeadRelay = {
  readonly store: Database;
  /** Undefined without CRM_WEBHOOK_URL: leads are kept as `held`. */
  readonly outbox: OutboxWorker | undefined;
};

declare module 'fastify' {
  interface FastifyInstance {
    leadRelay: LeadRelay;
  }
}

/** Tuning for tests (fast polls, short timeouts); production uses the defaults. */
export type LeadRelayTuning = Partial<Pick<OutboxWorkerOptions, 'pollIntervalMs' | 'leaseMs' | 'concurrency' | 'now' | 'random'>> & {
  readonly crmTimeoutMs?: number;
};

export type LeadRelayPluginOptions = { config: Config; tuning?: LeadRelayTuning };

const leadRelay: FastifyPluginAsync<LeadRelayPluginOptions> = async (app, { config, tuning = {} }) => {
  const { crmTimeoutMs, ...workerTuning } = tuning;
  const store = await openDatabase(config.leadStore, { onMigrationLockWait: (message) => app.log.warn(message) });
  let outbox: OutboxWorker | undefined;
  let crmClient: CrmClient | undefined;
  app.addHook('onClose', async () => {
    await outbox?.stop();
    crmClient?.close();
    await store.close();
  });

  const now = (workerTuning.now ?? Date.now)();
  if (config.crmWebhookUrl === undefined) {
    const held = await store.holdPending(now);
    // The CRM's follow-up events wait with their leads.
    const heldEvents = await store.holdPendingCrmEvents(now);
    app.log.warn(
      { held, heldEvents },
      'CRM_WEBHOOK_URL is not set: leads are kept in the inbox as held until it is set and the server restarts',
    );
  } else {
    const released = await store.releaseHeld(now);
    const releasedEvents = await store.releaseHeldCrmEvents(now);
    crmClient = createCrmClient({ url: config.crmWebhookUrl, secret: config.crmWebhookSecret, timeoutMs: crmTimeoutMs });
    outbox = createOutboxWorker({
      store,
      client: crmClient,
      retryDelaysMs: config.crmRetryDelaysMs,
      crmMaxPer10s: config.crmMaxPer10s,
      log: app.log.child({ component: 'outbox' }),
      onDelivered: countDelivered(app),
      ...workerTuning,
    });
    outbox.start();
    app.log.info(
      { released, releasedEvents, signed: config.crmWebhookSecret !== undefined },
      'outbox started: forwarding leads to the CRM',
    );
  }

  app.decorate('leadRelay', { store, outbox } satisfies LeadRelay);
  app.healthChecks.add('lead-store', (signal) => store.ping(signal));
  // Readiness only: a database behind this code (restored from an older backup) must not take traffic.
  app.readiness.add(
    'schema',
    schemaReadinessCheck({ database: 'lead', known: LEAD_SCHEMA_VERSIONS.length, readVersion: () => store.schemaVersion() }),
  );
};

/** How long "delivered" waits for its lead's count under way (a stuck analytics store holds nothing longer). */
const COUNT_WAIT_MS = 5_000;

/** The analytics funnel's last step, when analytics run (their plugin is registered before this one). */
function countDelivered(app: FastifyInstance): OutboxWorkerOptions['onDelivered'] {
  if (!app.hasDecorator('analytics')) return undefined;
  const { store, countedLead } = app.analytics;
  return async (leadIds, at) => {
    for (const leadId of leadIds) {
      // A lead this process took may be delivered before its own count is written: "delivered" first
      // would find no lead to mark, and the funnel would lose it. So it waits for that count, a while at most.
      await settledWithin(countedLead?.(leadId), COUNT_WAIT_MS);
      await store.recordLeadDelivered(leadId, at);
    }
  };
}

export const leadRelayPlugin = fp(leadRelay, { name: 'lead-relay', fastify: '5.x', dependencies: ['health'] });
