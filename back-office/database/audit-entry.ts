// An audit entry an operation writes itself, in the same transaction as its change, so the change and
// its trail commit together or not at all. The type and the insert live on the floor because stores
// on both sides of it (the lead relay's, the accounts') write entries; the audit concern
// (server/store/audit/) reads them back.

/** Who did what, given to a mutating store method; `at` defaults to the method's own time. */
export type AuditEntryInput = {
  readonly at?: number;
  /** The signed-in address, or a name for a process (`system`, `cli:<user>`). */
  readonly actor: string;
  readonly action: string;
  /** Never an erased person's address. */
  readonly detail: string;
};

/** The one insert into the audit log, in each engine's placeholder style. */
export const INSERT_AUDIT_SQL = {
  sqlite: 'INSERT INTO audit_log (at, actor, action, detail) VALUES (?, ?, ?, ?)',
  postgres: 'INSERT INTO audit_log (at, actor, action, detail) VALUES ($1, $2, $3, $4)',
} as const;

/** The insert's values: `at` stamped with `now` when the caller gave none. */
export function auditValues(entry: AuditEntryInput, now: number): [at: number, actor: string, action: string, detail: string] {
  return [entry.at ?? now, entry.actor, entry.action, entry.detail];
}
