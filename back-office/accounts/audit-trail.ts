// The audit log's one way in. Every change the back office makes (from the console, the command
// line or the retention purge) goes through an operation that names its actor. An operation that is
// one store call hands it, with the entry describing it, to `writeWithAudit`; what is not one store
// change (an export, a retry of several leads) is recorded just after with `recordAudit`. So the
// entry is written by the code that makes the change, in the same words whoever asked for it.

/** The retention purge and other work the server does by itself. */
export const SYSTEM_ACTOR = 'system';

/**
 * A person at a terminal running `npm run leads` or `npm run users`, named by their system account,
 * so the audit screen tells a command-line change from a console one: "command line (ana)".
 */
export function commandLineActor(userName: string): string {
  return `command line (${userName})`;
}

/** Who acts and when: a console account's e-mail address, `commandLineActor(…)` or SYSTEM_ACTOR. */
export type Acting = { readonly actor: string; readonly at: number };

/** An audit entry's own words: the action's name and its detail, as the audit screen shows them. */
export type AuditNote = { readonly action: string; readonly detail: string };

/** One entry of the audit log, as the store keeps it. */
export type AuditEntry = Acting & AuditNote;

/** The audit log the store keeps: an operation writes to it through the functions below only. */
export type AuditLog = { appendAudit(entry: AuditEntry): Promise<void> };

/**
 * The store changes the audit log records (each of them an operation of leads/operations.ts,
 * leads/not-spam.ts, accounts/operations.ts or the retention purge).
 */
export type AuditedWrite =
  | 'eraseByEmail'
  | 'retry'
  | 'sendAgain'
  | 'markSpam'
  | 'markNotSpam'
  | 'createAccount'
  | 'removeAccount'
  | 'setAccountRole'
  | 'setAccountPassword'
  | 'purgeExpired';

type StoreWrite = (...args: never[]) => Promise<unknown>;

/**
 * Runs `store[method](...args)` and writes the entry `note` makes of its result (undefined: nothing
 * changed, so nothing is written). This is the one place a change and its entry meet, so writing
 * both in one store transaction is a change here alone.
 */
export async function writeWithAudit<Method extends AuditedWrite, Store extends AuditLog & Record<Method, StoreWrite>>(
  store: Store,
  method: Method,
  args: Parameters<Store[Method]>,
  acting: Acting,
  note: (result: Awaited<ReturnType<Store[Method]>>) => AuditNote | undefined,
): Promise<Awaited<ReturnType<Store[Method]>>> {
  const write = store[method] as unknown as (...args: Parameters<Store[Method]>) => Promise<Awaited<ReturnType<Store[Method]>>>;
  const result = await write.apply(store, args);
  const entry = note(result);
  if (entry !== undefined) await store.appendAudit({ at: acting.at, actor: acting.actor, ...entry });
  return result;
}

/**
 * Writes an entry for what is not one store change: an export (a read, recorded once it has begun),
 * a retry of several leads, which the store moves one at a time, or a notification setting.
 */
export async function recordAudit(store: AuditLog, acting: Acting, entry: AuditNote): Promise<void> {
  await store.appendAudit({ at: acting.at, actor: acting.actor, ...entry });
}
