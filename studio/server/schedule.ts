// Scheduled publishing: a publish (or an admin's approval of a review request) set for a date and
// time in the site's time zone (STUDIO_TIME_ZONE, else the server's). Scheduling keeps a snapshot of
// the drafts as they are then; at its time the snapshot goes through the publisher's queue like any
// publish, so conflicts, content checks and the build apply, and a failure (with its reason) is kept
// for whoever scheduled it, who sees it the next time they open the studio.
//
// Kept where the studio is told (ScheduleKeeping): in the lead database when the studio has one
// (a studio started on another host, on a fresh clone of the site's repository, finds every scheduled
// publish there), else in .studio/schedule.json (written in one rename). Either way a restart keeps
// them: `start` arms one timer for the next one, and one whose time passed while the studio was stopped
// runs at once. Only one studio runs per database (it holds the database's one-studio lock), so the
// scheduler keeps the entries in memory and writes every change through before it is answered.
//
// Never twice: before a publish starts, its entry records when it started, and only the end of the run
// clears that. A studio that stopped in between (a crash, the host lost) cannot know whether the
// publish went out, so at its next start it marks the entry failed with that reason instead of
// running it again, and whoever scheduled it is told. The clock and the timer are given (a fake in
// tests).
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import type { StudioScheduleRow, StudioScheduleStore } from '../../back-office/studio-schedule/studio-schedule-store.ts';
import { takeSeenDrafts, type Publisher, type PublishResult, type SeenDraft } from './publish.ts';
import { changesOf, snapshotDrafts, type ReviewFile } from './reviews.ts';
import type { Workspace } from './workspace.ts';
import { instantOf, localText } from '../time-words.ts';
import { serverMomentInZone } from './time-words.ts';
import { personName } from '../person-name.ts';
import { listWords } from '../../back-office/list-words.ts';

export type Clock = {
  now(): number;
  setTimer(callback: () => void, ms: number): unknown;
  clearTimer(timer: unknown): void;
};

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer: (callback, ms) => setTimeout(callback, ms),
  clearTimer: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

/** The server's own time zone, as Intl names it. */
export function serverTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** STUDIO_TIME_ZONE: an IANA time zone name (Europe/Berlin, UTC); unset, the server's. */
export function readTimeZone(text: string | undefined): string {
  const value = text?.trim();
  if (!value) return serverTimeZone();
  try {
    return new Intl.DateTimeFormat('en-GB', { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    throw new Error(`STUDIO_TIME_ZONE must be a time zone name such as Europe/Berlin or UTC, not "${text}".`);
  }
}

export { instantOf, localText } from '../time-words.ts';

/**
 * "Tue 1 Dec, 09:00 (Europe/Berlin)": the studio's one way of saying a moment (../time-words.ts), in
 * the language of the request being answered, with the zone it is told in; the year is named when
 * it is not this one.
 */
export function describeTime(ms: number, timeZone: string, now: number): string {
  return serverMomentInZone(ms, { timeZone, now });
}

/** The furthest ahead a publish may be scheduled. */
export const MAX_SCHEDULE_AHEAD_MS = 365 * 24 * 60 * 60 * 1000;
/** setTimeout's longest wait; a later time is reached in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Publishes waiting at once: each keeps its own copy of the drafts. */
export const MAX_WAITING = 50;
/** Finished and cancelled entries kept for the list. */
const KEEP_FINISHED = 50;

/** waiting: for its time; published; failed: with the reason; cancelled. */
export type ScheduleStatus = 'waiting' | 'published' | 'failed' | 'cancelled';

export type ScheduledPublish = {
  id: string;
  /** When it runs (ISO). */
  at: string;
  scheduledBy: string;
  scheduledAt: string;
  files: ReviewFile[];
  /** For the commit: who asked for a reviewed change and who approved it. */
  note?: string;
  /** The review request it publishes, when an admin approved one for later. */
  reviewId?: string;
  status: ScheduleStatus;
  /** Why it failed. */
  message?: string;
  publishId?: string;
  cancelledBy?: string;
  /** The person who scheduled it has seen the failure. */
  seen?: boolean;
  /** When its run started (ISO); cleared when the run ends. */
  startedAt?: string;
};

export class ScheduleError extends Error {
  override name = 'ScheduleError';
  readonly status: 400 | 403 | 404 | 409 | 422;
  constructor(message: string, status: 400 | 403 | 404 | 409 | 422) {
    super(message);
    this.status = status;
  }
}

export type Scheduler = ReturnType<typeof createScheduler>;

/** Why a scheduled publish did not run when its time came though nothing in it was wrong. */
export const NO_LONGER_ALLOWED =
  'It was not published: the account that scheduled it may no longer publish (it was removed, or its role changed). Someone who may publish can schedule it again.';

/**
 * Why a scheduled publish was not run again: the studio stopped while it ran, so whether it went out
 * is not known.
 */
export const INTERRUPTED =
  'The studio stopped while this was being published, so it was not run again: look at the history to see whether it went live, and schedule it again if it did not.';

/** A failed write of the schedule (the database out of reach) is tried again after this long. */
const RETRY_AFTER_ERROR_MS = 30_000;
/** Waits between the tries of saving a publish's result. */
const RESULT_SAVE_WAITS_MS = [1_000, 5_000];

/** Where the schedule is kept between starts. */
export type ScheduleKeeping = {
  /** Every entry kept, oldest first: a file answers at once, a database when it has read it. */
  load(): ScheduledPublish[] | Promise<ScheduledPublish[]>;
  /** Keeps a change: `changed` added or replaced, `dropped` (ids) gone; `entries` is the whole schedule after it. */
  save(change: {
    entries: readonly ScheduledPublish[];
    changed: readonly ScheduledPublish[];
    dropped: readonly string[];
  }): void | Promise<void>;
};

const SCHEDULE_FILE = 'schedule.json';

function readScheduleFile(file: string): ScheduledPublish[] {
  if (!existsSync(file)) return [];
  return (JSON.parse(readFileSync(file, 'utf8')) as { scheduled: ScheduledPublish[] }).scheduled;
}

/** The schedule in .studio/schedule.json, for a studio without a database of its own (one host). */
export function fileKeeping(stateDir: string, workspace: Workspace): ScheduleKeeping {
  const file = path.join(stateDir, SCHEDULE_FILE);
  return {
    load: () => readScheduleFile(file),
    save: ({ entries }) => workspace.writeAtomically(file, `${JSON.stringify({ scheduled: entries }, null, 2)}\n`),
  };
}

function rowOf(entry: ScheduledPublish): StudioScheduleRow {
  return {
    id: entry.id,
    runAt: entry.at,
    status: entry.status,
    scheduledBy: entry.scheduledBy,
    scheduledAt: entry.scheduledAt,
    startedAt: entry.startedAt ?? null,
    record: JSON.stringify(entry),
  };
}

/**
 * The schedule in the lead database. At its first load it takes in what this checkout's
 * .studio/schedule.json holds (a studio upgraded from keeping it there loses nothing), then renames
 * that file so it is never read again.
 */
export function databaseKeeping(
  store: StudioScheduleStore,
  options: { stateDir: string; log?: { warn(details: object, message: string): void } },
): ScheduleKeeping {
  const file = path.join(options.stateDir, SCHEDULE_FILE);
  return {
    async load() {
      if (existsSync(file)) {
        const found = readScheduleFile(file);
        const imported = await store.importStudioSchedule(found.map(rowOf));
        const kept = `${file}.imported`;
        renameSync(file, kept);
        options.log?.warn(
          { imported, of: found.length, file: path.relative(path.dirname(options.stateDir), kept) },
          'the scheduled publishes of this checkout were moved into the lead database',
        );
      }
      return (await store.listStudioSchedule()).map((row) => JSON.parse(row.record) as ScheduledPublish);
    },
    save: ({ changed, dropped }) => store.saveStudioSchedule(changed.map(rowOf), dropped),
  };
}

export function createScheduler(options: {
  stateDir: string;
  /** Where the schedule is kept; .studio/schedule.json in `stateDir` by default. */
  keeping?: ScheduleKeeping;
  workspace: Workspace;
  publisher: Publisher;
  timeZone: string;
  clock?: Clock;
  /** Called after a scheduled publish ran (published or failed), or was cancelled; a run waits for what it returns. */
  onFinished?: (entry: ScheduledPublish) => unknown;
  /** Where failures are written for the operator (the studio's log). */
  log?: { error(details: object, message: string): void };
  /**
   * Whether the person who scheduled a publish may still publish when it runs: an account removed, or
   * given a role that may not publish, since then does not publish. Anyone, by default.
   */
  mayStillPublish?: (user: string) => Promise<boolean>;
}) {
  const { workspace, publisher, timeZone } = options;
  const clock = options.clock ?? systemClock;
  const keeping = options.keeping ?? fileKeeping(options.stateDir, workspace);
  let entries: ScheduledPublish[] = [];
  // A file is read here; a database is read by `start`, which the studio awaits before it answers.
  const first = keeping.load();
  let loading: Promise<void> | undefined;
  if (Array.isArray(first)) entries = first;
  else {
    loading = first.then((found) => {
      entries = found;
    });
    // `start` reports a failed read.
    loading.catch(() => {});
  }
  let timer: unknown;
  let started = false;
  let running: Promise<void> = Promise.resolve();
  // Changes are made one at a time: each reads the schedule as the one before left it.
  let changing: Promise<unknown> = Promise.resolve();

  function serially<T>(work: () => T | Promise<T>): Promise<T> {
    const result = changing.then(work);
    changing = result.catch(() => {});
    return result;
  }

  /** Keeps `next` as the schedule, once saved: `changed` its new or replaced entries. Old finished ones are dropped. */
  async function commit(next: ScheduledPublish[], changed: readonly ScheduledPublish[]): Promise<void> {
    const finished = next.filter((entry) => entry.status !== 'waiting');
    const dropped = new Set(finished.slice(0, Math.max(0, finished.length - KEEP_FINISHED)));
    const kept = next.filter((entry) => !dropped.has(entry));
    await keeping.save({
      entries: kept,
      changed: changed.filter((entry) => !dropped.has(entry)),
      dropped: [...dropped].map((entry) => entry.id),
    });
    entries = kept;
  }

  function find(id: string): ScheduledPublish {
    const entry = entries.find((candidate) => candidate.id === id);
    if (!entry) throw new ScheduleError('That scheduled publish does not exist any more: reload the list.', 404);
    return entry;
  }

  /** Changes one entry, on a copy, and keeps it once saved. */
  async function update(id: string, change: (entry: ScheduledPublish) => void): Promise<ScheduledPublish> {
    const updated = { ...find(id) };
    change(updated);
    await commit(
      entries.map((entry) => (entry.id === id ? updated : entry)),
      [updated],
    );
    return updated;
  }

  /** The instant `local` names, refused with a reason when it has passed or is more than a year ahead. */
  function checkTime(local: string): number {
    const at = instantOf(local, timeZone);
    if (Number.isNaN(at)) throw new ScheduleError(`"${local.slice(0, 40)}" is not a date and time: choose one in the form.`, 400);
    const now = clock.now();
    if (at <= now) throw new ScheduleError(`That time has passed: choose a time after now (${describeTime(now, timeZone, now)}).`, 400);
    if (at - now > MAX_SCHEDULE_AHEAD_MS)
      throw new ScheduleError('A publish can be scheduled at most a year ahead: choose an earlier date.', 400);
    return at;
  }

  /**
   * Schedules a publish for `local` (a wall-clock time in the site's time zone) of `files` (a review
   * request's snapshot) or, by default, every draft as it is now.
   */
  function schedule(
    user: string,
    local: string,
    given: { files?: ReviewFile[]; seen?: readonly SeenDraft[]; ownDraftsOnly?: boolean; note?: string; reviewId?: string } = {},
  ): Promise<ScheduledPublish> {
    return serially(async () => {
      const at = checkTime(local);
      // A draft a waiting publish already carries is not scheduled twice: it would go out twice.
      const carried = given.seen ? carriedAmong(given.seen.map((file) => file.path)) : [];
      if (carried.length > 0) throw new ScheduleError(alreadyScheduled(carried, 'scheduled again'), 409);
      if (entries.filter((entry) => entry.status === 'waiting').length >= MAX_WAITING)
        throw new ScheduleError(`${MAX_WAITING} publishes are scheduled already: cancel one before scheduling another.`, 409);
      let files = given.files;
      if (!files) {
        let drafts = workspace.listDrafts();
        if (given.seen) {
          // Exactly the drafts the screen showed, unchanged since, kept with their texts as they are now.
          const taken = takeSeenDrafts(workspace, given.seen, user, given.ownDraftsOnly ?? false, 'scheduled');
          if (!taken.ok) throw new ScheduleError(taken.message, taken.reason === 'needs-review' ? 403 : 409);
          drafts = taken.drafts;
        }
        if (drafts.length === 0) throw new ScheduleError('There is nothing to schedule: no page has unpublished changes.', 409);
        if (publisher.check(drafts).errors.length > 0)
          throw new ScheduleError('The changes have mistakes: fix them (they are listed on this screen), then schedule the publish.', 422);
        files = snapshotDrafts(workspace, drafts);
      }
      const entry: ScheduledPublish = {
        id: randomUUID(),
        at: new Date(at).toISOString(),
        scheduledBy: user,
        scheduledAt: new Date(clock.now()).toISOString(),
        files,
        ...(given.note ? { note: given.note } : {}),
        ...(given.reviewId ? { reviewId: given.reviewId } : {}),
        status: 'waiting',
      };
      await commit([...entries, entry], [entry]);
      arm();
      return entry;
    });
  }

  /** Cancels a waiting publish: `mayCancelAny` for an admin, else only the person who scheduled it. */
  function cancel(id: string, user: string, mayCancelAny: boolean): Promise<ScheduledPublish> {
    return serially(async () => {
      const entry = find(id);
      if (entry.scheduledBy !== user && !mayCancelAny)
        throw new ScheduleError(`Only ${entry.scheduledBy}, who scheduled it, or an admin may cancel it.`, 403);
      if (entry.status !== 'waiting' || entry.startedAt !== undefined)
        throw new ScheduleError('That publish is no longer waiting: it has run or was cancelled. Reload the list.', 409);
      const cancelled = await update(id, (found) => {
        found.status = 'cancelled';
        found.cancelledBy = user;
      });
      options.onFinished?.(cancelled);
      arm();
      return cancelled;
    });
  }

  /** The person who scheduled a failed publish has read why. */
  function dismiss(id: string, user: string): Promise<void> {
    return serially(async () => {
      const entry = entries.find((candidate) => candidate.id === id);
      if (!entry || entry.scheduledBy !== user)
        throw new ScheduleError('There is no such failed publish of yours: reload the studio.', 404);
      await update(id, (found) => (found.seen = true));
    });
  }

  /** Each file a waiting publish carries, with that publish (the earliest, when several carry it). */
  function carrying(): Map<string, ScheduledPublish> {
    const carried = new Map<string, ScheduledPublish>();
    for (const entry of list())
      if (entry.status === 'waiting') for (const file of entry.files) if (!carried.has(file.path)) carried.set(file.path, entry);
    return carried;
  }

  /** Of `paths`, those a waiting publish carries, each with its name and that publish. */
  function carriedAmong(paths: readonly string[]): { name: string; entry: ScheduledPublish }[] {
    const carried = carrying();
    return paths.flatMap((file) => {
      const entry = carried.get(file);
      return entry ? [{ name: entry.files.find((found) => found.path === file)?.title ?? file, entry }] : [];
    });
  }

  /**
   * Why `paths` are not published (or scheduled) now: a waiting publish carries them, to go live at
   * its time; undefined when none does.
   */
  function refusalFor(paths: readonly string[], what: 'published now' | 'scheduled again'): string | undefined {
    const carried = carriedAmong(paths);
    return carried.length > 0 ? alreadyScheduled(carried, what) : undefined;
  }

  function alreadyScheduled(carried: { name: string; entry: ScheduledPublish }[], what: 'published now' | 'scheduled again'): string {
    const first = carried[0]!.entry;
    const names = listWords(carried.map((found) => found.name));
    const verb = carried.length === 1 ? 'is' : 'are';
    const when = describeTime(Date.parse(first.at), timeZone, clock.now());
    return `${names} ${verb} already scheduled to go live ${when}, by ${personName(first.scheduledBy)}, so ${carried.length === 1 ? 'it is' : 'they are'} not ${what}. To publish ${carried.length === 1 ? 'it' : 'them'} at another time, cancel that scheduled publish first.`;
  }

  /** Waiting publishes by time, then the others, newest first. */
  function list(): ScheduledPublish[] {
    const waiting = entries.filter((entry) => entry.status === 'waiting').sort((a, b) => a.at.localeCompare(b.at));
    return [...waiting, ...entries.filter((entry) => entry.status !== 'waiting').reverse()];
  }

  /** Arms the timer for the next waiting publish, at least `atLeastMs` from now. */
  function arm(atLeastMs = 0): void {
    if (!started) return;
    if (timer !== undefined) clock.clearTimer(timer);
    timer = undefined;
    const next = entries
      .filter((entry) => entry.status === 'waiting' && entry.startedAt === undefined)
      .map((entry) => Date.parse(entry.at))
      .sort((a, b) => a - b)[0];
    if (next === undefined) return;
    const wait = Math.min(Math.max(atLeastMs, next - clock.now()), MAX_TIMER_MS);
    timer = clock.setTimer(() => {
      timer = undefined;
      // A failure here must neither stop later publishes nor reach the process as an unhandled rejection.
      running = running.then(runDue).catch((error: unknown) => {
        options.log?.error({ error: (error as Error)?.message }, 'scheduled publishing stopped on an error');
        arm(RETRY_AFTER_ERROR_MS);
      });
    }, wait);
  }

  async function finish(entry: ScheduledPublish): Promise<void> {
    try {
      await options.onFinished?.(entry);
    } catch (error) {
      options.log?.error({ id: entry.id, error: (error as Error)?.message }, 'after a scheduled publish');
    }
  }

  /** Keeps a run's result, trying again a few times: until it is kept, the run counts as started, never as waiting. */
  async function keepResult(id: string, change: (entry: ScheduledPublish) => void): Promise<ScheduledPublish> {
    for (const wait of [...RESULT_SAVE_WAITS_MS, undefined]) {
      try {
        return await serially(() => update(id, change));
      } catch (error) {
        if (wait === undefined) {
          // This studio never runs it again; the next start finds it started and says it was interrupted.
          options.log?.error({ id, error: (error as Error)?.message }, 'the result of a scheduled publish could not be saved');
          const updated = { ...find(id) };
          change(updated);
          entries = entries.map((entry) => (entry.id === id ? updated : entry));
          return updated;
        }
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
    throw new Error('unreachable');
  }

  async function runDue(): Promise<void> {
    const due = entries
      .filter((entry) => entry.status === 'waiting' && entry.startedAt === undefined && Date.parse(entry.at) <= clock.now())
      .sort((a, b) => a.at.localeCompare(b.at));
    for (const entry of due) {
      // Cancelled meanwhile, or the studio is stopping.
      const current = entries.find((candidate) => candidate.id === entry.id);
      if (!started || current?.status !== 'waiting' || current.startedAt !== undefined) continue;
      // Recorded before anything goes out: from here on it is never run again.
      await serially(() => update(entry.id, (found) => (found.startedAt = new Date(clock.now()).toISOString())));
      let result: PublishResult;
      try {
        result = (await (options.mayStillPublish?.(entry.scheduledBy) ?? true))
          ? await publisher.publish(entry.scheduledBy, {
              changes: changesOf(entry.files),
              ...(entry.note ? { note: entry.note } : {}),
              // An approval set for later: whoever scheduled it approved it.
              ...(entry.reviewId ? { approvedBy: entry.scheduledBy } : {}),
            })
          : { ok: false, reason: 'invalid', message: NO_LONGER_ALLOWED };
      } catch (error) {
        result = { ok: false, reason: 'build-failed', message: `The publish stopped: ${(error as Error).message}` };
      }
      const finished = await keepResult(entry.id, (found) => {
        delete found.startedAt;
        if (result.ok) {
          found.status = 'published';
          found.publishId = result.record.id;
        } else {
          found.status = 'failed';
          found.message = result.message;
        }
      });
      if (!result.ok)
        options.log?.error({ scheduledBy: entry.scheduledBy, at: entry.at, reason: result.reason }, 'scheduled publish failed');
      await finish(finished);
    }
    arm();
  }

  /** Runs that a stopped studio left started are failed, never run again, and whoever scheduled them is told. */
  async function failInterrupted(): Promise<void> {
    for (const entry of entries.filter((candidate) => candidate.status === 'waiting' && candidate.startedAt !== undefined)) {
      const failed = await serially(() =>
        update(entry.id, (found) => {
          delete found.startedAt;
          found.status = 'failed';
          found.message = INTERRUPTED;
        }),
      );
      options.log?.error({ scheduledBy: entry.scheduledBy, at: entry.at }, 'a scheduled publish was interrupted by a stop of the studio');
      await finish(failed);
    }
  }

  return {
    timeZone,
    schedule,
    cancel,
    dismiss,
    list,
    carrying,
    refusalFor,
    /**
     * Reads the schedule (a database's), fails the runs a stopped studio left started, and arms the
     * timer for the next publish; one whose time has passed runs at once.
     */
    async start() {
      await loading;
      started = true;
      await failInterrupted();
      arm();
    },
    /** Disarms the timer; a publish already running finishes. */
    stop() {
      started = false;
      if (timer !== undefined) clock.clearTimer(timer);
      timer = undefined;
    },
    /** Settles once every publish the timer has started has finished (tests wait on it). */
    idle: () => running,
    describe: (iso: string) => describeTime(Date.parse(iso), timeZone, clock.now()),
    nowText: () => localText(clock.now(), timeZone),
  };
}
