import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';

// `GET /healthz` plus a registry other plugins add their checks to, e.g. the lead store:
//   app.healthChecks.add('lead-store', (signal) => store.ping(signal));
// 200 {"status":"ok"} when every check resolves; 503 {"status":"unavailable","failing":[names]} otherwise.
//
// `GET /readyz` is what a load balancer asks before sending this process traffic: every health check,
// every readiness-only check (`app.readiness.add`, e.g. the schema is current) and not draining.
// 200 {"status":"ready"}; 503 {"status":"not-ready","failing":[names]}, "draining" among them once
// `app.readiness.drain()` was called (on SIGTERM), so the balancer stops sending new requests while
// the process finishes what it holds. /healthz stays the liveness answer: a draining process is alive.

/** Resolves when healthy; rejects (or outlives the timeout, when `signal` aborts) when not. */
export type HealthCheck = (signal: AbortSignal) => Promise<unknown>;

export type HealthChecks = {
  add(name: string, check: HealthCheck): void;
};

export type Readiness = {
  /** A check only readiness asks (liveness does not): resolves when this process may take traffic. */
  add(name: string, check: HealthCheck): void;
  /** From now on /readyz answers 503 with "draining"; never undone (the process is stopping). */
  drain(): void;
  readonly draining: boolean;
};

declare module 'fastify' {
  interface FastifyInstance {
    healthChecks: HealthChecks;
    readiness: Readiness;
  }
}

export type HealthPluginOptions = { checkTimeoutMs?: number };

export const HEALTH_CHECK_TIMEOUT_MS = 2_000;

const health: FastifyPluginAsync<HealthPluginOptions> = async (app, { checkTimeoutMs = HEALTH_CHECK_TIMEOUT_MS }) => {
  const checks = new Map<string, HealthCheck>();

  app.decorate('healthChecks', {
    add(name, check) {
      if (checks.has(name)) throw new Error(`Health check "${name}" is already registered`);
      checks.set(name, check);
    },
  } satisfies HealthChecks);

  const readinessChecks = new Map<string, HealthCheck>();
  let draining = false;
  app.decorate('readiness', {
    add(name, check) {
      if (readinessChecks.has(name) || checks.has(name)) throw new Error(`Readiness check "${name}" is already registered`);
      readinessChecks.set(name, check);
    },
    drain() {
      draining = true;
    },
    get draining() {
      return draining;
    },
  } satisfies Readiness);

  // While draining, every answer ends its connection: a client (or a load balancer) holding a kept-alive
  // connection opens its next one through the balancer, to a server that is ready, instead of finding
  // this one closed (and answering 503) once the drain is over.
  app.addHook('onSend', async (_request, reply) => {
    if (draining) reply.header('connection', 'close');
  });

  // Requests arriving while the checks run share their answer: however many ask at once (every
  // balancer, or a flood), the checks take one database connection at a time.
  let checking: Promise<string[]> | undefined;
  function readinessFailures(log: FastifyBaseLogger): Promise<string[]> {
    checking ??= findFailingChecks(new Map([...checks, ...readinessChecks]), checkTimeoutMs, log).finally(() => {
      checking = undefined;
    });
    return checking;
  }

  app.get('/readyz', async (request, reply) => {
    const failing = [...(await readinessFailures(request.log))];
    if (draining) failing.unshift('draining');
    reply.header('cache-control', 'no-store');
    if (failing.length === 0) return { status: 'ready' };
    return reply.code(503).send({ status: 'not-ready', failing });
  });

  app.get('/healthz', async (request, reply) => {
    const failing = await findFailingChecks(checks, checkTimeoutMs, request.log);
    reply.header('cache-control', 'no-store');
    if (failing.length === 0) return { status: 'ok' };
    return reply.code(503).send({ status: 'unavailable', failing });
  });
};

// Not encapsulated, so `app.healthChecks` is visible to the plugins registered after it.
export const healthPlugin = fp(health, { name: 'health', fastify: '5.x' });

async function findFailingChecks(checks: ReadonlyMap<string, HealthCheck>, timeoutMs: number, log: FastifyBaseLogger): Promise<string[]> {
  const results = await Promise.all(
    [...checks].map(async ([name, check]) => {
      try {
        await runWithTimeout(check, timeoutMs);
        return undefined;
      } catch (error) {
        log.warn({ check: name, err: error }, 'health check failed');
        return name;
      }
    }),
  );
  return results.filter((name) => name !== undefined);
}

async function runWithTimeout(check: HealthCheck, timeoutMs: number): Promise<void> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new Error(`timed out after ${timeoutMs} ms`);
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  try {
    await Promise.race([check(controller.signal), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
