// A download abandoned at any moment gives back its read and its place: a browser that asks for an
// export and goes away at once, or after the first bytes, leaves no read open on either engine (on
// PostgreSQL no connection left "idle in transaction"), and the exports that follow still work.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { LeadExport } from '../store/inbox/inbox-store.ts';
import type { Database } from '../store/database.ts';
import { startConsoleServer, type ConsoleTestServer, type Signed } from '../testing/console-client.ts';
import { postgresHarness, sqliteWorkerHarness, TEST_DATABASE_URL, type StoreDatabase } from '../testing/store-harness.ts';
import { MAX_DOWNLOADS } from './routes/leads.ts';

let server: ConsoleTestServer | undefined;
let database: StoreDatabase | undefined;
afterEach(async () => {
  await server?.close();
  await database?.remove();
  server = undefined;
  database = undefined;
});

const ABANDONED = 12;
const leadId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** Counts the export reads the store has opened and not yet closed. */
function countOpenReads(store: Database): () => number {
  const open = store.openLeadExport.bind(store);
  let count = 0;
  store.openLeadExport = async (query) => {
    const reader = await open(query);
    count += 1;
    let closed = false;
    const counted: LeadExport = {
      nextPage: (limit) => reader.nextPage(limit),
      async close() {
        if (!closed) count -= 1;
        closed = true;
        await reader.close();
      },
    };
    return counted;
  };
  return () => count;
}

/** Asks for an export over a socket and closes it at once, or once the first bytes have come. */
function abandonExport(port: number, signed: Signed, after: 'at once' | 'first bytes'): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(`GET /console/api/leads/export?format=csv HTTP/1.1\r\nHost: localhost\r\nCookie: ${signed.cookie}\r\n\r\n`);
      if (after === 'at once') socket.destroy();
    });
    socket.once('data', () => socket.destroy());
    socket.once('error', () => resolve());
    socket.once('close', () => resolve());
  });
}

async function until(condition: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`still waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** PostgreSQL sessions holding a lock in `schema` while idle in a transaction: a leaked export read. */
async function idleInTransaction(schema: string): Promise<number> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: string }>(
      `SELECT count(DISTINCT a.pid) AS count FROM pg_stat_activity a
         JOIN pg_locks l ON l.pid = a.pid
         JOIN pg_class c ON c.oid = l.relation
         JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE a.state = 'idle in transaction' AND n.nspname = $1`,
      [schema],
    );
    return Number(rows[0]?.count ?? 0);
  } finally {
    await client.end();
  }
}

describe.each([
  ['SQLite', sqliteWorkerHarness],
  ['PostgreSQL', postgresHarness],
] as const)('an abandoned export on %s', (name, harness) => {
  it.skipIf(harness.skipReason)(
    'closes its read and frees its place, whether the browser goes at once or after the first bytes',
    async () => {
      database = await harness.createDatabase();
      const console = await startConsoleServer({ database });
      server = console;
      await console.addAccount('viewer@example.com', 'viewer');
      for (let n = 1; n <= 450; n += 1)
        await console.insertLead({ id: leadId(n), email: `lead${n}@example.com`, payload: { name: `Lead ${n}` } });
      const openReads = countOpenReads(console.store);
      const viewer = await console.signedIn('viewer@example.com');
      await console.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = console.app.server.address() as AddressInfo;

      for (let index = 0; index < ABANDONED; index += 1) {
        await abandonExport(port, viewer, index % 2 === 0 ? 'at once' : 'first bytes');
      }
      await until(() => openReads() === 0, 'every abandoned read closed');
      if (name === 'PostgreSQL') {
        const schema = new URL(database.serverEnv.DATABASE_URL!).searchParams.get('options')!.split('=').at(-1)!;
        await until(async () => (await idleInTransaction(schema)) === 0, 'no connection idle in a transaction');
      }

      // More downloads than may run at once, one after another: none is told the console is busy.
      for (let index = 0; index <= MAX_DOWNLOADS; index += 1) {
        const response = await console.read(viewer, '/console/api/leads/export?format=csv');
        expect(response.statusCode).toBe(200);
        expect(response.body.trimEnd().split('\n')).toHaveLength(451);
      }
      expect(openReads()).toBe(0);
    },
    30_000,
  );
});
