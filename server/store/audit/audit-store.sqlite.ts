import type { AuditCursor, AuditEntry, AuditPageResult } from './audit-store.ts';
import { assertPageLimit } from '../../../back-office/database/page-limit.ts';
import { toAuditPage } from '../row-mapping.ts';
import type { SqliteStoreContext } from '../../../back-office/database/sqlite-database.ts';
import type { AuditStore } from './audit-store.ts';
import { SELECT_AUDIT_BEFORE, SELECT_NEWEST_AUDIT } from './audit-sql.ts';
import { INSERT_AUDIT_SQL } from '../../../back-office/database/audit-entry.ts';

// The audit log in SQLite.

export function sqliteAudit(c: SqliteStoreContext): AuditStore {
  const { all, run, transaction, ifOpen } = c;
  function listAudit(before: AuditCursor | undefined, limit: number): AuditPageResult {
    assertPageLimit(limit);
    const rows =
      before === undefined ? all(SELECT_NEWEST_AUDIT.sqlite, limit + 1) : all(SELECT_AUDIT_BEFORE.sqlite, before.at, before.id, limit + 1);
    return toAuditPage(rows, limit);
  }
  return {
    appendAudit: ifOpen(({ at, actor, action, detail }: AuditEntry) => {
      transaction(() => run(INSERT_AUDIT_SQL.sqlite, at, actor, action, detail));
    }),
    listAudit: ifOpen(listAudit),
  };
}
