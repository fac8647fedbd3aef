import { DatabaseSync } from 'node:sqlite';
import { buildLeadPageQuery } from './lead-page-query.ts';
import type { LeadExport, LeadPageResult, LeadQuery, LeadRecord } from './inbox/inbox-store.ts';
import { toLeadPage } from './row-mapping.ts';
import { openWorkerStore } from '../../back-office/database/worker-store.ts';

// A download's read of the SQLite lead store: a read-only connection of its own holding one read
// transaction, so every page comes from the snapshot taken when the download began (WAL: writers
// go on while it reads). The server runs these connections on a thread of their own (the export
// thread), apart from the store's thread that takes new leads, so no page of a download, however
// slow its filter, ever makes a new lead wait.

/** How long a read waits for a lock (only a checkpoint's brief one can stand in its way). */
const READ_BUSY_TIMEOUT_MS = 5_000;

/** Opens an export on its own connection to `file`, its snapshot taken now. Synchronous: node:sqlite is. */
export function openSqliteLeadExportSync(file: string, query: LeadQuery): { readPage(limit: number): LeadRecord[]; close(): void } {
  const db = new DatabaseSync(file, { readOnly: true, timeout: READ_BUSY_TIMEOUT_MS });
  // BEGIN is deferred: the first read takes the snapshot, so one is made here, not at the first page.
  db.exec('BEGIN');
  db.prepare('SELECT 1 FROM leads LIMIT 1').get();
  let page: LeadPageResult = { leads: [], next: undefined };
  let started = false;
  return {
    readPage(limit) {
      if (started && page.next === undefined) return [];
      const { sql, params } = buildLeadPageQuery('sqlite', query, page.next, limit);
      page = toLeadPage(db.prepare(sql).all(...params) as Record<string, string | number | null>[], limit);
      started = true;
      return page.leads;
    },
    close() {
      if (!db.isOpen) return;
      if (db.isTransaction) db.exec('COMMIT');
      db.close();
    },
  };
}

/** A LeadExport over a reader that keeps its own position and answers no leads once it has read them all. */
export function exportOf(readPage: (limit: number) => Promise<LeadRecord[]>, close: () => Promise<void>): LeadExport {
  let done = false;
  let closed = false;
  return {
    async nextPage(limit) {
      if (done || closed) return [];
      const leads = await readPage(limit);
      done = leads.length === 0;
      return leads;
    },
    async close() {
      if (closed) return;
      closed = true;
      await close();
    },
  };
}

/** The export thread's calls: exports by number, each on its own connection. */
export type SqliteExportReaders = {
  openExport(query: LeadQuery): Promise<number>;
  readExportPage(id: number, limit: number): Promise<LeadRecord[]>;
  closeExport(id: number): Promise<void>;
  close(): Promise<void>;
};

/** The export thread's side (see sqlite-export-thread.ts). */
export function createSqliteExportReaders(file: string): SqliteExportReaders {
  const exports = new Map<number, ReturnType<typeof openSqliteLeadExportSync>>();
  let nextId = 0;
  return {
    async openExport(query) {
      nextId += 1;
      exports.set(nextId, openSqliteLeadExportSync(file, query));
      return nextId;
    },
    async readExportPage(id, limit) {
      const reader = exports.get(id);
      if (reader === undefined) throw new Error('This download has ended');
      return reader.readPage(limit);
    },
    async closeExport(id) {
      exports.get(id)?.close();
      exports.delete(id);
    },
    async close() {
      for (const reader of exports.values()) reader.close();
      exports.clear();
    },
  };
}

const EXPORT_THREAD_URL = new URL('./sqlite-export-thread.ts', import.meta.url);

/**
 * The HTTP thread's side: the export thread, started at the first download and kept for the next,
 * until `close`. Each export's pages are read there, never on the store's own thread.
 */
export function sqliteExportThread(file: string): { open(query: LeadQuery): Promise<LeadExport>; close(): Promise<void> } {
  let readers: Promise<SqliteExportReaders> | undefined;
  let closed = false;
  const start = () =>
    openWorkerStore<SqliteExportReaders>({
      url: EXPORT_THREAD_URL,
      workerData: { file },
      methods: { openExport: true, readExportPage: true, closeExport: true },
      closedMessage: 'The lead store is closed',
    });
  return {
    async open(query) {
      if (closed) throw new Error('The lead store is closed');
      readers ??= start();
      // A thread that could not start is started afresh by the next download.
      const thread = await readers.catch((error: unknown) => {
        readers = undefined;
        throw error;
      });
      const id = await thread.openExport(query);
      return exportOf(
        (limit) => thread.readExportPage(id, limit),
        () => thread.closeExport(id),
      );
    },
    async close() {
      closed = true;
      const thread = await readers?.catch(() => undefined);
      await thread?.close();
    },
  };
}
