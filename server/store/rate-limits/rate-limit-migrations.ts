import type { ConcernMigrations } from '../../../back-office/database/migrations.ts';

// The shared rate limits' counts: each engine's steps, each tagged with the lead database's schema
// version it came in. server/store/lead-schema.ts names the versions and runs a version's steps of
// every concern together. Never edit a released step: a change is a new step under the next version.
//
// One row per limit, key (a client address) and fixed window: how many requests every server counted
// in it. Only PostgreSQL uses it (several servers); one SQLite process counts in its own memory, and
// its step exists so both engines keep the same schema at every version. On PostgreSQL the table is
// UNLOGGED: its rows live a window long, so writing them to the WAL would only cost; a database crash
// empties it, which forgets at most one window of counts.

// Beside them, the distinct values a bound keeps a period (the analytics' referring sites and campaigns of
// a UTC day): at most so many a day across every server, a value a lead carried kept whatever the bound
// holds (`by_lead`, not counted against it); deleted once the period is over.

const columns = `
        name TEXT NOT NULL,
        key TEXT NOT NULL,
        window_start BIGINT NOT NULL,
        window_end BIGINT NOT NULL,
        hits INTEGER NOT NULL,
        PRIMARY KEY (name, key, window_start)
      );
      CREATE INDEX rate_limit_hits_window_end ON rate_limit_hits (window_end);
      CREATE TABLE rate_limit_kept_values (
        name TEXT NOT NULL,
        period TEXT NOT NULL,
        value TEXT NOT NULL,
        by_lead SMALLINT NOT NULL,
        period_end BIGINT NOT NULL,
        PRIMARY KEY (name, period, value)
      );
      CREATE INDEX rate_limit_kept_values_period_end ON rate_limit_kept_values (period_end);
`;

export const RATE_LIMIT_MIGRATIONS: ConcernMigrations = {
  sqlite: [{ version: 11, sql: `\n      CREATE TABLE rate_limit_hits (${columns}` }],
  postgres: [{ version: 11, sql: `\n      CREATE UNLOGGED TABLE rate_limit_hits (${columns}` }],
};
