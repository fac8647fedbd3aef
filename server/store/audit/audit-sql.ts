import { sharedSql } from '../../../back-office/database/shared-sql.ts';

// The audit log's pages, newest first, for both engines (placeholders aside). Each asks for one row
// more than the page shows, which tells whether another page follows.

export const SELECT_NEWEST_AUDIT = sharedSql('SELECT id, at, actor, action, detail FROM audit_log ORDER BY at DESC, id DESC LIMIT ?');

/** Values: the cursor's time and id, the row count. */
export const SELECT_AUDIT_BEFORE = sharedSql(
  'SELECT id, at, actor, action, detail FROM audit_log WHERE (at, id) < (?, ?) ORDER BY at DESC, id DESC LIMIT ?',
);
