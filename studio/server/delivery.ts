// What happens to a publish beyond this checkout: brought up to the git remote before anything is
// written (remote.ts), pushed after the commit, named in the build's /build.json, and watched on the
// live site (live-status.ts); and how far each publish got, in plain words, for the publish screen and
// its history. Without a remote or a live site, it does nothing and says nothing.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { buildPaths, readBuildInfoFile, writeBuildInfo } from '../../content-model/load/build-files.ts';
import type { ContentIssue } from '../../content-model/content-issue.ts';
import type { PublishRecord } from '../api-types.ts';
import { createLiveWatcher, type LiveSettings } from './live-status.ts';
import { serverSince } from './time-words.ts';
import { createRemoteSync, type GitRemote, type PushResult, type SyncResult } from './remote.ts';
import { versionOf, type Workspace } from './workspace.ts';
import { gitIn } from './git.ts';
import { listWords } from '../../back-office/list-words.ts';

export type Delivery = ReturnType<typeof createDelivery>;

export function createDelivery(options: {
  root: string;
  workspace: Workspace;
  stateDir: string;
  remote?: GitRemote | null;
  live?: LiveSettings;
  /** Tests give a fake site and clock. */
  fetch?: typeof fetch;
  now?: () => Date;
  pollMs?: number;
  /** The team's time zone (STUDIO_TIME_ZONE): times in the status are told in it. */
  timeZone?: string;
  /** The site's own address (SITE_URL): where the published pages are linked when no live site is watched. */
  siteUrl?: string;
  onError?: (error: unknown) => void;
}) {
  const { root, workspace } = options;
  const timeZone = options.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const now = options.now ?? (() => new Date());
  let editor = 'the studio';
  const sync = options.remote
    ? createRemoteSync({
        root,
        remote: options.remote,
        drafts: {
          accepts: (file) => isContentFile(workspace, file),
          // The draft is credited to the people the replayed publish named, not to whoever publishes
          // now: their changes were never seen by this person, and a review must still see them.
          keep(file, text, baseText, commit) {
            if (workspace.listDrafts().some((draft) => draft.path === file)) return false;
            workspace.keepDraft(file, text, baseText === null ? null : versionOf(baseText), editor, authorsOfCommit(commit));
            return true;
          },
          update(file, text, commit) {
            const draft = workspace.listDrafts().find((kept) => kept.path === file);
            workspace.keepDraft(file, text, draft?.baseVersion ?? null, editor, authorsOfCommit(commit));
          },
          drop: (file) => workspace.discardDraft(file),
          nameOf: (file) => workspace.listEntries().find((entry) => entry.path === file)?.name ?? 'A page',
        },
      })
    : undefined;
  const watcher = options.live
    ? createLiveWatcher({
        settings: options.live,
        stateFile: path.join(options.stateDir, 'live-status.json'),
        contains: (served, commit) => (sync ? sync.contains(served, commit) : isAncestorHere(root, commit, served)),
        ...(options.fetch ? { fetch: options.fetch } : {}),
        ...(options.now ? { now: options.now } : {}),
        ...(options.pollMs ? { pollMs: options.pollMs } : {}),
        ...(options.onError ? { onError: options.onError } : {}),
        timeZone,
      })
    : undefined;
  watcher?.resume();
  let lastSync: SyncResult | undefined;

  /**
   * Everyone whose change the studio's publish `commit` carried, from the studio's publish log; a
   * commit the log does not name (a developer's) is credited to the person publishing now.
   */
  function authorsOfCommit(commit: string): string[] {
    const logFile = path.join(options.stateDir, 'publish-log.jsonl');
    if (!existsSync(logFile)) return [editor];
    for (const line of readFileSync(logFile, 'utf8').split('\n').reverse()) {
      if (!line.trim()) continue;
      let record: Partial<PublishRecord>;
      try {
        record = JSON.parse(line) as Partial<PublishRecord>;
      } catch {
        continue;
      }
      if (record.commit === commit) return record.changedBy?.length ? record.changedBy : record.user ? [record.user] : [editor];
    }
    return [editor];
  }

  /** Before a publish writes anything: the checkout brought up to the remote's branch. */
  async function prepare(user: string): Promise<SyncResult | undefined> {
    editor = user;
    lastSync = sync ? await sync.bringUpToDate() : undefined;
    return lastSync;
  }

  /**
   * After the commit: pushed (unless the remote could not even be fetched), the live build's
   * build.json names the commit that holds the publish (the build ran before the commit), and the live
   * site is watched for it. Answers the commit (a replay gives it a new id) and the push's outcome.
   */
  async function deliver(
    id: string,
    commit: string | undefined,
    buildDir: string | undefined,
  ): Promise<Pick<PublishRecord, 'commit' | 'remote'>> {
    if (!commit) return {};
    let final = commit;
    let remote: PublishRecord['remote'];
    if (sync) {
      const unreachable = lastSync && !lastSync.ok ? lastSync.reason : undefined;
      const pushed: PushResult = unreachable ? { pushed: false, reason: unreachable, commit } : await sync.push();
      // Earlier unpushed publishes whose files the remote changed too became drafts before this one.
      const keptAsDrafts = lastSync?.keptAsDrafts ?? [];
      final = pushed.commit;
      remote = {
        name: sync.remote.name,
        branch: sync.remote.branch,
        pushed: pushed.pushed,
        ...(pushed.reason && !pushed.pushed ? { reason: pushed.reason } : {}),
        ...(keptAsDrafts.length ? { keptAsDrafts } : {}),
        ...(pushed.changedThere?.length ? { changedThere: pushed.changedThere } : {}),
      };
    }
    if (buildDir) {
      const { clientDir } = buildPaths(buildDir);
      writeBuildInfo(clientDir, { commit: final, builtAt: readBuildInfoFile(clientDir)?.builtAt ?? now().toISOString() });
    }
    if (watcher && (!remote || remote.pushed)) watcher.watch(id, final);
    return { commit: final, ...(remote ? { remote } : {}) };
  }

  /**
   * Each record with its status in plain words; `records` newest first, as the history lists them.
   * The words say what a publish means for the site, never how git does it: the team's repository is
   * "the team's copy of the site", a file is named as the studio names it, and the remote's own
   * reason (git's words) stays in the record for developers.
   */
  function describe(records: readonly PublishRecord[]): PublishRecord[] {
    let names: Map<string, string> | undefined;
    const nameOf = (record: PublishRecord, file: string) =>
      record.files.find((published) => published.path === file)?.title ??
      (names ??= new Map(workspace.listEntries().map((entry) => [entry.path, entry.name]))).get(file) ??
      file;
    const listed = (record: PublishRecord, files: readonly string[]) => listWords(files.map((file) => nameOf(record, file)));
    return records.map((record, index) => {
      const status: NonNullable<PublishRecord['status']> = {};
      let watched = record.remote && !record.remote.pushed ? undefined : record.id;
      if (record.remote) {
        // A publish that lost its race for a file stays unsent: a later push does not carry it, nor
        // one that made this publish's version of a file a draft to bring the remote's in.
        const newer = records.slice(0, index).reverse();
        const pushedLater = newer.findIndex((candidate) => candidate.remote?.pushed);
        const madeDrafts = newer
          .slice(0, pushedLater + 1)
          .flatMap((candidate) => candidate.remote?.keptAsDrafts ?? [])
          .filter((file) => record.files.some((published) => published.path === file));
        const later = record.remote.changedThere?.length || madeDrafts.length > 0 || pushedLater < 0 ? undefined : newer[pushedLater];
        if (record.remote.pushed) status.remote = { pushed: true, text: `Sent to ${TEAM_COPY}` };
        else if (madeDrafts.length > 0)
          status.remote = {
            pushed: false,
            text: `Not sent to ${TEAM_COPY}: ${listed(record, madeDrafts)} changed there meanwhile. This version is kept here and as a draft of the page, to compare and choose.`,
          };
        else if (record.remote.changedThere?.length)
          status.remote = {
            pushed: false,
            text: `Not sent to ${TEAM_COPY}: ${listed(record, record.remote.changedThere)} changed there while this was published. It is live here and kept here; the next publish brings in their change and shows both versions, to compare and choose.`,
          };
        else if (later) {
          status.remote = {
            pushed: true,
            text: `Sent to ${TEAM_COPY} with the publish of ${serverSince(later.at, { timeZone, now: now().getTime() })}`,
          };
          watched = later.id;
        } else
          status.remote = {
            pushed: false,
            text: `Not in ${TEAM_COPY} yet: ${/could not be reached/.test(record.remote.reason ?? '') ? 'it could not be reached' : 'it could not be sent'}. It is live here, and the next publish sends it.`,
          };
        if (record.remote.keptAsDrafts?.length)
          status.remote.text = `${status.remote.text.replace(/\.?$/, '.')} ${listed(record, record.remote.keptAsDrafts)} changed in ${TEAM_COPY} meanwhile: the version an earlier publish made here, not sent, is kept as a draft, to compare and choose.`;
      }
      const live = watched ? watcher?.statusOf(watched) : undefined;
      if (live) status.live = live;
      const links = liveLinks(record);
      if (links.length > 0) status.liveLinks = links;
      return status.remote || status.live || status.liveLinks ? { ...record, status } : record;
    });
  }

  /**
   * Where each page the record published can be seen on the live site: its address on the watched
   * live site (STUDIO_LIVE_URL), else on the site's own address (SITE_URL). A deleted page, a file
   * without an address (the site's settings) and an undo are left out: there is nothing new to see.
   */
  function liveLinks(record: PublishRecord): { name: string; url: string }[] {
    const base = options.live?.url ?? options.siteUrl;
    if (!base || record.action === 'undo') return [];
    const entries = new Map(workspace.listEntries().map((entry) => [entry.path, entry]));
    return record.files.flatMap((file) => {
      const entry = entries.get(file.path);
      if (file.change === 'deleted' || !entry?.address || entry.isNew || entry.markedDraft) return [];
      // The address is read as the page stands, a saved draft included, which no check has passed
      // yet: one that would lead off the site is not linked.
      let url: string;
      try {
        url = pageUrl(base, entry.address);
      } catch {
        return [];
      }
      return [{ name: entry.name, url }];
    });
  }

  /** Where publishes are sent ("origin/main"), or undefined when they stay in this checkout. */
  const sendsTo = (): string | undefined => sync?.shown;

  return { prepare, deliver, describe, sendsTo, stop: () => watcher?.stop(), settled: () => watcher?.settled() ?? Promise.resolve() };
}

/**
 * Why a publish stopped for files changed since their drafts were started, naming each file and,
 * when the remote changed it, where and by whom; with one link per file.
 */
export function conflictAnswer(paths: readonly string[], synced: SyncResult | undefined): { message: string; issues: ContentIssue[] } {
  const where = (file: string) => {
    const change = synced?.changed.get(file);
    return change
      ? `was changed in the repository by ${change.author} ("${change.subject}")`
      : 'was changed elsewhere (in the repository or on disk)';
  };
  const first = paths[0]!;
  const message =
    paths.length === 1
      ? `Nothing was published: ${first} ${where(first)} since it was opened in the studio. Open it to compare both versions and choose which to keep, then publish again.`
      : `Nothing was published: ${paths.length} files changed since they were opened in the studio (listed below). Open each to compare both versions and choose which to keep, then publish again.`;
  return {
    message,
    issues: paths.map((file) => ({
      file,
      line: 1,
      column: 1,
      where: '',
      message: `${where(file).replace(/^was /, '')} since your draft was started: open it to compare both versions and choose.`,
    })),
  };
}

/** What the publish screens call the team's git repository, which the live site is deployed from. */
const TEAM_COPY = "the team's copy of the site";

/**
 * A page's address on a site: `/about` on https://www.example.com/ (or on a site served under a
 * folder, https://example.com/preview/) with no user name or password in it. An address that is no
 * path on that site (another site's address, `//host`, `javascript:`, a backslash) throws.
 */
export function pageUrl(base: string, address: string): string {
  const site = new URL(base.replace(/\/?$/, '/'));
  site.username = '';
  site.password = '';
  if (!/^\/(?![/\\])/.test(address) && address !== '/') throw new Error(`${address.slice(0, 80)} is not an address on the site.`);
  const url = new URL(address.replace(/^\//, ''), site);
  if (url.origin !== site.origin || !url.pathname.startsWith(site.pathname) || url.username || url.password)
    throw new Error(`${address.slice(0, 80)} is not an address on the site.`);
  return url.href;
}

function isContentFile(workspace: Workspace, file: string): boolean {
  try {
    workspace.contentFile(file);
    return true;
  } catch {
    return false;
  }
}

async function isAncestorHere(root: string, commit: string, served: string): Promise<boolean> {
  if (commit === served) return true;
  return gitIn(root)(['merge-base', '--is-ancestor', commit, served]).then(
    () => true,
    () => false,
  );
}
