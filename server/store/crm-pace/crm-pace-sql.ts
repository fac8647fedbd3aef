import { sharedSql } from '../../../back-office/database/shared-sql.ts';

// The CRM pace's write, for both engines (placeholders aside). Its read differs: PostgreSQL locks
// the row (FOR UPDATE) where SQLite already holds the write lock.

export const UPDATE_PACE = sharedSql('UPDATE crm_pace SET grants = ? WHERE id = 1');
