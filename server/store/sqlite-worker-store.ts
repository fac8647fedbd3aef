import { keysetExport } from './inbox/inbox-store.ts';
import type { Database } from './database-contract.ts';
import { makeDatabaseFolder } from '../../back-office/database/sqlite-database.ts';
import { sqliteExportThread } from './sqlite-lead-export.ts';
import { openWorkerStore } from '../../back-office/database/worker-store.ts';

// The SQLite store on its own thread (see worker-store.ts), so every COMMIT (an fsync of the WAL,
// synchronous=FULL) is waited for there, not on the server's event loop. The worker runs the store
// with its group commit: inserts that queue up while a commit is in progress share the next one.

const WORKER_URL = new URL('./sqlite-worker-thread.ts', import.meta.url);

export async function openSqliteWorkerStore(file: string): Promise<Database> {
  // Here, before the thread starts, so a folder that cannot be made is an error and never a thread stuck making it.
  makeDatabaseFolder(file);
  // Every method of every concern is forwarded by name (the thread lists them); downloads are read
  // on a thread of their own (sqlite-lead-export.ts), never on the store's.
  const store = await openWorkerStore<Omit<Database, 'openLeadExport'>>({
    url: WORKER_URL,
    workerData: { file },
    closedMessage: 'The lead store is closed',
    openedBy: 'schemaVersion',
  });
  const exports = sqliteExportThread(file);
  return {
    ...store,
    // An AbortSignal cannot cross threads; the health check's own timeout covers a stuck worker.
    ping: () => store.ping(),
    // A database held in memory (tests) has no file another connection could read: its one thread reads the pages.
    openLeadExport: async (query) =>
      file === ':memory:'
        ? keysetExport(
            (after, limit) => store.listLeadPage(query, after, limit),
            async () => {},
          )
        : exports.open(query),
    async close() {
      // The store refuses new calls from this moment; the downloads' thread ends beside it.
      await Promise.all([store.close(), exports.close()]);
    },
  };
}
