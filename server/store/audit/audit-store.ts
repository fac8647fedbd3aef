// The audit log: who did what in the back office, newest first.

export type AuditEntry = { readonly at: number; readonly actor: string; readonly action: string; readonly detail: string };
export type AuditRecord = AuditEntry & { readonly id: number };
/** Where a page of the audit log ends (newest first). */
export type AuditCursor = { readonly at: number; readonly id: number };
export type AuditPageResult = { readonly entries: AuditRecord[]; readonly next: AuditCursor | undefined };

/** Writing to the audit log, for code that records what it did but never reads the log back. */
export interface AuditWriter {
  /** Records who did what in the back office. */
  appendAudit(entry: AuditEntry): Promise<void>;
}

/** Writing and reading the audit log (the console's audit screen reads it). */
export interface AuditStore extends AuditWriter {
  /** The audit log newest first, after `before` (a `next` from the previous page). */
  listAudit(before: AuditCursor | undefined, limit: number): Promise<AuditPageResult>;
}
