import { connect } from 'node:net';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import type { ConnectionLimits } from './app.ts';
import { createSiteFixture, fixtureConfig } from './testing/site-fixture.ts';
import type { SiteFixture } from './testing/site-fixture.ts';

// What a client can do to the server over a raw socket: send slowly, send garbage, send a large body
// where none is wanted. `inject` bypasses the socket, so these tests listen on 127.0.0.1.

// The production limits scaled down so the tests take seconds, with the same relations between them.
const LIMITS: ConnectionLimits = {
  headersTimeoutMs: 800,
  requestTimeoutMs: 1_500,
  idleTimeoutMs: 1_500,
  keepAliveTimeoutMs: 400,
  checkIntervalMs: 100,
};
const DRIP_INTERVAL_MS = 200;

let fixture: SiteFixture;
let app: FastifyInstance;
let port: number;

beforeAll(async () => {
  fixture = await createSiteFixture();
  app = buildApp(fixtureConfig(fixture.distDir, { LEADS_DB_FILE: ':memory:', CRM_WEBHOOK_URL: '' }), { connectionLimits: LIMITS });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  port = address.port;
});
afterAll(async () => {
  await app?.close();
  await fixture?.remove();
});

type Exchange = { response: string; closedAfterMs: number };

/** Opens a socket, lets `talk` write to it, and resolves with all it received once the server closes it. */
function exchange(talk: (socket: Socket) => void, giveUpMs = 10_000): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept the connection open for ${giveUpMs} ms`));
    }, giveUpMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ response: Buffer.concat(chunks).toString('latin1'), closedAfterMs: performance.now() - started });
    });
    socket.on('connect', () => talk(socket));
  });
}

/** Writes `text` one byte every DRIP_INTERVAL_MS for as long as the socket stays open. */
function drip(socket: Socket, text: string): void {
  let index = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || index >= text.length) return clearInterval(timer);
    socket.write(text[index]!);
    index += 1;
  }, DRIP_INTERVAL_MS);
  socket.on('close', () => clearInterval(timer));
}

async function healthCheckMs(): Promise<number> {
  const started = performance.now();
  const response = await fetch(`http://127.0.0.1:${port}/healthz`);
  expect(response.status).toBe(200);
  return performance.now() - started;
}

function statusOf(response: string): number {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1]);
}

describe('slow clients are cut off while others are served', () => {
  it('a body sent one byte at a time is cut off at the request deadline', async () => {
    const slow = exchange((socket) => {
      const body = JSON.stringify({ name: 'x'.repeat(200) });
      socket.write(
        `POST /api/leads HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      drip(socket, body);
    });
    // Others keep being answered at once while the slow client hangs on.
    for (let check = 0; check < 5; check += 1) {
      expect(await healthCheckMs()).toBeLessThan(200);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    const { response, closedAfterMs } = await slow;
    expect(closedAfterMs).toBeGreaterThanOrEqual(LIMITS.requestTimeoutMs - 100);
    expect(closedAfterMs).toBeLessThan(LIMITS.requestTimeoutMs + 1_500);
    expect(statusOf(response)).toBe(408);
  });

  it('headers sent one byte at a time are cut off at the header deadline', async () => {
    const { closedAfterMs } = await exchange((socket) =>
      drip(socket, `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ${'a'.repeat(100)}\r\n\r\n`),
    );
    expect(closedAfterMs).toBeLessThan(LIMITS.headersTimeoutMs + 1_500);
  });

  it('a kept-alive connection left idle is closed', async () => {
    const { response, closedAfterMs } = await exchange((socket) => socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'));
    expect(statusOf(response)).toBe(200);
    // Node waits one more second past the keep-alive timeout before closing (its keep-alive buffer).
    expect(closedAfterMs).toBeLessThan(LIMITS.keepAliveTimeoutMs + 1_000 + 1_000);
  });

  it('a connection that never sends anything is closed', async () => {
    const { closedAfterMs } = await exchange(() => undefined);
    expect(closedAfterMs).toBeLessThan(LIMITS.idleTimeoutMs + 1_500);
  });
});

describe('answers written before routing carry the security headers', () => {
  it.each([
    ['a malformed request line', 'GET /\u0001 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', 400],
    ['headers over the size limit', `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
    ['a body that is not HTTP', 'HELLO\r\n\r\n', 400],
    ['a bad Content-Length', 'POST /api/leads HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: abc\r\n\r\n', 400],
  ])('%s', async (_case, request, status) => {
    const { response } = await exchange((socket) => socket.write(request));
    expect(statusOf(response)).toBe(status);
    const head = response.split('\r\n\r\n')[0]!.toLowerCase();
    expect(head).toContain("content-security-policy: default-src 'self'");
    expect(head).toContain('x-content-type-options: nosniff');
    expect(head).toContain("frame-ancestors 'none'");
    expect(head).toContain('x-frame-options: deny');
  });

  it('a malformed URL that Fastify answers itself', async () => {
    const { response } = await exchange((socket) => socket.write('GET /%E0%A4%A HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'));
    expect(statusOf(response)).toBeGreaterThanOrEqual(400);
    expect(response.toLowerCase()).toContain('x-content-type-options: nosniff');
  });
});

describe('bodies where none is wanted are never read', () => {
  it.each(['/contact', '/no-such-page', '/api/no-such-endpoint'])(
    'POST %s with a 1 MiB body is answered before the body is sent',
    async (path) => {
      const { response } = await exchange((socket) => {
        // Only the headers: a server that waited for the announced body would time out instead.
        socket.write(
          `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1048576\r\nConnection: close\r\n\r\n`,
        );
      }, LIMITS.requestTimeoutMs - 200);
      expect([404, 405]).toContain(statusOf(response));
    },
  );

  it('a large body sent all at once to an unknown path is refused, not parsed', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/no-such-page`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ junk: 'x'.repeat(1024 * 1024) }),
    }).catch((error: unknown) => error);
    // Either the answer came before the body was read, or the connection was cut: never a parse.
    if (response instanceof Response) expect([404, 405, 413]).toContain(response.status);
  });
});
