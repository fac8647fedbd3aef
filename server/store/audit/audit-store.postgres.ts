import { assertPageLimit } from '../../../back-office/database/page-limit.ts';
import { toAuditPage } from '../row-mapping.ts';
import type { PostgresStoreContext } from '../../../back-office/database/postgres-database.ts';
import type { AuditStore } from './audit-store.ts';
import { SELECT_AUDIT_BEFORE, SELECT_NEWEST_AUDIT } from './audit-sql.ts';
import { INSERT_AUDIT_SQL } from '../../../back-office/database/audit-entry.ts';

// The audit log in PostgreSQL.

export function postgresAudit(c: PostgresStoreContext): AuditStore {
  const { query } = c;

  return {
    appendAudit: async ({ at, actor, action, detail }) => {
      await query(INSERT_AUDIT_SQL.postgres, [at, actor, action, detail]);
    },

    listAudit: async (before, limit) => {
      assertPageLimit(limit);
      const rows =
        before === undefined
          ? await query(SELECT_NEWEST_AUDIT.postgres, [limit + 1])
          : await query(SELECT_AUDIT_BEFORE.postgres, [before.at, before.id, limit + 1]);
      return toAuditPage(rows, limit);
    },
  };
}
