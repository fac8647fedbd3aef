import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { gatherMigrations } from '../../back-office/database/migrations.ts';
import type { Migration } from '../../back-office/database/migrations.ts';
import { POSTGRES_MIGRATIONS_AS_RELEASED, SQLITE_MIGRATIONS_AS_RELEASED } from '../testing/lead-migrations-as-released.ts';
import { announceSkip, createTestSchema, postgresHarness, TEST_DATABASE_URL } from '../testing/store-harness.ts';
import { POSTGRES_MIGRATIONS, SQLITE_MIGRATIONS } from './lead-schema.ts';
import { openPostgresStore } from './postgres-store.ts';
import { openSqliteStore } from './sqlite-store.ts';

// The migrations live with their concerns and are gathered into one per version. A database that
// upgrades with the gathered lists must be the one the released lists made: the same statements in
// the same order within each version, and the same schema (and rows) at every version.

/** A version's statements, comments and layout aside. */
function statements(migration: Migration): string[] {
  return migration.sql
    .replace(/--[^\n]*/g, '')
    .split(';')
    .map((statement) => statement.replace(/\s+/g, ' ').trim())
    .filter((statement) => statement !== '');
}

/**
 * The versions released since the lists were gathered, each as a fingerprint of its statements (the
 * SHA-256 of `statements` as JSON): a database in the field has run them, so they must never change;
 * a change is a new version. A version is added here once a release carries it.
 */
const RELEASED_SINCE: Record<'sqlite' | 'postgres', Record<number, string>> = {
  sqlite: {
    9: '41414f5267e91d507d5210d5c926d13ae864959c4c35672d14c0c7247d10a739',
    10: '0cede005239ac7b8d5d7e47c01c1a90246e84acce2f863a866fd2112d46e2e58',
  },
  postgres: {
    9: 'c5af8a3387cdb6103acf6592431eb704c5e7a5b95bd5589861dcdd27e5000f35',
    10: 'f48c16af2a1125293f6b6ecb4d9d44492cb9ca7f0ff5ecff3d041b8e4822608a',
  },
};

function fingerprint(migration: Migration): string {
  return createHash('sha256')
    .update(JSON.stringify(statements(migration)))
    .digest('hex');
}

const ENGINES = [
  { engine: 'sqlite', gathered: SQLITE_MIGRATIONS, released: SQLITE_MIGRATIONS_AS_RELEASED },
  { engine: 'postgres', gathered: POSTGRES_MIGRATIONS, released: POSTGRES_MIGRATIONS_AS_RELEASED },
] as const;

describe('the gathered migrations', () => {
  for (const { engine, gathered, released } of ENGINES) {
    it(`run the released statements, version by version, in their order: ${engine}`, () => {
      // Versions after the released ones are new and may still change; every released one must not.
      const asReleased = gathered.slice(0, released.length);
      expect(asReleased.map(({ version, name }) => ({ version, name }))).toEqual(released.map(({ version, name }) => ({ version, name })));
      for (const [index, migration] of asReleased.entries()) expect(statements(migration)).toEqual(statements(released[index]!));
    });

    it(`never change a version released since: ${engine}`, () => {
      const since = Object.entries(RELEASED_SINCE[engine]).map(([version, print]) => ({ version: Number(version), print }));
      for (const { version, print } of since) {
        const migration = gathered.find((candidate) => candidate.version === version);
        expect(migration && fingerprint(migration), `version ${version} as released`).toBe(print);
      }
    });
  }

  it('refuse a step of an unnamed version, a version without steps and a step whose last statement is open', () => {
    const versions = [
      { version: 1, name: 'one' },
      { version: 2, name: 'two' },
    ];
    const one = { version: 1, sql: 'CREATE TABLE a (id INTEGER);' };
    const two = { version: 2, sql: 'CREATE TABLE b (id INTEGER);' };
    expect(gatherMigrations(versions, [[one], [two]]).map((migration) => migration.sql)).toEqual([one.sql, two.sql]);
    expect(() => gatherMigrations(versions, [[one, two, { version: 3, sql: 'SELECT 1;' }]])).toThrow(/version 3/);
    expect(() => gatherMigrations(versions, [[one]])).toThrow(/Schema version 2/);
    expect(() => gatherMigrations(versions, [[one, { version: 2, sql: 'SELECT 1' }]])).toThrow(/does not end/);
  });

  it('run a version’s steps in the order of the concerns given', () => {
    const versions = [{ version: 1, name: 'one' }];
    const first = { version: 1, sql: 'CREATE TABLE a (id INTEGER PRIMARY KEY);' };
    const second = { version: 1, sql: 'CREATE TABLE b (a_id INTEGER REFERENCES a (id));' };
    expect(gatherMigrations(versions, [[first], [second]])[0]!.sql).toBe(`${first.sql}\n${second.sql}`);
  });
});

/** Every schema object as SQLite keeps it (its CREATE text included), and every row but the times applied. */
function sqliteDump(file: string): unknown {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const schema = db.prepare(`SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name`).all();
    const tables = schema.filter((row) => row.type === 'table' && !String(row.name).startsWith('sqlite_'));
    const rows = Object.fromEntries(
      tables.map(({ name }) => [String(name), db.prepare(`SELECT * FROM "${String(name)}" ORDER BY 1`).all()]),
    );
    for (const row of rows.schema_migrations ?? []) delete (row as Record<string, unknown>).applied_at;
    return { schema, rows };
  } finally {
    db.close();
  }
}

describe('a SQLite database upgraded one version at a time', () => {
  it('is at every version what the released migrations made', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'lead-migrations-'));
    try {
      const gatheredFile = path.join(folder, 'gathered.sqlite');
      const releasedFile = path.join(folder, 'released.sqlite');
      for (let version = 1; version <= SQLITE_MIGRATIONS_AS_RELEASED.length; version += 1) {
        await openSqliteStore(gatheredFile, SQLITE_MIGRATIONS.slice(0, version)).close();
        await openSqliteStore(releasedFile, SQLITE_MIGRATIONS_AS_RELEASED.slice(0, version)).close();
        expect({ version, ...(sqliteDump(gatheredFile) as object) }).toEqual({ version, ...(sqliteDump(releasedFile) as object) });
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});

/** The schema's columns, indexes, constraints and sequences, and every row but the times applied, its name left out. */
async function postgresDump(url: string, schema: string): Promise<unknown> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const unnamed = (value: unknown) => JSON.parse(JSON.stringify(value).replaceAll(schema, '<schema>')) as unknown;
    const columns = await client.query(
      `SELECT table_name, column_name, ordinal_position, data_type, column_default, is_nullable
       FROM information_schema.columns WHERE table_schema = $1 ORDER BY table_name, ordinal_position`,
      [schema],
    );
    const indexes = await client.query(`SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = $1 ORDER BY indexname`, [
      schema,
    ]);
    const constraints = await client.query(
      `SELECT c.conrelid::regclass::text AS table_name, c.conname, pg_get_constraintdef(c.oid) AS definition
       FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = $1 ORDER BY c.conname`,
      [schema],
    );
    const sequences = await client.query(
      `SELECT sequence_name, data_type FROM information_schema.sequences WHERE sequence_schema = $1 ORDER BY sequence_name`,
      [schema],
    );
    const rows: Record<string, unknown[]> = {};
    const tables = [...new Set(columns.rows.map((row: { table_name: string }) => row.table_name))];
    for (const table of tables) {
      const found = (await client.query(`SELECT * FROM "${schema}"."${table}" ORDER BY 1`)).rows;
      if (table === 'schema_migrations') for (const row of found) delete (row as Record<string, unknown>).applied_at;
      rows[table] = found;
    }
    return unnamed({ columns: columns.rows, indexes: indexes.rows, constraints: constraints.rows, sequences: sequences.rows, rows });
  } finally {
    await client.end();
  }
}

announceSkip(postgresHarness);

describe.skipIf(postgresHarness.skipReason !== undefined)('a PostgreSQL database upgraded one version at a time', () => {
  it('is at every version what the released migrations made', async () => {
    if (TEST_DATABASE_URL === undefined) throw new Error('TEST_DATABASE_URL is not set');
    const gathered = await createTestSchema(TEST_DATABASE_URL, 'lead_gathered');
    const released = await createTestSchema(TEST_DATABASE_URL, 'lead_released');
    try {
      for (let version = 1; version <= POSTGRES_MIGRATIONS_AS_RELEASED.length; version += 1) {
        await (await openPostgresStore(gathered.url.toString(), POSTGRES_MIGRATIONS.slice(0, version))).close();
        await (await openPostgresStore(released.url.toString(), POSTGRES_MIGRATIONS_AS_RELEASED.slice(0, version))).close();
        expect({ version, dump: await postgresDump(TEST_DATABASE_URL, gathered.schema) }).toEqual({
          version,
          dump: await postgresDump(TEST_DATABASE_URL, released.schema),
        });
      }
    } finally {
      await gathered.drop();
      await released.drop();
    }
  }, 60_000);
});
