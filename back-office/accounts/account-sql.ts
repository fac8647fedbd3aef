import { sharedSql } from '../database/shared-sql.ts';
import { ACCOUNT_COLUMNS } from './account-rows.ts';

// The accounts' reads both engines run alike (placeholders aside). The changes stay each engine's:
// PostgreSQL locks the rows it judges (FOR UPDATE) and reads back through RETURNING.

export const SELECT_ACCOUNTS = sharedSql(`SELECT ${ACCOUNT_COLUMNS} FROM accounts ORDER BY email`);

export const SELECT_ACCOUNT_BY_EMAIL = sharedSql(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE email = ?`);
