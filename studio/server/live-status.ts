// Whether the deployed site serves a publish yet (STUDIO_LIVE_URL): after a publish is pushed, the
// studio asks the site for /build.json every few seconds until the commit it names is the publish's
// or a later one, and then says "Live since 10:42" (the time it was first seen, in the team's time
// zone, worded as every time in the studio is: time-words.ts). A deploy that has not arrived within STUDIO_LIVE_TIMEOUT is reported with what
// the site still serves. The watch runs on the server, whether or not a browser is open, and is kept
// in .studio/live-status.json: a restarted studio carries on with the watches it had (the time still
// counts from the publish).
import { existsSync, readFileSync } from 'node:fs';
import { BUILD_INFO_FILE, parseBuildInfo, type BuildInfo } from '../../content-model/load/build-files.ts';
import { writeFileAtomically } from '../../content-model/load/write-file-atomically.ts';
import type { LiveStatus } from '../api-types.ts';
import { serverSince } from './time-words.ts';

export type LiveSettings = { url: string; timeoutMs: number };

export const DEFAULT_LIVE_TIMEOUT = '15m';
/** How often the site is asked, and how long one answer may take. */
export const LIVE_POLL_MS = 5_000;
export const LIVE_REQUEST_TIMEOUT_MS = 5_000;
/** Watches kept in the state file (the publish history shows the last few). */
const KEPT_WATCHES = 100;
/** A build file is a few dozen bytes: anything much longer is not one. */
const MAX_BUILD_FILE_CHARS = 4_096;

const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000 } as const;

/**
 * STUDIO_LIVE_TIMEOUT: a whole number with its unit, `90s`, `15m` or `1h`, from 10 seconds to 24 hours.
 * A bare number is refused: seconds or minutes, nobody could tell.
 */
export function parseLiveTimeout(text: string): number {
  const match = /^(\d+)\s*(s|m|h)$/.exec(text.trim());
  const ms = match ? Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS] : NaN;
  if (!match || ms < 10_000 || ms > 86_400_000)
    throw new Error(
      `STUDIO_LIVE_TIMEOUT must be a duration with its unit, from 10s to 24h, such as 90s, 15m or 1h, not "${text.slice(0, 40)}".`,
    );
  return ms;
}

/** STUDIO_LIVE_URL and STUDIO_LIVE_TIMEOUT, checked; undefined when no live site is watched. */
export function readLiveSettings(env: NodeJS.ProcessEnv): LiveSettings | undefined {
  const url = env.STUDIO_LIVE_URL?.trim();
  const timeout = env.STUDIO_LIVE_TIMEOUT?.trim();
  if (!url) {
    if (timeout) parseLiveTimeout(timeout);
    return undefined;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`STUDIO_LIVE_URL must be the address of the live site, such as https://www.example.com, not "${url.slice(0, 80)}".`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw new Error(`STUDIO_LIVE_URL must start with https:// or http://, not "${parsed.protocol}".`);
  if (parsed.search || parsed.hash) throw new Error('STUDIO_LIVE_URL must be the site address alone, without ? or #.');
  return { url: parsed.href.replace(/\/?$/, '/'), timeoutMs: parseLiveTimeout(timeout || DEFAULT_LIVE_TIMEOUT) };
}

/** One watch, as kept: which commit, since when, until when, and what was seen. */
export type LiveWatch = {
  commit: string;
  startedAt: string;
  deadline: string;
  state: 'waiting' | 'live' | 'late';
  /** When the site was first seen serving it. */
  liveAt?: string;
  /** What the site served at the last answer. */
  served?: BuildInfo;
  /** Why the last question got no build file, in plain words. */
  problem?: string;
};

export type LiveWatcher = ReturnType<typeof createLiveWatcher>;

export function createLiveWatcher(options: {
  settings: LiveSettings;
  stateFile: string;
  /** Whether the commit `served` holds `commit` (the same one or a descendant). */
  contains: (served: string, commit: string) => Promise<boolean>;
  fetch?: typeof fetch;
  now?: () => Date;
  pollMs?: number;
  requestTimeoutMs?: number;
  /** The time zone times are told in; the server's own by default. */
  timeZone?: string;
  onError?: (error: unknown) => void;
}) {
  const { settings, stateFile } = options;
  const fetchFile = options.fetch ?? fetch;
  const now = options.now ?? (() => new Date());
  const pollMs = options.pollMs ?? LIVE_POLL_MS;
  const requestTimeoutMs = options.requestTimeoutMs ?? LIVE_REQUEST_TIMEOUT_MS;
  const timeZone = options.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const buildFileUrl = new URL(BUILD_INFO_FILE, settings.url);
  // A site behind a password (https://user:password@staging.example.com) is asked with it as a header:
  // fetch takes no credentials in an address.
  const authorization = buildFileUrl.username
    ? `Basic ${Buffer.from(`${decodeURIComponent(buildFileUrl.username)}:${decodeURIComponent(buildFileUrl.password)}`).toString('base64')}`
    : undefined;
  buildFileUrl.username = '';
  buildFileUrl.password = '';
  const shownSite = siteShown(settings.url);
  const watches = new Map<string, LiveWatch>(Object.entries(readState(stateFile)));
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  /** Starts watching for `commit`, the publish `id`'s. */
  function watch(id: string, commit: string): void {
    const startedAt = now();
    watches.set(id, {
      commit,
      startedAt: startedAt.toISOString(),
      deadline: new Date(startedAt.getTime() + settings.timeoutMs).toISOString(),
      state: 'waiting',
    });
    save();
    checkSoon(0);
  }

  /** Carries on with the watches a previous run left waiting. */
  function resume(): void {
    if ([...watches.values()].some((entry) => entry.state === 'waiting')) checkSoon(0);
  }

  function checkSoon(delayMs: number): void {
    if (stopped || running) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      running = check()
        .catch((error: unknown) => options.onError?.(error))
        .finally(() => {
          running = undefined;
          if ([...watches.values()].some((entry) => entry.state === 'waiting')) checkSoon(pollMs);
        });
    }, delayMs);
    timer.unref?.();
  }

  async function check(): Promise<void> {
    const waiting = [...watches.values()].filter((entry) => entry.state === 'waiting');
    if (waiting.length === 0) return;
    const answer = await askSite();
    const at = now();
    for (const entry of waiting) {
      if ('served' in answer) {
        entry.served = answer.served;
        delete entry.problem;
        if (answer.served.commit && (await options.contains(answer.served.commit, entry.commit))) {
          entry.state = 'live';
          entry.liveAt = at.toISOString();
          continue;
        }
      } else entry.problem = answer.problem;
      if (at.getTime() >= Date.parse(entry.deadline)) entry.state = 'late';
    }
    save();
  }

  async function askSite(): Promise<{ served: BuildInfo } | { problem: string }> {
    const url = new URL(buildFileUrl);
    // A copy kept by a cache on the way would hide the new build.
    url.searchParams.set('t', String(now().getTime()));
    try {
      const response = await fetchFile(url, {
        headers: { accept: 'application/json', 'cache-control': 'no-cache', ...(authorization ? { authorization } : {}) },
        signal: AbortSignal.timeout(requestTimeoutMs),
      });
      if (!response.ok) return { problem: `${shownSite} did not say which version it shows (it answered ${response.status})` };
      const text = await readAtMost(response, MAX_BUILD_FILE_CHARS);
      const served = text !== undefined ? parseBuildInfo(text) : undefined;
      if (!served) return { problem: `${shownSite} did not say which version it shows (is it built by this project?)` };
      if (!served.commit)
        return {
          served,
          problem: `${shownSite} shows a version built without its name, so the studio cannot tell whether the publish is in it`,
        };
      return { served };
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      return {
        problem: timedOut ? `${shownSite} did not answer within ${seconds(requestTimeoutMs)}` : `${shownSite} could not be reached`,
      };
    }
  }

  function save(): void {
    const kept = [...watches.entries()].sort(([, a], [, b]) => a.startedAt.localeCompare(b.startedAt)).slice(-KEPT_WATCHES);
    watches.clear();
    for (const [id, entry] of kept) watches.set(id, entry);
    writeFileAtomically(stateFile, `${JSON.stringify(Object.fromEntries(watches), null, 2)}\n`);
  }

  /** The watch of publish `id`, in plain words; undefined when it was never watched. */
  function statusOf(id: string): LiveStatus | undefined {
    const entry = watches.get(id);
    if (!entry) return undefined;
    const time = (iso: string) => serverSince(iso, { timeZone, now: now().getTime() });
    const servedText = entry.served ? `the version built at ${time(entry.served.builtAt)}` : '';
    if (entry.state === 'live') return { state: 'live', text: `Live since ${time(entry.liveAt!)}` };
    if (entry.state === 'late') {
      const after = `Not live after ${duration(settings.timeoutMs)}`;
      return {
        state: 'late',
        text: entry.problem && !entry.served ? `${after}: ${entry.problem}.` : `${after}: the site still shows ${servedText}.`,
      };
    }
    const detail = entry.problem ? ` ${entry.problem}.` : entry.served ? ` The site still shows ${servedText}.` : '';
    return { state: 'waiting', text: `Waiting for the live site…${detail}` };
  }

  function stop(): void {
    stopped = true;
    clearTimeout(timer);
  }

  return { watch, resume, statusOf, stop, settled: () => running ?? Promise.resolve() };
}

function readState(file: string): Record<string, LiveWatch> {
  if (!existsSync(file)) return {};
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return typeof value === 'object' && value !== null ? (value as Record<string, LiveWatch>) : {};
  } catch {
    return {};
  }
}

/** The site's address as shown to editors: without any user name or password in it. */
function siteShown(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.href.replace(/\/$/, '');
}

function duration(ms: number): string {
  const [count, unit] =
    ms % 3_600_000 === 0 ? [ms / 3_600_000, 'hour'] : ms % 60_000 === 0 ? [ms / 60_000, 'minute'] : [ms / 1000, 'second'];
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

function seconds(ms: number): string {
  return `${Math.round(ms / 1000)} seconds`;
}

/**
 * The answer's text, read no further than `limit` bytes: undefined when it is longer. A build file is a
 * few dozen bytes; a site that answers with something huge is not read to its end.
 */
export async function readAtMost(response: Response, limit: number): Promise<string | undefined> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    parts.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(parts));
}
