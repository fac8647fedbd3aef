import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { closeGracefully } from './shutdown.ts';
import { SiteBuildError } from './site/site-build.ts';

// The process: read settings, build the app, listen, and shut down cleanly on SIGTERM / SIGINT.
// Start-up failures an operator can fix print one plain sentence to stderr and exit 1.

// In-flight requests get this long after a signal before their connections are cut.
const SHUTDOWN_GRACE_MS = 10_000;
// If onClose hooks (store, outbox worker) still hang after this, give up and exit 1.
const SHUTDOWN_DEADLINE_MS = 25_000;

let shuttingDown = false;

async function start(): Promise<void> {
  const configResult = loadConfig();
  if (!configResult.success) {
    exitWithMessage(`Invalid configuration:\n${configResult.errors.map((error) => `  - ${error}`).join('\n')}`);
  }
  const config = configResult.data;
  const app = buildApp(config);

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
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
  } catch (error) {
    // A signal during start-up already closed the app; shutDown() decides the exit code.
    if (shuttingDown) return;
    if (error instanceof SiteBuildError) exitWithMessage(error.message);
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      exitWithMessage(`${config.host}:${config.port} is already in use: stop the other server or set PORT`);
    }
    app.log.fatal({ err: error }, 'server failed to start');
    process.exit(1);
  }
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
