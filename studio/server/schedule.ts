// Scheduled publishing: a publish (or an admin's approval of a review request) set for a date and
// time in the site's time zone (STUDIO_TIME_ZONE, else the server's). Scheduling keeps a snapshot of
// the drafts as they are then; at its time the snapshot goes through the publisher's queue like any
// publish, so conflicts, content checks and the build apply, and a failure (with its reason) is kept
// for whoever scheduled it, who sees it the next time they open the studio.
//
// Kept in .studio/schedule.json (written in one rename), so a restart keeps every scheduled publish:
// `start` arms one timer for the next one, and one whose time passed while the studio was stopped
// runs at once. The clock and the timer are given (a fake in tests).
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
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

export function createScheduler(options: {
  stateDir: string;
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
  const file = path.join(options.stateDir, 'schedule.json');
  let timer: unknown;
  let started = false;
  let running: Promise<void> = Promise.resolve();
  let runningId: string | undefined;

  function read(): ScheduledPublish[] {
    if (!existsSync(file)) return [];
    return (JSON.parse(readFileSync(file, 'utf8')) as { scheduled: ScheduledPublish[] }).scheduled;
  }

  function write(entries: ScheduledPublish[]): void {
    const finished = entries.filter((entry) => entry.status !== 'waiting');
    const dropped = new Set(finished.slice(0, Math.max(0, finished.length - KEEP_FINISHED)));
    workspace.writeAtomically(file, `${JSON.stringify({ scheduled: entries.filter((entry) => !dropped.has(entry)) }, null, 2)}\n`);
  }

  function update(id: string, change: (entry: ScheduledPublish) => void): ScheduledPublish {
    const entries = read();
    const entry = entries.find((candidate) => candidate.id === id);
    if (!entry) throw new ScheduleError('That scheduled publish does not exist any more: reload the list.', 404);
    change(entry);
    write(entries);
    return entry;
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
  ): ScheduledPublish {
    const at = checkTime(local);
    // A draft a waiting publish already carries is not scheduled twice: it would go out twice.
    const carried = given.seen ? carriedAmong(given.seen.map((file) => file.path)) : [];
    if (carried.length > 0) throw new ScheduleError(alreadyScheduled(carried, 'scheduled again'), 409);
    if (read().filter((entry) => entry.status === 'waiting').length >= MAX_WAITING)
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
    write([...read(), entry]);
    arm();
    return entry;
  }

  /** Cancels a waiting publish: `mayCancelAny` for an admin, else only the person who scheduled it. */
  function cancel(id: string, user: string, mayCancelAny: boolean): ScheduledPublish {
    const entry = read().find((candidate) => candidate.id === id);
    if (!entry) throw new ScheduleError('That scheduled publish does not exist any more: reload the list.', 404);
    if (entry.scheduledBy !== user && !mayCancelAny)
      throw new ScheduleError(`Only ${entry.scheduledBy}, who scheduled it, or an admin may cancel it.`, 403);
    if (entry.status !== 'waiting' || runningId === id)
      throw new ScheduleError('That publish is no longer waiting: it has run or was cancelled. Reload the list.', 409);
    const cancelled = update(id, (found) => {
      found.status = 'cancelled';
      found.cancelledBy = user;
    });
    options.onFinished?.(cancelled);
    arm();
    return cancelled;
  }

  /** The person who scheduled a failed publish has read why. */
  function dismiss(id: string, user: string): void {
    const entry = read().find((candidate) => candidate.id === id);
    if (!entry || entry.scheduledBy !== user) throw new ScheduleError('There is no such failed publish of yours: reload the studio.', 404);
    update(id, (found) => (found.seen = true));
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
    const entries = read();
    const waiting = entries.filter((entry) => entry.status === 'waiting').sort((a, b) => a.at.localeCompare(b.at));
    return [...waiting, ...entries.filter((entry) => entry.status !== 'waiting').reverse()];
  }

  function arm(): void {
    if (!started) return;
    if (timer !== undefined) clock.clearTimer(timer);
    timer = undefined;
    const next = read()
      .filter((entry) => entry.status === 'waiting')
      .map((entry) => Date.parse(entry.at))
      .sort((a, b) => a - b)[0];
    if (next === undefined) return;
    const wait = Math.min(Math.max(0, next - clock.now()), MAX_TIMER_MS);
    timer = clock.setTimer(() => {
      timer = undefined;
      // A failure here must neither stop later publishes nor reach the process as an unhandled rejection.
      running = running.then(runDue).catch((error: unknown) => {
        options.log?.error({ error: (error as Error)?.message }, 'scheduled publishing stopped on an error');
        arm();
      });
    }, wait);
  }

  async function runDue(): Promise<void> {
    const due = read()
      .filter((entry) => entry.status === 'waiting' && Date.parse(entry.at) <= clock.now())
      .sort((a, b) => a.at.localeCompare(b.at));
    for (const entry of due) {
      // Cancelled meanwhile, or the studio is stopping.
      if (!started || read().find((candidate) => candidate.id === entry.id)?.status !== 'waiting') continue;
      runningId = entry.id;
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
      } finally {
        runningId = undefined;
      }
      const finished = update(entry.id, (found) => {
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
      try {
        await options.onFinished?.(finished);
      } catch (error) {
        options.log?.error({ id: entry.id, error: (error as Error)?.message }, 'after a scheduled publish');
      }
    }
    arm();
  }

  return {
    timeZone,
    schedule,
    cancel,
    dismiss,
    list,
    carrying,
    refusalFor,
    /** Arms the timer for the next publish; one whose time has passed runs at once. */
    start() {
      started = true;
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
