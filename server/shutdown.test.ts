import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { closeGracefully } from './shutdown.ts';

// An app with a route that answers after `delayMs`, standing in for slow in-flight work.
// `arrived` resolves once the server is handling a request, so tests never race its arrival.
async function startSlowApp(
  onClose: () => void,
  onResponse: () => void = () => {},
): Promise<{ app: FastifyInstance; get: (delayMs: number) => Promise<string>; arrived: Promise<void> }> {
  const app = Fastify({ logger: false });
  let markArrived: () => void = () => {};
  const arrived = new Promise<void>((resolve) => (markArrived = resolve));
  app.get<{ Querystring: { ms: string } }>('/slow', async (request) => {
    markArrived();
    await new Promise((resolve) => setTimeout(resolve, Number(request.query.ms)));
    return 'done';
  });
  app.addHook('onResponse', async () => onResponse());
  app.addHook('onClose', async () => onClose());
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  const get = (delayMs: number): Promise<string> =>
    new Promise((resolve, reject) => {
      const request = httpRequest({ host: '127.0.0.1', port, path: `/slow?ms=${delayMs}` }, (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve(body));
      });
      request.on('error', reject);
      request.end();
    });
  return { app, get, arrived };
}

describe('closeGracefully', () => {
  it('lets in-flight requests finish, then runs onClose hooks', async () => {
    const events: string[] = [];
    const { app, get, arrived } = await startSlowApp(
      () => events.push('onClose'),
      () => events.push('response sent'),
    );
    const inFlight = get(300);
    await arrived;
    const outcome = await closeGracefully(app, { graceMs: 5_000 });
    expect(outcome).toBe('clean');
    expect(await inFlight).toBe('done');
    expect(events).toEqual(['response sent', 'onClose']);
  });

  it('cuts requests still open after the grace period', async () => {
    let closed = false;
    const { app, get, arrived } = await startSlowApp(() => (closed = true));
    const inFlight = get(10_000);
    await arrived;
    const started = Date.now();
    const outcome = await closeGracefully(app, { graceMs: 200 });
    expect(outcome).toBe('forced');
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(closed).toBe(true);
    await expect(inFlight).rejects.toThrow(/socket hang up|ECONNRESET/);
  });
});
