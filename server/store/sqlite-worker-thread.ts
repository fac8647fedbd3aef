import { workerData } from 'node:worker_threads';
import { openSqliteStore } from './sqlite-store.ts';
import { answerCalls } from '../../back-office/database/worker-store.ts';

// The thread behind sqlite-worker-store.ts: opens the store and answers each call in order received.

answerCalls(() => openSqliteStore((workerData as { file: string }).file));
