import type { AuditEntryInput } from '../database/audit-entry.ts';
import type { AuditDetailKind } from '../database/audit-detail.ts';

// The audit log's one way in. Every change the back office makes (from the console, the command
// line or the retention purge) goes through an operation that names its actor. An operation that is
// one store call hands it, with the entry describing it, to `writeWithAudit`, and the store writes
// the entry in the change's own transaction; what is not one store change (an export, a retry of
// several leads, a notification setting) is recorded just after with `recordAudit`. So the entry is
// written by the code that makes the change, in the same words whoever asked for it.

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
 * leads/not-spam.ts, accounts/operations.ts, the weekly summary's switch or the retention purge).
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
  | 'setWeeklySummaryChoice'
  | 'purgeExpired';

/** A store method whose last parameter is the audit entry it writes in its change's transaction. */
type AuditedStoreWrite = (...args: never[]) => Promise<unknown>;

/** Every parameter of an audited method before its entry, each given (an optional one too). */
type ArgsBeforeAudit<Write> = Write extends (...args: infer Params) => Promise<unknown>
  ? Required<Params> extends [...infer Before, unknown]
    ? Before
    : never
  : never;

/** The wordings an audited method can give its result (see back-office/database/audit-detail.ts). */
type DetailKindOf<Write> = Write extends (...args: infer Params) => Promise<unknown>
  ? Required<Params> extends [...unknown[], AuditEntryInput<infer Kind>]
    ? Kind
    : never
  : never;

/**
 * An entry's own words, as an operation gives them: a fixed detail, or the name of a wording the
 * store applies to its result (how many leads it erased, the role an account had).
 */
export type AuditedNote<Kind extends AuditDetailKind = never> =
  AuditNote | { readonly action: string; readonly describe: Kind; readonly detail?: undefined };

/**
 * Runs `store[method](...args, entry)`: the store makes the change and writes the entry in the same
 * transaction, only when the change happened (as each method's contract says: a role change that
 * found no account, a spam mark on a lead the CRM has, write none), so the change and its trail
 * commit together or not at all. `args` are every parameter before the entry, optional ones too.
 */
export async function writeWithAudit<Method extends AuditedWrite, Store extends Record<Method, AuditedStoreWrite>>(
  store: Store,
  method: Method,
  args: ArgsBeforeAudit<Store[Method]>,
  acting: Acting,
  note: AuditedNote<DetailKindOf<Store[Method]>>,
): Promise<Awaited<ReturnType<Store[Method]>>> {
  const write = store[method] as unknown as (...args: unknown[]) => Promise<Awaited<ReturnType<Store[Method]>>>;
  const entry = { at: acting.at, actor: acting.actor, ...note };
  return write.apply(store, [...(args as unknown[]), entry]);
}

/**
 * Writes an entry for what is not one store change: an export (a read, recorded once it has begun),
 * a retry of several leads, which the store moves one at a time, or a notification setting.
 */
export async function recordAudit(store: AuditLog, acting: Acting, entry: AuditNote): Promise<void> {
  await store.appendAudit({ at: acting.at, actor: acting.actor, ...entry });
}
