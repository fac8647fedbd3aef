import type { LeadStore } from '../store/lead-store.ts';

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

/** The store methods that change what the audit log records. */
type AuditedWrites = Pick<
  LeadStore,
  | 'eraseByEmail'
  | 'retry'
  | 'sendAgain'
  | 'markSpam'
  | 'markNotSpam'
  | 'createAccount'
  | 'removeAccount'
  | 'setAccountRole'
  | 'setAccountPassword'
  | 'purgeExpired'
>;
export type AuditedWrite = keyof AuditedWrites;
type WriteResult<Method extends AuditedWrite> = Awaited<ReturnType<AuditedWrites[Method]>>;

/**
 * Runs `store[method](...args)` and writes the entry `note` makes of its result (undefined: nothing
 * changed, so nothing is written). This is the one place a change and its entry meet, so writing
 * both in one store transaction is a change here alone.
 */
export async function writeWithAudit<Method extends AuditedWrite>(
  store: Pick<LeadStore, Method | 'appendAudit'>,
  method: Method,
  args: Parameters<AuditedWrites[Method]>,
  acting: Acting,
  note: (result: WriteResult<Method>) => AuditNote | undefined,
): Promise<WriteResult<Method>> {
  const write = store[method] as unknown as (...args: Parameters<AuditedWrites[Method]>) => Promise<WriteResult<Method>>;
  const result = await write.apply(store, args);
  const entry = note(result);
  if (entry !== undefined) await store.appendAudit({ at: acting.at, actor: acting.actor, ...entry });
  return result;
}

/**
 * Writes an entry for what is not one store change: an export (a read, recorded once it has begun)
 * or a retry of several leads, which the store moves one at a time.
 */
export async function recordAudit(store: Pick<LeadStore, 'appendAudit'>, acting: Acting, entry: AuditNote): Promise<void> {
  await store.appendAudit({ at: acting.at, actor: acting.actor, ...entry });
}
