import { workerData } from 'node:worker_threads';
import { createSqliteExportReaders } from './sqlite-lead-export.ts';
import { answerCalls } from '../../back-office/database/worker-store.ts';

// The thread behind sqlite-lead-export.ts: downloads' reads of the lead store, apart from its writes.

answerCalls(() => createSqliteExportReaders((workerData as { file: string }).file));
