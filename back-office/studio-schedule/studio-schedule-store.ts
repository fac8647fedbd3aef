// The content studio's scheduled publishes, kept in the lead database so a studio started on another
// host (a fresh clone of the site's repository, no workspace files) finds them, publishes what is
// overdue and times the rest; and the one-studio lock that keeps a second studio off the same
// database, so two never publish the same schedule.

/**
 * One scheduled publish as the studio keeps it. The columns say what it is and where it stands; the
 * record holds everything a publish needs (its pages, the exact texts, the version of each file they
 * were made from, who scheduled and who approved it), as the studio wrote it.
 */
export type StudioScheduleRow = {
  readonly id: string;
  /** When it is to go live (an ISO time). */
  readonly runAt: string;
  /** waiting, published, failed or cancelled. */
  readonly status: string;
  readonly scheduledBy: string;
  /** When it was scheduled (an ISO time). */
  readonly scheduledAt: string;
  /**
   * When a run of it started (an ISO time), written before the publish begins: a studio that stops
   * before the run's end never runs it again, and says so.
   */
  readonly startedAt: string | null;
  /** The whole entry, as JSON. */
  readonly record: string;
};

/** The studio schedule's store. */
export interface StudioScheduleStore {
  /** Every scheduled publish kept, in the order they were first saved. */
  listStudioSchedule(): Promise<StudioScheduleRow[]>;
  /** In one transaction: inserts or replaces each of `rows` (by id) and deletes the ids in `dropped`. */
  saveStudioSchedule(rows: readonly StudioScheduleRow[], dropped: readonly string[]): Promise<void>;
  /**
   * Inserts each of `rows` whose id is not kept yet, leaving the ones kept as they are (an upgrade's
   * file state never overwrites what the database says); answers how many it inserted.
   */
  importStudioSchedule(rows: readonly StudioScheduleRow[]): Promise<number>;
  /**
   * Takes the one-studio lock of this database and holds it until the store closes or the process
   * ends, however it ends (PostgreSQL: a session advisory lock on a connection of its own; SQLite: an
   * exclusive lock on a file beside the database). False when another process holds it.
   */
  holdStudioLock(): Promise<boolean>;
  /** Whether the lock taken by `holdStudioLock` is still held (a PostgreSQL connection lost gives it up). */
  studioLockHeld(): Promise<boolean>;
}
