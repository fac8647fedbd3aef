import type { HealthCheck } from './health.ts';

// Readiness of a database's schema: the version its table records must be at least the version this
// server knows. An older one (a database restored from a backup made before a release, say) lacks
// tables or columns this code uses, so the process must not take traffic. A newer one is fine while
// running: a release's migrations only add, so the release before keeps working beside the one that
// migrated (a rolling upgrade). A newer database at start is refused instead (the migration runner).

/** How long one answer stands: a load balancer asking every second costs one query a second at most. */
export const SCHEMA_CHECK_CACHE_MS = 1_000;

export type SchemaCheckOptions = {
  /** 'lead' or 'analytics', for the reason logged when the check fails. */
  readonly database: string;
  readonly known: number;
  readonly readVersion: () => Promise<number>;
  readonly cacheMs?: number;
  readonly now?: () => number;
};

/** A readiness check that fails while the database's schema is behind `known`; each answer is kept `cacheMs`. */
export function schemaReadinessCheck({
  database,
  known,
  readVersion,
  cacheMs = SCHEMA_CHECK_CACHE_MS,
  now = Date.now,
}: SchemaCheckOptions): HealthCheck {
  let cached: { at: number; answer: Promise<void> } | undefined;
  const ask = async (): Promise<void> => {
    const version = await readVersion();
    if (version < known) {
      throw new Error(`the ${database} database is at schema version ${version}, behind this server's ${known}`);
    }
  };
  return () => {
    const at = now();
    if (cached === undefined || at - cached.at >= cacheMs) {
      const answer = ask();
      // A failure is kept for as long as a success: a database that cannot answer is not asked more often.
      answer.catch(() => {});
      cached = { at, answer };
    }
    return cached.answer;
  };
}
