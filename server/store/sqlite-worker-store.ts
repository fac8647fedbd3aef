import { Worker } from 'node:worker_threads';
import type { LeadStore } from './lead-store.ts';

// The SQLite store on its own thread. node:sqlite is synchronous, so every COMMIT (an fsync of the
// WAL, synchronous=FULL) would stall the server's event loop, and with it every page request. Here
// the HTTP thread only posts messages; the worker runs the store (with its group commit: inserts
// that queue up while a commit is in progress share the next one) and answers each call.

type Call = { id: number; method: keyof LeadStore; args: unknown[] };
type Answer = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: unknown };

const WORKER_URL = new URL('./sqlite-worker-thread.ts', import.meta.url);

export async function openSqliteWorkerStore(file: string): Promise<LeadStore> {
  const worker = new Worker(WORKER_URL, { workerData: { file } });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: unknown) => void }>();
  let nextId = 0;
  let closed = false;
  let failure: unknown;

  worker.on('message', (answer: Answer) => {
    const waiter = pending.get(answer.id);
    pending.delete(answer.id);
    if (answer.ok) waiter?.resolve(answer.value);
    else waiter?.reject(answer.error);
  });
  const rejectAll = (error: unknown) => {
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
  };
  worker.on('error', (error) => {
    failure = error;
    rejectAll(error);
  });
  // A call whose answer was still on its way when the thread stopped must not wait for ever: the
  // outbox loop awaits its calls, and the server's shutdown awaits the outbox loop.
  worker.on('exit', () => rejectAll(failure ?? new Error('The lead store is closed')));

  function call<T>(method: keyof LeadStore, args: unknown[]): Promise<T> {
    if (closed || failure !== undefined) return Promise.reject(failure ?? new Error('The lead store is closed'));
    return send(method, args);
  }
  function send<T>(method: keyof LeadStore, args: unknown[]): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const id = (nextId += 1);
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ id, method, args } satisfies Call);
    });
  }

  // Opening (and migrating) happens in the worker; wait for it so start-up errors surface here.
  await call('schemaVersion', []);

  return {
    insertLead: (...args) => call('insertLead', args),
    claimDue: (...args) => call('claimDue', args),
    recordResults: (...args) => call('recordResults', args),
    releaseHeld: (...args) => call('releaseHeld', args),
    holdPending: (...args) => call('holdPending', args),
    retry: (...args) => call('retry', args),
    eraseByEmail: (...args) => call('eraseByEmail', args),
    listLeads: (...args) => call('listLeads', args),
    getLead: (...args) => call('getLead', args),
    listAttempts: (...args) => call('listAttempts', args),
    countByState: () => call('countByState', []),
    listLeadPage: (...args) => call('listLeadPage', args),
    markSpam: (...args) => call('markSpam', args),
    markNotSpam: (...args) => call('markNotSpam', args),
    countLeadsByEmail: (...args) => call('countLeadsByEmail', args),
    appendAudit: (...args) => call('appendAudit', args),
    listAudit: (...args) => call('listAudit', args),
    leadHealth: (...args) => call('leadHealth', args),
    purgeExpired: (...args) => call('purgeExpired', args),
    takeCrmSlots: (...args) => call('takeCrmSlots', args),
    giveBackCrmSlots: (...args) => call('giveBackCrmSlots', args),
    countSignInAttempt: (...args) => call('countSignInAttempt', args),
    signInSucceeded: (...args) => call('signInSucceeded', args),
    withdrawSignInAttempt: (...args) => call('withdrawSignInAttempt', args),
    createAccount: (...args) => call('createAccount', args),
    listAccounts: () => call('listAccounts', []),
    findAccount: (...args) => call('findAccount', args),
    removeAccount: (...args) => call('removeAccount', args),
    setAccountRole: (...args) => call('setAccountRole', args),
    setAccountPassword: (...args) => call('setAccountPassword', args),
    createSession: (...args) => call('createSession', args),
    findSession: (...args) => call('findSession', args),
    endSession: (...args) => call('endSession', args),
    endAccountSessions: (...args) => call('endAccountSessions', args),
    schemaVersion: () => call('schemaVersion', []),
    notifyWatermark: () => call('notifyWatermark', []),
    readNotifyEvents: (...args) => call('readNotifyEvents', args),
    enqueueNotifications: (...args) => call('enqueueNotifications', args),
    startIncident: (...args) => call('startIncident', args),
    endIncident: (...args) => call('endIncident', args),
    findOpenIncident: () => call('findOpenIncident', []),
    claimNotifications: (...args) => call('claimNotifications', args),
    recordNotificationResults: (...args) => call('recordNotificationResults', args),
    listNotifications: () => call('listNotifications', []),
    listNotifyForms: () => call('listNotifyForms', []),
    setNotifyForm: (...args) => call('setNotifyForm', args),
    // An AbortSignal cannot cross threads; the health check's own timeout covers a stuck worker.
    ping: () => call('ping', []),
    async close() {
      if (closed) return;
      // No call is accepted once closing starts; the ones already sent are answered (the thread
      // answers in order) or rejected when it exits.
      closed = true;
      if (failure === undefined) await send('close', []).catch(() => {});
      await worker.terminate();
      rejectAll(new Error('The lead store is closed'));
    },
  };
}
