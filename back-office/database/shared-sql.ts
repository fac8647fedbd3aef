// A statement SQLite and PostgreSQL both run as written but for their placeholders, kept once so the
// two engines cannot drift apart: it is written with SQLite's `?`, and PostgreSQL's copy numbers them
// `$1`, `$2`… in order. Each `?` is its own parameter in both, so a value used twice is passed twice.

/** One statement in each engine's placeholder style. */
export type SharedSql = { readonly sqlite: string; readonly postgres: string };

/**
 * The statement for both engines. A `?` inside a quoted literal or identifier is text, not a
 * placeholder; a statement already numbered (`$1`) or with a quote left open is the caller's mistake.
 */
export function sharedSql(sql: string): SharedSql {
  if (/\$\d/.test(sql)) throw new Error(`A shared statement is written with ? placeholders only: ${sql}`);
  let postgres = '';
  let count = 0;
  let quote: string | undefined;
  for (const char of sql) {
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
      postgres += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      postgres += char;
    } else if (char === '?') {
      count += 1;
      postgres += `$${count}`;
    } else {
      postgres += char;
    }
  }
  if (quote !== undefined) throw new Error(`A shared statement leaves a quote open: ${sql}`);
  return { sqlite: sql, postgres };
}
