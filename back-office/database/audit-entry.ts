import { describeAuditDetail, type AuditDetailKind, type AuditDetailResults } from './audit-detail.ts';

// An audit entry an operation writes itself, in the same transaction as its change, so the change and
// its trail commit together or not at all. The type and the insert live on the floor because stores
// on both sides of it (the lead relay's, the accounts') write entries; the audit concern
// (server/store/audit/) reads them back.

/**
 * Who did what, given to a mutating store method; `at` defaults to the method's own time. The detail
 * is either fixed (`detail`) or worded from the method's result (`describe`, see audit-detail.ts):
 * `Kind` is the wordings the method can give a result for (none by default).
 */
export type AuditEntryInput<Kind extends AuditDetailKind = never> = {
  readonly at?: number;
  /** The signed-in address, or a name for a process (`system`, `command line (<user>)`). */
  readonly actor: string;
  readonly action: string;
} & (
  | {
      /** Never an erased person's address. */
      readonly detail: string;
      readonly describe?: undefined;
    }
  | { readonly describe: Kind; readonly detail?: undefined }
);

/** The one insert into the audit log, in each engine's placeholder style. */
export const INSERT_AUDIT_SQL = {
  sqlite: 'INSERT INTO audit_log (at, actor, action, detail) VALUES (?, ?, ?, ?)',
  postgres: 'INSERT INTO audit_log (at, actor, action, detail) VALUES ($1, $2, $3, $4)',
} as const;

/**
 * The insert's values: `at` stamped with `now` when the caller gave none, and the detail worded from
 * `result` (what the change did) when the entry asks for it.
 */
export function auditValues<Kind extends AuditDetailKind>(
  entry: AuditEntryInput<Kind>,
  now: number,
  result?: AuditDetailResults[Kind],
): [at: number, actor: string, action: string, detail: string] {
  return [entry.at ?? now, entry.actor, entry.action, detailOf(entry, result)];
}

function detailOf<Kind extends AuditDetailKind>(entry: AuditEntryInput<Kind>, result: AuditDetailResults[Kind] | undefined): string {
  if (entry.detail !== undefined) return entry.detail;
  if (entry.describe === undefined) throw new Error('An audit entry needs a detail or a wording for one');
  if (result === undefined) throw new Error(`The audit detail "${entry.describe}" needs the change's result`);
  return describeAuditDetail(entry.describe, result);
}
