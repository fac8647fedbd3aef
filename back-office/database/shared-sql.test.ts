import { describe, expect, it } from 'vitest';
import { sharedSql } from './shared-sql.ts';

describe('sharedSql', () => {
  it('keeps the statement for SQLite and numbers its placeholders in order for PostgreSQL', () => {
    expect(sharedSql('UPDATE t SET a = ?, b = ? WHERE id = ?')).toEqual({
      sqlite: 'UPDATE t SET a = ?, b = ? WHERE id = ?',
      postgres: 'UPDATE t SET a = $1, b = $2 WHERE id = $3',
    });
  });

  it('leaves a question mark inside a quoted literal or identifier alone', () => {
    expect(sharedSql(`SELECT "why?" FROM t WHERE a = 'who?' AND b = 'it''s ?' AND c = ?`).postgres).toBe(
      `SELECT "why?" FROM t WHERE a = 'who?' AND b = 'it''s ?' AND c = $1`,
    );
  });

  it('refuses a statement already numbered, or with a quote left open', () => {
    expect(() => sharedSql('SELECT a FROM t WHERE id = $1')).toThrow(/\? placeholders only/);
    expect(() => sharedSql(`SELECT a FROM t WHERE b = 'open`)).toThrow(/quote open/);
  });
});
