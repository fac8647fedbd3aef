import { request as httpRequest } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from './store/sqlite-store.ts';
import { startCrmReceiver } from './testing/crm-receiver.ts';
import type { CrmReceiver } from './testing/crm-receiver.ts';
import { validLeadBody } from './testing/lead-bodies.ts';
import { parseLogLines, startServerProcess } from './testing/server-process.ts';
import type { ServerProcess } from './testing/server-process.ts';
import { createSiteFixture } from './testing/site-fixture.ts';
import type { SiteFixture } from './testing/site-fixture.ts';

// The relay as a real process on 127.0.0.1: SIGKILL right after the last 201 loses nothing, and
// SIGTERM finishes in-flight requests and deliveries before closing the store.

// Two server starts and a few hundred requests: seconds on an idle machine, more on a busy one.
const PROCESS_TEST_TIMEOUT_MS = 60_000;

let fixture: SiteFixture;
let workDir: string;
let crm: CrmReceiver;
const servers: ServerProcess[] = [];

beforeAll(async () => {
  fixture = await createSiteFixture();
});
afterAll(async () => {
  await fixture.remove();
});
afterEach(async () => {
  for (const server of servers.splice(0))
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  await crm?.close();
  await rm(workDir, { recursive: true, force: true });
});

async function setUp(): Promise<{ dbFile: string; env: Record<string, string> }> {
  workDir = await mkdtemp(path.join(tmpdir(), 'relay-process-'));
  crm = await startCrmReceiver();
  const dbFile = path.join(workDir, 'leads.sqlite');
  return { dbFile, env: { DIST_DIR: fixture.distDir, LEADS_DB_FILE: dbFile, LEAD_RATE_LIMIT: '100000', LOG_LEVEL: 'info' } };
}

/** Posts one lead; resolves to the id of a 201, or undefined if the connection died first. */
function postLead(port: number, body: Record<string, unknown>): Promise<string | undefined> {
  return new Promise((resolve) => {
    const payload = JSON.stringify(body);
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/leads',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
        agent: false,
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve(response.statusCode === 201 ? (JSON.parse(text) as { id: string }).id : undefined));
        response.on('error', () => resolve(undefined));
      },
    );
    request.on('error', () => resolve(undefined));
    request.end(payload);
  });
}

describe('crash: SIGKILL right after the last 201', () => {
  it(
    'keeps every acknowledged lead, and delivers each exactly once after the restart',
    async () => {
      const { dbFile, env } = await setUp();
      const first = await startServerProcess(env, workDir);
      servers.push(first);

      // 16 clients post continuously; the process is killed inside the callback of the 100th 201,
      // while other posts are still in flight (those were never acknowledged, so they may be lost).
      const acknowledged: string[] = [];
      const KILL_AFTER = 100;
      let killed = false;
      const client = async (index: number): Promise<void> => {
        for (let round = 0; !killed; round += 1) {
          const body = {
            ...validLeadBody(['home', 'roi', 'contact', 'landing'][(index + round) % 4] as 'home'),
            email: `crash-${index}-${round}@example.com`,
          };
          const id = await postLead(first.port, body);
          if (killed) return;
          if (id !== undefined) acknowledged.push(id);
          if (acknowledged.length >= KILL_AFTER && !killed) {
            killed = true;
            first.child.kill('SIGKILL');
          }
        }
      };
      await Promise.all(Array.from({ length: 16 }, (_, index) => client(index)));
      await first.exited;
      expect(first.child.signalCode).toBe('SIGKILL');

      const second = await startServerProcess({ ...env, CRM_WEBHOOK_URL: crm.url }, workDir);
      servers.push(second);
      await crm.waitForRequests(acknowledged.length, 15_000);
      // SIGTERM lets the outbox finish and record every delivery in flight: after exit the count is final.
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);

      const received = crm.leadIds();
      // Every acknowledged lead arrived, and no lead arrived twice.
      expect(new Set(received).size).toBe(received.length);
      for (const id of acknowledged) expect(received).toContain(id);
      const store = openSqliteStore(dbFile);
      try {
        const leads = await store.listLeads();
        for (const id of acknowledged) expect(leads.find((lead) => lead.id === id)?.state).toBe('delivered');
      } finally {
        await store.close();
      }
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});

describe('SIGTERM', () => {
  it(
    'finishes in-flight deliveries, closes the store, exits 0, and never logs a full email or phone',
    async () => {
      const { dbFile, env } = await setUp();
      crm.respond = () => ({ status: 200, body: 'ok', delayMs: 400 });
      const server = await startServerProcess({ ...env, CRM_WEBHOOK_URL: crm.url }, workDir);
      servers.push(server);

      const ids = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          postLead(server.port, {
            ...validLeadBody('contact'),
            email: `term-${index}@example.com`,
            phone: `+1 555 010 ${String(index).padStart(4, '0')}`,
          }),
        ),
      );
      expect(ids.every((id) => id !== undefined)).toBe(true);
      await crm.waitForRequests(1);
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);

      const store = openSqliteStore(dbFile);
      try {
        const leads = await store.listLeads();
        expect(leads.map((lead) => lead.id).sort()).toEqual([...(ids as string[])].sort());
        // Each request the CRM received was answered and recorded as delivered before the exit.
        for (const id of crm.leadIds()) expect(leads.find((lead) => lead.id === id)?.state).toBe('delivered');
        // The rest wait, unleased, for the next start.
        for (const lead of leads.filter((lead) => !crm.leadIds().includes(lead.id))) expect(lead.state).toBe('pending');
      } finally {
        await store.close();
      }

      const { stdout } = server.output();
      const lines = parseLogLines(stdout);
      expect(
        lines
          .filter((line) => line.msg === 'lead stored')
          .map((line) => line.leadId)
          .sort(),
      ).toEqual([...(ids as string[])].sort());
      expect(lines.some((line) => line.msg === 'lead delivered to the CRM' && line.outcome === 'delivered')).toBe(true);
      expect(stdout).not.toMatch(/term-\d@example\.com/);
      expect(stdout).not.toMatch(/555 010/);
      expect(stdout).toContain('t***@example.com');
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});
