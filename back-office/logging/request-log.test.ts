import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { RequestLog, STATIC_FILE } from './request-log.ts';

type Entry = { level: number; msg: string; method?: string; url?: string; statusCode?: number; responseTime?: number };

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function appLogging(level: string) {
  const lines: Entry[] = [];
  const app = Fastify({
    logger: { level, stream: { write: (line: string) => void lines.push(JSON.parse(line) as Entry) } },
    logController: new RequestLog({ describeUrl: (url) => url.replace(/[^/?=&]+@[^&]+/g, '***') }),
  });
  app.get('/api/thing', async () => ({ ok: true }));
  app.get('/page', { config: STATIC_FILE }, async (_request, reply) => reply.type('text/html').send('<p>hi</p>'));
  await app.ready();
  close = () => app.close();
  return { app, lines };
}

describe('the request log', () => {
  it('writes one line per request, with method, address, status and time', async () => {
    const { app, lines } = await appLogging('info');
    expect((await app.inject({ method: 'GET', url: '/api/thing?who=someone@example.com' })).statusCode).toBe(200);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 30, msg: 'request completed', method: 'GET', url: '/api/thing?who=***', statusCode: 200 });
    expect(lines[0]?.responseTime).toEqual(expect.any(Number));
    await app.inject({ method: 'GET', url: '/nowhere' });
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({ method: 'GET', url: '/nowhere', statusCode: 404 });
  });

  it('writes a static file’s line at debug, so the info log has none', async () => {
    const quiet = await appLogging('info');
    expect((await quiet.app.inject({ method: 'GET', url: '/page' })).statusCode).toBe(200);
    expect(quiet.lines).toEqual([]);
    await close?.();
    const verbose = await appLogging('debug');
    await verbose.app.inject({ method: 'GET', url: '/page' });
    expect(verbose.lines).toHaveLength(1);
    expect(verbose.lines[0]).toMatchObject({ level: 20, method: 'GET', url: '/page', statusCode: 200 });
  });
});
