import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { healthPlugin } from './health.ts';
import type { HealthPluginOptions } from './health.ts';

let app: FastifyInstance | undefined;
afterEach(() => app?.close());

function appWith(register: (instance: FastifyInstance) => void, options: HealthPluginOptions = {}): FastifyInstance {
  app = Fastify({ logger: false });
  app.register(healthPlugin, options);
  app.register(async (instance) => register(instance));
  return app;
}

describe('health plugin', () => {
  it('answers ok with no checks registered', async () => {
    const response = await appWith(() => {}).inject({ url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('answers ok when every check resolves', async () => {
    const response = await appWith((instance) => {
      instance.healthChecks.add('a', async () => undefined);
      instance.healthChecks.add('b', async () => 'fine');
    }).inject({ url: '/healthz' });
    expect(response.statusCode).toBe(200);
  });

  it('fails a check that outlives the timeout and aborts its signal', async () => {
    let aborted = false;
    const response = await appWith(
      (instance) => {
        instance.healthChecks.add('slow-store', (signal) => {
          signal.addEventListener('abort', () => {
            aborted = true;
          });
          return new Promise(() => {});
        });
      },
      { checkTimeoutMs: 50 },
    ).inject({ url: '/healthz' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: 'unavailable', failing: ['slow-store'] });
    expect(aborted).toBe(true);
  });

  it('does not say why a check failed (that goes to the log)', async () => {
    const response = await appWith((instance) => {
      instance.healthChecks.add('store', async () => {
        throw new Error('password authentication failed for user "leads"');
      });
    }).inject({ url: '/healthz' });
    expect(response.body).not.toContain('password');
  });

  it('refuses two checks with the same name', async () => {
    const duplicate = appWith((instance) => {
      instance.healthChecks.add('store', async () => undefined);
      instance.healthChecks.add('store', async () => undefined);
    });
    await expect(duplicate.ready()).rejects.toThrow('Health check "store" is already registered');
  });
});

describe('readiness', () => {
  it('is ready when every health and readiness check resolves', async () => {
    const response = await appWith((instance) => {
      instance.healthChecks.add('store', async () => undefined);
      instance.readiness.add('schema', async () => undefined);
    }).inject({ url: '/readyz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ready' });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('is not ready while a readiness-only check fails, though still alive', async () => {
    const instance = appWith((scope) => {
      scope.readiness.add('schema', async () => Promise.reject(new Error('behind')));
    });
    const ready = await instance.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'not-ready', failing: ['schema'] });
    expect((await instance.inject({ url: '/healthz' })).statusCode).toBe(200);
  });

  it('says "draining" once drain() is called, and stays alive', async () => {
    const instance = appWith(() => {});
    await instance.ready();
    instance.readiness.drain();
    const ready = await instance.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'not-ready', failing: ['draining'] });
    expect((await instance.inject({ url: '/healthz' })).statusCode).toBe(200);
  });
});

describe('readiness under many requests at once', () => {
  it('runs its checks once for the requests that arrive while they run', async () => {
    let runs = 0;
    let release: () => void = () => {};
    const instance = appWith((scope) => {
      scope.readiness.add('store', async () => {
        runs += 1;
        await new Promise<void>((resolve) => (release = resolve));
      });
    });
    await instance.ready();
    const answers = Promise.all(Array.from({ length: 20 }, () => instance.inject({ url: '/readyz' })));
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    const responses = await answers;
    expect(responses.every((response) => response.statusCode === 200)).toBe(true);
    expect(runs).toBe(1);
    // The next request, after they were answered, checks again.
    const next = instance.inject({ url: '/readyz' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await next;
    expect(runs).toBe(2);
  });
});
