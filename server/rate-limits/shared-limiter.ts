import type { KeepValue, RateLimitStore, WindowHits } from '../store/database.ts';

// Per-address limits counted across every server on one PostgreSQL database: each limit counts the
// requests of a key (a client address) in fixed windows (a multiple of the window's length since the
// epoch, so every server names the same window), and a request is allowed while its window's count,
// itself included, is at most the limit. Every server adds its hits to the same row (RateLimitStore),
// so three servers allow the limit once, not three times.
//
// Cost: a server's hits of a few milliseconds (`batchMs`) go to the database together, one statement
// at a time, each window once with its number of hits; a flood of 6,000 requests a second is some
// 100–200 statements a second, not 6,000.
//
// The database never becomes the limit's bottleneck:
// - a key this server already knows is at its limit in the current window (the database said so) is
//   answered at once, without the database: a flood from one address costs no statement;
// - a request the database has not answered within `answerWithinMs` (slow, or failing) is decided by
//   this server alone, by the count it knows (the database's last count plus its own hits since), as a
//   single server always did; that is logged at most once a minute. Its hit still reaches the
//   database with the next statement, so the others count it too.
// Windows that ended are deleted in bounded batches once a minute.

export type LimitHit = {
  /** The limit's name: two limits never share a count. */
  readonly name: string;
  readonly key: string;
  /** Requests allowed per window. */
  readonly max: number;
  readonly windowMs: number;
};

export type LimitAnswer = {
  /** The window's count with this request, as far as it is known (over `max` when refused). */
  readonly count: number;
  readonly allowed: boolean;
  /** Until the window ends: Retry-After. */
  readonly retryAfterMs: number;
  /** Who counted: every server (the database), this server alone, or this server knowing the key is over. */
  readonly decidedBy: 'database' | 'this-server' | 'known-over';
};

export type SharedLimiter = {
  hit(hit: LimitHit): Promise<LimitAnswer>;
  /** Bounds of distinct values a period, shared too (RateLimitStore.keepValues): the caller batches. */
  keepValues(values: readonly KeepValue[]): Promise<boolean[]>;
  /** Statements sent, hits counted through them, decisions taken alone: for tests and benchmarks. */
  stats(): SharedLimiterStats;
  /** Stops the timers and waits for the statement in flight; hits still waiting are decided alone. */
  stop(): Promise<void>;
};

export type SharedLimiterStats = {
  readonly statements: number;
  readonly hitsSent: number;
  readonly knownOver: number;
  readonly decidedAlone: number;
};

export type SharedLimiterTuning = {
  /** How long hits gather before one statement takes them. */
  readonly batchMs?: number;
  /** How long a request waits for the database before this server decides alone. */
  readonly answerWithinMs?: number;
  /** How often ended windows are deleted, and the most deleted per statement and per run. */
  readonly cleanupEveryMs?: number;
  readonly cleanupBatch?: number;
  readonly cleanupBatchesPerRun?: number;
  /** Windows remembered at most (the least recently used is forgotten first), and waiting at most. */
  readonly maxRemembered?: number;
  readonly maxWaiting?: number;
  /** How often "decided alone" may be logged. */
  readonly warnEveryMs?: number;
};

export const SHARED_LIMITER_DEFAULTS = {
  batchMs: 5,
  answerWithinMs: 50,
  cleanupEveryMs: 60_000,
  cleanupBatch: 1_000,
  cleanupBatchesPerRun: 20,
  maxRemembered: 50_000,
  maxWaiting: 10_000,
  warnEveryMs: 60_000,
} as const;

type Log = { warn(details: object, message: string): void };

/** What this server knows of one window: the database's last count, and its own hits not in it yet. */
type KnownWindow = { readonly windowEnd: number; counted: number; unconfirmed: number };
/** The hits of one window waiting for the next statement, with each request's answer. */
type Waiting = WindowHits & { hits: number; readonly answers: Array<(count: number | undefined) => void> };

const windowId = (name: string, key: string, windowStart: number) => `${name}\u0000${key}\u0000${windowStart}`;

export function createSharedLimiter({
  store,
  log,
  now = Date.now,
  tuning = {},
}: {
  store: Pick<RateLimitStore, 'addHits' | 'keepValues' | 'deleteEndedWindows'>;
  log: Log;
  now?: () => number;
  tuning?: SharedLimiterTuning;
}): SharedLimiter {
  const settings = { ...SHARED_LIMITER_DEFAULTS, ...tuning };
  const known = new Map<string, KnownWindow>();
  let waiting = new Map<string, Waiting>();
  let batchTimer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> | undefined;
  let stopped = false;
  const stats = { statements: 0, hitsSent: 0, knownOver: 0, decidedAlone: 0 };
  let aloneSinceWarning = 0;
  let lastWarnedAt = -Infinity;

  function decidedAlone(reason: 'slow' | 'failing', error?: unknown): void {
    aloneSinceWarning += 1;
    if (now() - lastWarnedAt < settings.warnEveryMs) return;
    lastWarnedAt = now();
    log.warn(
      { err: error, reason, decidedAlone: aloneSinceWarning, answerWithinMs: settings.answerWithinMs },
      'shared rate limits: the database did not answer in time, so this server counted alone; check the database if this repeats',
    );
    aloneSinceWarning = 0;
  }

  function remember(id: string, windowEnd: number): KnownWindow {
    let window = known.get(id);
    if (window === undefined) {
      window = { windowEnd, counted: 0, unconfirmed: 0 };
      if (known.size >= settings.maxRemembered) known.delete(known.keys().next().value as string);
    } else known.delete(id);
    // Map order is use order: the first key is the least recently used.
    known.set(id, window);
    return window;
  }

  function scheduleFlush(): void {
    if (batchTimer !== undefined || inFlight !== undefined || waiting.size === 0 || stopped) return;
    batchTimer = setTimeout(() => {
      batchTimer = undefined;
      inFlight = flush().finally(() => {
        inFlight = undefined;
        scheduleFlush();
      });
    }, settings.batchMs);
  }

  async function flush(): Promise<void> {
    const batch = [...waiting.values()];
    waiting = new Map();
    if (batch.length === 0) return;
    stats.statements += 1;
    let counts: number[] | undefined;
    let failure: unknown;
    try {
      counts = await store.addHits(
        batch.map(({ name, key, windowStart, windowEnd, hits }) => ({ name, key, windowStart, windowEnd, hits })),
      );
      stats.hitsSent += batch.reduce((sum, entry) => sum + entry.hits, 0);
    } catch (error) {
      failure = error;
    }
    batch.forEach((entry, index) => {
      const total = counts?.[index];
      const window = known.get(windowId(entry.name, entry.key, entry.windowStart));
      // Hits a failed statement carried never reach the database: this server keeps counting them.
      if (window !== undefined && total !== undefined) {
        window.unconfirmed = Math.max(0, window.unconfirmed - entry.hits);
        window.counted = Math.max(window.counted, total);
      }
      // The hits of one server in one statement are numbered in the order they came.
      entry.answers.forEach((answer, position) => answer(total === undefined ? undefined : total - entry.hits + position + 1));
    });
    if (failure !== undefined) decidedAlone('failing', failure);
  }

  async function cleanUp(): Promise<void> {
    const at = now();
    for (const [id, window] of known) if (window.windowEnd <= at) known.delete(id);
    try {
      for (let run = 0; run < settings.cleanupBatchesPerRun; run += 1) {
        if ((await store.deleteEndedWindows(at, settings.cleanupBatch)) < settings.cleanupBatch) break;
      }
    } catch (error) {
      log.warn({ err: error }, 'shared rate limits: ended windows could not be deleted; they are tried again in a minute');
    }
  }
  let cleaning: Promise<void> | undefined;
  const cleanupTimer = setInterval(() => {
    cleaning ??= cleanUp().finally(() => {
      cleaning = undefined;
    });
  }, settings.cleanupEveryMs);
  cleanupTimer.unref();

  return {
    async hit({ name, key, max, windowMs }) {
      const at = now();
      const windowStart = Math.floor(at / windowMs) * windowMs;
      const windowEnd = windowStart + windowMs;
      const id = windowId(name, key, windowStart);
      const window = remember(id, windowEnd);
      const answer = (count: number, decidedBy: LimitAnswer['decidedBy']): LimitAnswer => ({
        count,
        allowed: count <= max,
        retryAfterMs: Math.max(0, windowEnd - now()),
        decidedBy,
      });
      // The database already counted this window to its limit: a count only grows within a window.
      if (window.counted >= max) {
        stats.knownOver += 1;
        return answer(window.counted + 1, 'known-over');
      }
      window.unconfirmed += 1;
      const aloneCount = window.counted + window.unconfirmed;
      let entry = waiting.get(id);
      if (entry === undefined) {
        if (stopped || waiting.size >= settings.maxWaiting) {
          stats.decidedAlone += 1;
          decidedAlone('slow');
          return answer(aloneCount, 'this-server');
        }
        entry = { name, key, windowStart, windowEnd, hits: 0, answers: [] };
        waiting.set(id, entry);
      }
      entry.hits += 1;
      const fromDatabase = new Promise<number | undefined>((resolve) => entry.answers.push(resolve));
      scheduleFlush();
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => {
        // After the I/O already waiting: an answer that arrived while this process was busy still counts.
        timer = setTimeout(() => setImmediate(() => resolve('late')), settings.answerWithinMs);
      });
      const count = await Promise.race([fromDatabase, late]);
      clearTimeout(timer);
      if (count === 'late') {
        stats.decidedAlone += 1;
        decidedAlone('slow');
        return answer(aloneCount, 'this-server');
      }
      if (count === undefined) {
        // A failed statement was logged by flush.
        stats.decidedAlone += 1;
        return answer(aloneCount, 'this-server');
      }
      return answer(count, 'database');
    },
    keepValues: (values) => store.keepValues(values),
    stats: () => ({ ...stats }),
    async stop() {
      stopped = true;
      clearInterval(cleanupTimer);
      clearTimeout(batchTimer);
      batchTimer = undefined;
      await inFlight;
      await cleaning;
      // What still waits is answered alone, at once.
      for (const entry of waiting.values()) for (const answer of entry.answers) answer(undefined);
      waiting = new Map();
    },
  };
}
