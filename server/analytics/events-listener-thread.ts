// The beacon listener's thread (started by events-listener.ts): a Fastify server with only
// POST /api/events, listening on EVENTS_PORT. It checks and answers each beacon as the server's own
// port does (events-route.ts) and sends what it took to the server's thread in batches, a few
// dozen times a second, where each is hashed and queued. No request log line, no site headers:
// its answers are 204s and short JSON refusals with `Cache-Control: no-store` and `nosniff`.
import { parentPort, workerData } from 'node:worker_threads';
import Fastify, { LogController } from 'fastify';
import { CONNECTION_LIMITS } from '../../back-office/http/connection-limits.ts';
import { describeListenFailure } from '../../back-office/http/listen-failure.ts';
import { fastifyTrustProxy } from '../../back-office/http/trust-proxy.ts';
import { MAX_EVENT_BYTES } from './event-shape.ts';
import type { FromListener, ListenerThreadData, ToListener } from './events-listener.ts';
import { runBelowLeads } from './thread-priority.ts';
import { eventsRoute, type TakenBeacon } from './events-route.ts';

/** pino's level numbers by name. */
const LEVEL_NAMES: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };
/** How long a taken beacon waits for others before its batch goes to the server's thread. */
const BATCH_MS = 20;
/** A batch goes at once when it holds this many. */
const BATCH_SIZE = 500;

// Below the thread that takes leads, so a lead is taken first when the cores are busy.
runBelowLeads();

const port = parentPort!;
const data = workerData as ListenerThreadData;
const send = (message: FromListener) => port.postMessage(message);
const limits = data.connectionLimits ?? CONNECTION_LIMITS;

let pages: ReadonlySet<string> = new Set(data.pages);
let batch: TakenBeacon[] = [];
let batchTimer: NodeJS.Timeout | undefined;

function sendBatch(): void {
  if (batchTimer !== undefined) clearTimeout(batchTimer);
  batchTimer = undefined;
  if (batch.length === 0) return;
  send({ type: 'beacons', beacons: batch });
  batch = [];
}

function take(beacon: TakenBeacon): void {
  batch.push(beacon);
  if (batch.length >= BATCH_SIZE) sendBatch();
  else batchTimer ??= setTimeout(sendBatch, BATCH_MS);
}

const app = Fastify({
  http: {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    connectionsCheckingInterval: limits.checkIntervalMs,
  },
  requestTimeout: limits.requestTimeoutMs,
  connectionTimeout: limits.idleTimeoutMs,
  keepAliveTimeout: limits.keepAliveTimeoutMs,
  bodyLimit: MAX_EVENT_BYTES,
  // The server's thread writes this thread's lines with its own logger, so they look like its own.
  logger: {
    level: data.logLevel,
    serializers: { req: (request: { method: string; url: string }) => ({ method: request.method, url: request.url }) },
    stream: {
      write(line: string) {
        const entry = JSON.parse(line) as Record<string, unknown>;
        send({ type: 'log', level: LEVEL_NAMES[Number(entry.level)] ?? 'info', entry });
      },
    },
  },
  // No line per request: the route logs a count of its answers once a minute.
  logController: new LogController({ disableRequestLogging: true }),
  return503OnClosing: true,
  trustProxy: fastifyTrustProxy(data.trustProxy),
});

app.addHook('onSend', async (_request, reply, payload) => {
  reply.header('x-content-type-options', 'nosniff');
  return payload;
});
await app.register(eventsRoute, {
  siteHost: data.siteHost,
  siteUrl: data.siteUrl,
  rateLimit: data.rateLimit,
  sitePages: () => pages,
  take,
  log: app.log,
});

port.on('message', (message: ToListener) => {
  if (message.type === 'pages') pages = new Set(message.pages);
  else if (message.type === 'close') {
    // Stop listening, answer what is in flight, then hand over the last batch.
    void app.close().then(() => {
      sendBatch();
      send({ type: 'closed' });
    });
  }
});

try {
  await app.listen({ host: data.host, port: data.port });
  const address = app.server.address();
  send({ type: 'listening', port: typeof address === 'object' && address !== null ? address.port : data.port });
} catch (error) {
  const sentence =
    describeListenFailure(error, { host: data.host, port: data.port, hostSetting: 'HOST', portSetting: 'EVENTS_PORT', what: 'server' }) ??
    `The beacon listener did not start: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
  send({ type: 'failed', message: sentence });
}
