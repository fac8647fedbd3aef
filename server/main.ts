import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { loadConfig, type Config } from './config.ts';
import { describeListenFailure } from '../back-office/http/listen-failure.ts';
import { closeGracefully } from './shutdown.ts';
import { SiteBuildError } from '../content-model/load/build-files.ts';
import { StoreOpenError } from './store/store-open-error.ts';

// The process: read settings, build the app, listen, and shut down cleanly on SIGTERM / SIGINT.
// A start that fails prints one plain sentence to stderr and exits 1; a signal always ends the process.

// In-flight requests get this long after a signal before their connections are cut.
const SHUTDOWN_GRACE_MS = 10_000;
// If onClose hooks (store, outbox worker) still hang after this, give up and exit 1.
const SHUTDOWN_DEADLINE_MS = 25_000;

let shuttingDown = false;
let listening = false;

async function start(): Promise<void> {
  const configResult = loadConfig();
  if (!configResult.success) {
    exitWithMessage(`Invalid configuration:\n${configResult.errors.map((error) => `  - ${error}`).join('\n')}`);
  }
  const config = configResult.data;
  const app = buildApp(config);

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      // Before it listens nothing is in flight (a migration is one transaction the database undoes):
      // stopping at once means a start stuck on an unreachable database never outlives the request to stop.
      if (!listening) {
        app.log.info({ signal }, 'stopped while starting');
        process.exit(0);
      }
      if (shuttingDown) {
        app.log.warn({ signal }, 'second signal during shutdown: exiting now');
        process.exit(1);
      }
      shuttingDown = true;
      void shutDown(app, signal);
    });
  }

  try {
    // Fastify logs one line with the URL: "Server listening at http://127.0.0.1:4321".
    await app.listen({ host: config.host, port: config.port });
    listening = true;
  } catch (error) {
    exitWithMessage(describeStartFailure(error, config));
  }
}

/** Why the server did not start, as one sentence an operator can act on (never a stack trace). */
function describeStartFailure(error: unknown, config: Pick<Config, 'host' | 'port'>): string {
  const known = causes(error).find((cause) => cause instanceof SiteBuildError || cause instanceof StoreOpenError);
  if (known !== undefined) return known.message;
  const listen = describeListenFailure(error, { ...config, hostSetting: 'HOST', portSetting: 'PORT', what: 'server' });
  if (listen !== undefined) return listen;
  const message = error instanceof Error ? error.message : String(error);
  return `The server did not start: ${message.split('\n')[0]}`;
}

/** The error and the errors it was caused by, outermost first (Fastify wraps a plugin's error). */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let cause = error; cause !== undefined && chain.length < 10; cause = (cause as { cause?: unknown } | null)?.cause) chain.push(cause);
  return chain;
}

async function shutDown(app: FastifyInstance, signal: NodeJS.Signals): Promise<void> {
  app.log.info({ signal }, 'shutting down: finishing in-flight requests');
  setTimeout(() => {
    app.log.error({ deadlineMs: SHUTDOWN_DEADLINE_MS }, 'shutdown did not finish in time');
    process.exit(1);
  }, SHUTDOWN_DEADLINE_MS).unref();
  try {
    const outcome = await closeGracefully(app, { graceMs: SHUTDOWN_GRACE_MS });
    app.log.info({ outcome }, 'server closed');
    process.exit(0);
  } catch (error) {
    app.log.error({ err: error }, 'error while shutting down');
    process.exit(1);
  }
}

function exitWithMessage(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

await start();
