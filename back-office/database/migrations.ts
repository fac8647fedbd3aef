// Versioned schema migrations: each store keeps an ordered list, applies the ones newer than the
// recorded version at start (inside one transaction, under a lock) and records each it applied.
// Never edit a released migration: add the next version.

export type Migration = {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
};

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
