// The three ways a start refuses to migrate a database, each told as one sentence with its own exit
// code (server/exit-codes.ts), never as "cannot be reached": a process that restarts on failure then
// stops on a cause an operator can read instead of crash-looping on a false one.
//
// - newer: the database carries versions this code does not know (a later release migrated it).
//   Running on it could misread its tables, so the start refuses; only the release that made it, or a
//   later one, may open it.
// - failed: a migration's statements failed. Every pending version runs in one transaction, so the
//   database is left at the version it had.
// - lock-wait: another process held the migration lock past the wait allowed; trying again later is
//   the remedy.

export type MigrationRefusalFacts =
  | { readonly kind: 'newer'; readonly database: string; readonly found: number; readonly known: number }
  | { readonly kind: 'failed'; readonly database: string; readonly version: number; readonly kept: number; readonly reason: string }
  | { readonly kind: 'lock-wait'; readonly database: string; readonly waitedSeconds: number; readonly engine: 'postgres' | 'sqlite' };

/**
 * A migration that was refused or failed; `facts` say which, so they can cross a worker thread (an
 * error's class does not) and be made into the same error again with `migrationRefusalFrom`.
 */
export class MigrationRefusal extends Error {
  override name = 'MigrationRefusal';
  readonly facts: MigrationRefusalFacts;

  constructor(facts: MigrationRefusalFacts, options?: ErrorOptions) {
    super(sentenceOf(facts), options);
    this.facts = facts;
  }
}

/** The facts of a refusal posted across a thread, as a MigrationRefusal again; undefined for anything else. */
export function migrationRefusalFrom(facts: unknown): MigrationRefusal | undefined {
  const kind = (facts as { kind?: unknown } | null)?.kind;
  if (kind !== 'newer' && kind !== 'failed' && kind !== 'lock-wait') return undefined;
  return new MigrationRefusal(facts as MigrationRefusalFacts);
}

function sentenceOf(facts: MigrationRefusalFacts): string {
  const { database } = facts;
  switch (facts.kind) {
    case 'newer':
      return (
        `The ${database} database is at schema version ${facts.found}, newer than this release knows (${facts.known}): ` +
        `run the release that migrated it, or a later one, instead of this one.`
      );
    case 'failed':
      return (
        `Migrating the ${database} database to schema version ${facts.version} failed (${facts.reason}), and nothing of it was kept: ` +
        `the database is still at version ${facts.kept}; fix what the error names, or run the release before this one.`
      );
    case 'lock-wait':
      return facts.engine === 'postgres'
        ? `Another server held the ${database} database's migration lock for more than ${facts.waitedSeconds} s (MIGRATION_LOCK_WAIT_SECONDS): ` +
            `start this one again once that server has finished migrating.`
        : `Another process held the ${database} database's write lock for more than ${facts.waitedSeconds} s while this one was to migrate it: ` +
            `start this one again once that process has finished.`;
  }
}

/** An error's first line, without surrounding space: a database's message in the middle of a sentence. */
export function firstLineOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text
    .split('\n')[0]!
    .trim()
    .replace(/[.\s]+$/, '');
}
