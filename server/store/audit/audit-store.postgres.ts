import { assertPageLimit } from '../../../back-office/database/page-limit.ts';
import { toAuditPage } from '../row-mapping.ts';
import type { PostgresStoreContext } from '../../../back-office/database/postgres-database.ts';
import type { AuditStore } from './audit-store.ts';

// The audit log in PostgreSQL.

export function postgresAudit(c: PostgresStoreContext): AuditStore {
  const { query } = c;

  return {
    appendAudit: async ({ at, actor, action, detail }) => {
      await query('INSERT INTO audit_log (at, actor, action, detail) VALUES ($1, $2, $3, $4)', [at, actor, action, detail]);
    },

    listAudit: async (before, limit) => {
      assertPageLimit(limit);
      const rows =
        before === undefined
          ? await query('SELECT id, at, actor, action, detail FROM audit_log ORDER BY at DESC, id DESC LIMIT $1', [limit + 1])
          : await query(
              'SELECT id, at, actor, action, detail FROM audit_log WHERE (at, id) < ($1, $2) ORDER BY at DESC, id DESC LIMIT $3',
              [before.at, before.id, limit + 1],
            );
      return toAuditPage(rows, limit);
    },
  };
}
