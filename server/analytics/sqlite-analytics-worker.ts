import { makeDatabaseFolder } from '../../back-office/database/sqlite-database.ts';
import { openWorkerStore } from '../../back-office/database/worker-store.ts';
import type { WorkerStoreMethods } from '../../back-office/database/worker-store.ts';
import type { AnalyticsStore } from './analytics-store.ts';

// The SQLite analytics store on its own thread, as the lead store runs (see
// server/store/worker-store.ts): node:sqlite is synchronous, so a batch's COMMIT would stall the
// server's event loop, and with it every page request.

const WORKER_URL = new URL('./sqlite-analytics-worker-thread.ts', import.meta.url);

const METHODS: WorkerStoreMethods<AnalyticsStore> = {
  recordEvents: true,
  recordLead: true,
  recordLeadJudged: true,
  recordLeadDelivered: true,
  recordMeeting: true,
  summaryDays: true,
  summaryMonths: true,
  conversions: true,
  summaryCountedFrom: true,
  dayTotals: true,
  pageTotals: true,
  referrerTotals: true,
  campaignTotals: true,
  entryTotals: true,
  funnel: true,
  recordVitals: true,
  vitals: true,
  deleteRawBefore: true,
  saltForDay: true,
  deleteSaltsBefore: true,
  schemaVersion: true,
};

export async function openSqliteAnalyticsWorkerStore(file: string): Promise<AnalyticsStore> {
  // Here, before the thread starts, so a folder that cannot be made is an error and never a thread stuck making it.
  makeDatabaseFolder(file);
  return openWorkerStore<AnalyticsStore>({
    url: WORKER_URL,
    workerData: { file },
    methods: METHODS,
    closedMessage: 'The analytics store is closed',
  });
}
