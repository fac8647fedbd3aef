import { workerData } from 'node:worker_threads';
import { answerCalls } from '../../back-office/database/worker-store.ts';
import { openSqliteAnalyticsStore } from './sqlite-analytics-store.ts';

// The thread behind sqlite-analytics-worker.ts: opens the store and answers each call in the order
// received. 'opened' answers once the store is open, or with the error that kept it from opening.

answerCalls(() => openSqliteAnalyticsStore((workerData as { file: string }).file));
