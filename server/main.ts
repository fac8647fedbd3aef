import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { loadConfig, type Config } from './config.ts';
import { describeListenFailure } from '../back-office/http/listen-failure.ts';
import { closeGracefully } from './shutdown.ts';
import { SiteBuildError } from '../content-model/load/build-files.ts';
import { StoreOpenError } from './store/store-open-error.ts';
import { EXIT_CODES } from './exit-codes.ts';

// The process: read settings, build the app, listen, and shut down cleanly on SIGTERM / SIGINT.
// A start that fails prints one plain sentence to stderr and exits with its code (exit-codes.ts):
// 1, or 65, 70 or 75 when the database refuses to be migrated; a signal always ends the process.
//
// Stopping: the first signal drains (/readyz answers 503 at once while the server keeps serving for
// DRAIN_SECONDS, so a load balancer checking it stops sending), then closes (no new connections,
// in-flight requests finish within the grace, then the onClose hooks: the outbox records its
// deliveries, the notifier stops, the analytics queue is written, the stores close) and exits 0.
// A second signal skips what is left of the drain and closes at once, still finishing what the
// process holds; a third exits 1 at once. Past the deadline (drain + grace + close) it exits 1.

// In-flight requests get this long after the listener closes before their connections are cut.
const SHUTDOWN_GRACE_MS = 10_000;
// The onClose hooks (outbox deliveries in flight, the analytics queue, the stores) get this long after the grace.
const CLOSE_HOOKS_MS = 15_000;

let signals = 0;
let listening = false;

async function start(): Promise<void> {
  const configResult = loadConfig();
  if (!configResult.success) {
    exitWithMessage(`Invalid configuration:\n${configResult.errors.map((error) => `  - ${error}`).join('\n')}`);
  }
  const config = configResult.data;
  const app = buildApp(config);

  const drain = drainTimer(config.drainSeconds * 1000);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      // Before it listens nothing is in flight (a migration is one transaction the database undoes):
      // stopping at once means a start stuck on an unreachable database never outlives the request to stop.
      if (!listening) {
        app.log.info({ signal }, 'stopped while starting');
        process.exit(EXIT_CODES.clean);
      }
      signals += 1;
      if (signals === 1) {
        void shutDown(app, signal, config.drainSeconds, drain);
      } else if (signals === 2) {
        app.log.warn({ signal }, 'second signal: closing now without waiting for the rest of the drain (a third exits at once)');
        drain.skip();
      } else {
        app.log.warn({ signal }, 'third signal during shutdown: exiting now');
        process.exit(EXIT_CODES.failed);
      }
    });
  }

  try {
    // Fastify logs one line with the URL: "Server listening at http://127.0.0.1:4321".
    await app.listen({ host: config.host, port: config.port });
    listening = true;
  } catch (error) {
    const failure = describeStartFailure(error, config);
    exitWithMessage(failure.message, failure.code);
  }
}

/** Why the server did not start, as one sentence an operator can act on (never a stack trace), and the code to exit with. */
function describeStartFailure(error: unknown, config: Pick<Config, 'host' | 'port'>): { message: string; code: number } {
  const known = causes(error).find((cause) => cause instanceof SiteBuildError || cause instanceof StoreOpenError);
  if (known instanceof StoreOpenError) return { message: known.message, code: known.exitCode };
  if (known !== undefined) return { message: known.message, code: EXIT_CODES.failed };
  const listen = describeListenFailure(error, { ...config, hostSetting: 'HOST', portSetting: 'PORT', what: 'server' });
  if (listen !== undefined) return { message: listen, code: EXIT_CODES.failed };
  const message = error instanceof Error ? error.message : String(error);
  return { message: `The server did not start: ${message.split('\n')[0]}`, code: EXIT_CODES.failed };
}

/** The error and the errors it was caused by, outermost first (Fastify wraps a plugin's error). */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let cause = error; cause !== undefined && chain.length < 10; cause = (cause as { cause?: unknown } | null)?.cause) chain.push(cause);
  return chain;
}

/** The drain's wait: `wait()` resolves after `ms`, or at once when `skip()` is called. */
function drainTimer(ms: number): { wait(): Promise<void>; skip(): void } {
  let skip = () => {};
  const skipped = new Promise<void>((resolve) => (skip = resolve));
  return {
    wait: () =>
      Promise.race([
        skipped,
        new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, ms);
          void skipped.then(() => clearTimeout(timer));
        }),
      ]),
    skip: () => skip(),
  };
}

async function shutDown(
  app: FastifyInstance,
  signal: NodeJS.Signals,
  drainSeconds: number,
  drain: { wait(): Promise<void> },
): Promise<void> {
  // Every stage has its bound, so the whole stop has one: a process never outlives it.
  const deadlineMs = drainSeconds * 1000 + SHUTDOWN_GRACE_MS + CLOSE_HOOKS_MS;
  setTimeout(() => {
    app.log.error({ deadlineMs }, 'shutdown did not finish in time');
    process.exit(EXIT_CODES.failed);
  }, deadlineMs).unref();
  app.readiness.drain();
  if (drainSeconds > 0) {
    app.log.info({ signal, drainSeconds }, `draining: not ready, still serving for ${drainSeconds} s`);
    await drain.wait();
  }
  app.log.info({ signal }, 'shutting down: finishing in-flight requests');
  try {
    const outcome = await closeGracefully(app, { graceMs: SHUTDOWN_GRACE_MS });
    app.log.info({ outcome }, 'server closed');
    process.exit(EXIT_CODES.clean);
  } catch (error) {
    app.log.error({ err: error }, 'error while shutting down');
    process.exit(EXIT_CODES.failed);
  }
}

function exitWithMessage(message: string, code: number = EXIT_CODES.failed): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

await start();
