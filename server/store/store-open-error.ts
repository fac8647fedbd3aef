import { MigrationRefusal } from '../../back-office/database/migration-refusal.ts';
import type { LeadStoreConfig } from '../config.ts';
import { EXIT_CODES, exitCodeOfRefusal } from '../exit-codes.ts';

// A store that cannot be opened at start is almost always a setting to fix (a path, a host, a
// password), so it is told to the operator as one sentence naming the place and the cause, never as
// a stack trace. Every process that opens a store (the server, the studio, the CLI) says it the same.

/**
 * A store could not be opened; the message is one plain sentence for the person starting the process,
 * and `exitCode` the code the process ends with (server/exit-codes.ts): 1, or the migration refusal's own.
 */
export class StoreOpenError extends Error {
  override name = 'StoreOpenError';
  readonly exitCode: number;

  constructor(message: string, options: ErrorOptions & { exitCode?: number } = {}) {
    super(message, options);
    this.exitCode = options.exitCode ?? EXIT_CODES.failed;
  }
}

/** The code a process ends with when opening its store failed with `error`. */
export function exitCodeOfStoreOpenFailure(error: unknown): number {
  return error instanceof StoreOpenError ? error.exitCode : EXIT_CODES.failed;
}

/** Which store, for the sentence: the lead store names LEADS_DB_FILE's file; PostgreSQL names DATABASE_URL's host. */
export type StoreToOpen = { readonly database: 'lead' | 'analytics'; readonly config: LeadStoreConfig };

/** Runs `open`; any failure becomes a StoreOpenError saying where and why in one line. */
export async function openingStore<T>(store: StoreToOpen, open: () => Promise<T>): Promise<T> {
  try {
    return await open();
  } catch (error) {
    // A refused migration already says which database, its versions and what to do: its sentence stands.
    if (error instanceof MigrationRefusal) {
      throw new StoreOpenError(error.message, { cause: error, exitCode: exitCodeOfRefusal(error.facts.kind) });
    }
    throw new StoreOpenError(describeStoreOpenFailure(store, error), { cause: error });
  }
}

// The setting that names each SQLite file, so the sentence says what to change.
const SQLITE_SETTINGS = { lead: 'LEADS_DB_FILE', analytics: 'ANALYTICS_DB_FILE, by default beside LEADS_DB_FILE' } as const;

type ErrorFacts = { code?: unknown; message?: unknown };

// PostgreSQL's codes for the failures a newcomer meets, in their words.
const POSTGRES_REASONS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'nothing accepts connections there (is PostgreSQL running, on that port?)',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name could not be resolved just now',
  EHOSTUNREACH: 'the host cannot be reached',
  ENETUNREACH: 'the network to the host cannot be reached',
  ETIMEDOUT: 'the host did not answer',
  '28P01': 'the user name or password was refused',
  '28000': 'the server refuses this user from this address',
  '3D000': 'the database named in DATABASE_URL does not exist',
};

export function describeStoreOpenFailure({ database, config }: StoreToOpen, error: unknown): string {
  const facts = (typeof error === 'object' && error !== null ? error : {}) as ErrorFacts;
  const code = typeof facts.code === 'string' ? facts.code : undefined;
  const message = firstLine(error instanceof Error ? error.message : String(error));
  if (config.kind === 'sqlite') {
    return `The ${database} database (${SQLITE_SETTINGS[database]}) cannot be opened at ${config.file}: ${message}`;
  }
  const url = URL.canParse(config.url) ? new URL(config.url) : undefined;
  const where = `${url?.hostname || 'localhost'}:${url?.port || '5432'}`;
  const timedOut = /timeout/i.test(message);
  const reason =
    (code === undefined ? undefined : POSTGRES_REASONS[code]) ??
    (timedOut ? 'the server took the connection but did not answer in time' : withoutPassword(message, url));
  return `The database in DATABASE_URL cannot be reached at ${where}: ${reason}`;
}

function firstLine(text: string): string {
  return text.split('\n')[0]!.trim();
}

// A driver's message may quote the URL; its password never reaches the terminal or a log.
function withoutPassword(text: string, url: URL | undefined): string {
  const password = url === undefined ? '' : decodeURIComponent(url.password);
  return password === '' ? text : text.split(password).join('***');
}
