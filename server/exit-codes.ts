import type { MigrationRefusalFacts } from '../back-office/database/migration-refusal.ts';

// How `node server/main.ts` ends, for whatever starts and restarts it (systemd, a container runtime,
// an orchestrator): each code says whether starting again can help. The codes beyond 1 are the BSD
// sysexits an operator can look up. `npm run leads`, `npm run users` and the studio end with the
// same codes when the lead database refuses them.

export const EXIT_CODES = {
  /** Stopped on SIGTERM / SIGINT after finishing what it held. */
  clean: 0,
  /**
   * A setting to fix, a start that failed (no build, a taken port, a database that cannot be reached),
   * or a stop that could not finish (past its deadline, a third signal).
   */
  failed: 1,
  /** EX_DATAERR: the database is at a schema version newer than this release knows; run that release, not this one. */
  databaseNewer: 65,
  /** EX_SOFTWARE: a migration failed and was undone; starting again fails the same way until its cause is fixed. */
  migrationFailed: 70,
  /** EX_TEMPFAIL: another process held the migration lock past MIGRATION_LOCK_WAIT_SECONDS; try again later. */
  migrationLockBusy: 75,
} as const;

/** The exit code of a start the database refused to migrate. */
export function exitCodeOfRefusal(kind: MigrationRefusalFacts['kind']): number {
  switch (kind) {
    case 'newer':
      return EXIT_CODES.databaseNewer;
    case 'failed':
      return EXIT_CODES.migrationFailed;
    case 'lock-wait':
      return EXIT_CODES.migrationLockBusy;
  }
}
