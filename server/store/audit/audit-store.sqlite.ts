import type { AuditCursor, AuditEntry, AuditPageResult } from './audit-store.ts';
import { assertPageLimit } from '../../../back-office/database/page-limit.ts';
import { toAuditPage } from '../row-mapping.ts';
import type { SqliteStoreContext } from '../../../back-office/database/sqlite-database.ts';
import type { AuditStore } from './audit-store.ts';

// The audit log in SQLite.

export function sqliteAudit(c: SqliteStoreContext): AuditStore {
  const { all, run, transaction, ifOpen } = c;
  function listAudit(before: AuditCursor | undefined, limit: number): AuditPageResult {
    assertPageLimit(limit);
    const rows =
      before === undefined
        ? all('SELECT id, at, actor, action, detail FROM audit_log ORDER BY at DESC, id DESC LIMIT ?', limit + 1)
        : all(
            'SELECT id, at, actor, action, detail FROM audit_log WHERE (at, id) < (?, ?) ORDER BY at DESC, id DESC LIMIT ?',
            before.at,
            before.id,
            limit + 1,
          );
    return toAuditPage(rows, limit);
  }
  return {
    appendAudit: ifOpen(({ at, actor, action, detail }: AuditEntry) => {
      transaction(() => run('INSERT INTO audit_log (at, actor, action, detail) VALUES (?, ?, ?, ?)', at, actor, action, detail));
    }),
    listAudit: ifOpen(listAudit),
  };
}
