// Versioned schema migrations: each store keeps an ordered list, applies the ones newer than the
// recorded version at start (inside one transaction, under a lock) and records each it applied.
// Never edit a released migration: add the next version.

export type Migration = {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
};

/**
 * One concern's part of a schema version: a version that changed several concerns' tables has one
 * step in each, all under its number. A step is whole statements, each ending in `;`.
 */
export type MigrationStep = {
  readonly version: number;
  readonly sql: string;
};

/** A concern's steps for each engine, oldest first. */
export type ConcernMigrations = {
  readonly sqlite: readonly MigrationStep[];
  readonly postgres: readonly MigrationStep[];
};

/** A schema version's number and the name recorded when it is applied (never renamed). */
export type SchemaVersion = {
  readonly version: number;
  readonly name: string;
};

/**
 * The versions with their concerns' steps: one migration per version, its SQL the steps of every
 * concern in the order the concerns are given (one concern's table before another's that refers to
 * it), so the version runs as one piece in the runner's transaction. A step of a version not listed,
 * a listed version without steps, or a step not ending its last statement is refused, so a mistake
 * shows at start rather than as a half-migrated database.
 */
export function gatherMigrations(versions: readonly SchemaVersion[], concerns: readonly (readonly MigrationStep[])[]): Migration[] {
  const steps = concerns.flat();
  for (const step of steps) {
    if (!versions.some(({ version }) => version === step.version)) {
      throw new Error(`A migration step has version ${step.version}, which the list of schema versions does not name`);
    }
    if (!step.sql.trim().endsWith(';')) {
      throw new Error(`A migration step of version ${step.version} does not end its last statement with ";"`);
    }
  }
  const migrations = versions.map(({ version, name }) => {
    const parts = steps.filter((step) => step.version === version);
    if (parts.length === 0) throw new Error(`Schema version ${version} ("${name}") has no migration steps`);
    return { version, name, sql: parts.map((part) => part.sql).join('\n') };
  });
  assertMigrationsOrdered(migrations);
  return migrations;
}

/** Checks the list is 1, 2, 3… so a mistake shows at start, not as a half-migrated database. */
export function assertMigrationsOrdered(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new Error(`Migration "${migration.name}" has version ${migration.version}; expected ${index + 1}`);
    }
  });
}

export function pendingMigrations(migrations: readonly Migration[], appliedVersion: number): Migration[] {
  return migrations.filter((migration) => migration.version > appliedVersion);
}
