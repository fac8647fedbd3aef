// Publishing to a git remote. Before a publish writes anything, the checkout is brought up to the
// remote's branch (a fast-forward, or a replay of earlier studio commits that were not pushed yet), so
// a change someone pushed to a file that has a draft shows exactly like a change on disk: the draft's
// version no longer matches, and the editor compares both and chooses. After the commit, it is pushed;
// when the remote moved on meanwhile, it is fetched, replayed and pushed again, a few times. Never
// with force. A push that cannot be made leaves the publish committed here, says why, and the next
// publish pushes it too.
//
// Replaying an unpushed commit over a change to the same file cannot be done for the editor: the
// remote's version is kept in the checkout, and the studio's version becomes a draft of that file
// (based on the version it was made from), so it shows as changed since, to compare and choose; the
// commits replayed stay in the repository under refs/studio/replaced/, so no published text is ever
// only a draft.
//
// A push is believed only when the remote is seen to hold the commit afterwards. A publish whose push
// lost a race (the remote got a change to the same file between the studio's fetch and its push) is
// not replayed into a draft: its commit stays on the branch here, and it is reported as not sent.
import { execFile } from 'node:child_process';
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Where publishes go: a remote of the checkout and the branch on it. */
export type GitRemote = { name: string; branch: string };

/** What the remote changed in content files since the checkout last had it: path → who and why. */
export type RemoteChanges = ReadonlyMap<string, { author: string; subject: string }>;

export type SyncResult = {
  /** False when the checkout could not be brought up to the remote (it publishes here all the same). */
  ok: boolean;
  /** Why not, in plain words, with nothing of the server's paths or the remote's credentials. */
  reason?: string;
  changed: RemoteChanges;
  /** Files whose earlier, unpushed version from the studio became a draft (the remote changed them too). */
  keptAsDrafts: string[];
};

export type PushResult = {
  pushed: boolean;
  reason?: string;
  commit: string;
  /** Files the remote changed too while the publish was made: it was not sent, and stays in its commit here. */
  changedThere?: string[];
};

/** Where the studio's version of a file goes when the remote changed the same file: a draft of it. */
export type DraftKeeper = {
  /** Whether `path` is a content file the studio edits (only those can become drafts). */
  accepts(path: string): boolean;
  /** Keeps `text` (made from `baseText`, by the commit `commit` not sent) as the file's draft; false when the file had a draft already (newer work, kept). */
  keep(path: string, text: string | null, baseText: string | null, commit: string): boolean;
  /** Puts a later version into a draft `keep` made (a later unpushed commit changed the file again). */
  update(path: string, text: string | null, commit: string): void;
  /** Drops a draft `keep` made, when the replay is given up. */
  drop(path: string): void;
  /** What the studio calls a content file ("Home"), for the sentences a person reads. */
  nameOf(path: string): string;
};

/** Network operations give up after this: an unreachable remote must not hold the publish queue for long. */
const NETWORK_TIMEOUT_MS = 60_000;
/** Pushes tried when the remote keeps moving on between fetch and push. */
const PUSH_ATTEMPTS = 4;
/** The committer of replayed commits when the checkout names none (as for the studio's own commits). */
const STUDIO_IDENTITY = ['-c', 'user.name=Content studio', '-c', 'user.email=studio@localhost'];

/**
 * Git settings for a replay: a file both sides changed is never merged line by line (git would join
 * two people's changes to one page into a text nobody saw, checked or built); it stops as a
 * conflict, so the studio keeps each version apart and says so. A merge rule the repository's own
 * .gitattributes sets for a file is kept.
 */
let wholeFileMerge: string[] | undefined;
function wholeFileMergeSettings(): string[] {
  if (!wholeFileMerge) {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'studio-merge-')), 'attributes');
    writeFileSync(file, '* merge=binary\n');
    wholeFileMerge = ['-c', `core.attributesFile=${file}`];
  }
  return wholeFileMerge;
}

type Git = (args: readonly string[], options?: { network?: boolean }) => Promise<{ stdout: string; stderr: string }>;

function gitRunner(root: string): Git {
  // Never wait for a password or a host key on a terminal nobody watches; never open an editor. An ssh
  // command the checkout or the environment names is kept.
  let sshCommand: Promise<Record<string, string>> | undefined;
  const sshEnv = () =>
    (sshCommand ??=
      process.env.GIT_SSH_COMMAND || process.env.GIT_SSH
        ? Promise.resolve({})
        : run('git', ['-C', root, 'config', '--get', 'core.sshCommand']).then(
            () => ({}),
            () => ({ GIT_SSH_COMMAND: 'ssh -o BatchMode=yes' }),
          ));
  return async (args, options = {}) =>
    run('git', ['-C', root, ...args], {
      maxBuffer: 16 * 1024 * 1024,
      ...(options.network ? { timeout: NETWORK_TIMEOUT_MS } : {}),
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_EDITOR: 'true', GIT_MERGE_AUTOEDIT: 'no', ...(await sshEnv()) },
    });
}

/**
 * The remote publishes are pushed to: STUDIO_GIT_REMOTE (a remote's name, such as `origin`), else the
 * current branch's upstream; null when there is neither (publishes stay in this checkout). The branch
 * is the upstream's when it is on that remote, else the current branch's name. A setting that names
 * no remote of the checkout is a mistake the studio refuses to start with.
 */
export async function resolveGitRemote(root: string, setting: string | undefined): Promise<GitRemote | null> {
  const git = gitRunner(root);
  const named = setting?.trim();
  const inRepository = await git(['rev-parse', '--is-inside-work-tree']).then(
    () => true,
    () => false,
  );
  if (!inRepository) {
    if (named) throw new Error(`STUDIO_GIT_REMOTE is "${named}", but this checkout is not a git repository.`);
    return null;
  }
  const branch = await git(['symbolic-ref', '--quiet', '--short', 'HEAD']).then(
    (result) => result.stdout.trim(),
    () => '',
  );
  const config = async (key: string) =>
    git(['config', '--get', '--', key]).then(
      (result) => result.stdout.trim(),
      () => '',
    );
  const upstreamRemote = branch ? await config(`branch.${branch}.remote`) : '';
  const upstreamBranch = branch ? (await config(`branch.${branch}.merge`)).replace(/^refs\/heads\//, '') : '';
  if (named) {
    const remotes = (await git(['remote'])).stdout.split('\n').filter(Boolean);
    if (!remotes.includes(named))
      throw new Error(
        `STUDIO_GIT_REMOTE is "${named}", but the checkout has no remote of that name${remotes.length ? ` (it has ${remotes.join(', ')})` : ''}: add it with \`git remote add ${named} <address>\` or correct the setting.`,
      );
    if (!branch)
      throw new Error('STUDIO_GIT_REMOTE is set, but the checkout is on no branch (a detached HEAD): check out the branch to publish to.');
    return { name: named, branch: upstreamRemote === named && upstreamBranch ? upstreamBranch : branch };
  }
  // An upstream in this same repository ("."), or none, pushes nowhere.
  if (!upstreamRemote || upstreamRemote === '.' || !upstreamBranch) return null;
  return { name: upstreamRemote, branch: upstreamBranch };
}

export type RemoteSync = ReturnType<typeof createRemoteSync>;

export function createRemoteSync({ root, remote, drafts }: { root: string; remote: GitRemote; drafts: DraftKeeper }) {
  const git = gitRunner(root);
  const tracking = `refs/remotes/${remote.name}/${remote.branch}`;
  const shown = `${remote.name}/${remote.branch}`;
  const identity = () =>
    git(['config', 'user.email']).then(
      () => [],
      () => STUDIO_IDENTITY,
    );

  async function plain(error: unknown): Promise<string> {
    let text = '';
    for (const which of [[], ['--push']]) {
      const url = await git(['remote', 'get-url', ...which, '--', remote.name]).then(
        (result) => result.stdout.trim(),
        () => '',
      );
      text = plainGitMessage(text ? { stderr: text } : error, { root, remoteName: remote.name, remoteUrl: url });
    }
    return text;
  }

  /** Fetches the remote's branch; false (with why) when it cannot be reached; true with `exists` false for a branch not made yet. */
  async function fetchBranch(): Promise<{ ok: true; exists: boolean } | { ok: false; reason: string }> {
    try {
      await git(['fetch', '--quiet', '--no-tags', '--', remote.name, `+refs/heads/${remote.branch}:${tracking}`], { network: true });
      return { ok: true, exists: true };
    } catch (error) {
      const text = String((error as { stderr?: string }).stderr ?? '');
      if (/couldn't find remote ref/i.test(text)) return { ok: true, exists: false };
      return { ok: false, reason: `${remote.name} could not be reached (${await plain(error)})` };
    }
  }

  const isAncestor = (older: string, newer: string) =>
    git(['merge-base', '--is-ancestor', older, newer]).then(
      () => true,
      () => false,
    );

  /** Content files the commits in `range` change, with the latest author and subject of each. */
  async function changesIn(range: string): Promise<Map<string, { author: string; subject: string }>> {
    const changed = new Map<string, { author: string; subject: string }>();
    const { stdout } = await git(['log', '--format=%x1e%an%x1f%s', '--name-only', range, '--', 'content']);
    for (const entry of stdout.split('\x1e').filter(Boolean)) {
      const [heading = '', ...files] = entry.split('\n');
      const [author = '', subject = ''] = heading.split('\x1f');
      for (const file of files.map((line) => line.trim()).filter(Boolean)) if (!changed.has(file)) changed.set(file, { author, subject });
    }
    return changed;
  }

  /** Brings the checkout up to the remote's branch: fetch, then fast-forward or replay unpushed commits. */
  async function bringUpToDate(): Promise<SyncResult> {
    const fetched = await fetchBranch();
    if (!fetched.ok) return { ok: false, reason: fetched.reason, changed: new Map(), keptAsDrafts: [] };
    if (!fetched.exists) return { ok: true, changed: new Map(), keptAsDrafts: [] };
    if (await isAncestor(tracking, 'HEAD')) return { ok: true, changed: new Map(), keptAsDrafts: [] };
    const base = (await git(['merge-base', 'HEAD', tracking]).catch(() => ({ stdout: '' }))).stdout.trim();
    const changed = base ? await changesIn(`${base}..${tracking}`) : new Map<string, { author: string; subject: string }>();
    try {
      if (await isAncestor('HEAD', tracking)) {
        await git(['merge', '--ff-only', '--quiet', tracking]);
        return { ok: true, changed, keptAsDrafts: [] };
      }
      return { ...(await replayOnto()), changed };
    } catch (error) {
      return {
        ok: false,
        reason: `the checkout could not be brought up to ${shown} (${await plain(error)})`,
        changed,
        keptAsDrafts: [],
      };
    }
  }

  /**
   * Replays the commits not on the remote yet over it. A content file both changed keeps the remote's
   * version and gets the studio's as a draft; any other file both changed stops the replay (nothing
   * changes) and says which: a developer merges it.
   */
  async function replayOnto(): Promise<{ ok: boolean; reason?: string; keptAsDrafts: string[] }> {
    const kept: string[] = [];
    const made: string[] = [];
    const committer = await identity();
    const replaced = await head();
    let step = await git([...committer, ...wholeFileMergeSettings(), 'rebase', '--quiet', tracking]).then(
      () => 'done' as const,
      () => 'stopped' as const,
    );
    for (let guard = 0; step === 'stopped' && guard < 200; guard++) {
      const conflicted = (await git(['diff', '--name-only', '--diff-filter=U', '-z'])).stdout.split('\0').filter(Boolean);
      const other = conflicted.filter((file) => !drafts.accepts(file));
      if (conflicted.length === 0 || other.length > 0) {
        await git(['rebase', '--abort']).catch(() => undefined);
        for (const file of made) drafts.drop(file);
        return {
          ok: false,
          reason:
            other.length > 0
              ? `${other.length === 1 ? 'A file' : `${other.length} files`} changed both here and in the team's copy of the site: a developer needs to bring the two versions together`
              : `the commits not on ${shown} yet could not be replayed over it`,
          keptAsDrafts: [],
        };
      }
      for (const file of conflicted) {
        // During a replay, stage 1 is the version both started from, 2 the remote's, 3 the studio's.
        const [baseText, remoteText, studioText] = await Promise.all([1, 2, 3].map((stage) => showStage(stage, file)));
        const replaying = (await git(['rev-parse', 'REBASE_HEAD'])).stdout.trim();
        if (made.includes(file)) drafts.update(file, studioText ?? null, replaying);
        else if (drafts.keep(file, studioText ?? null, baseText ?? null, replaying)) made.push(file);
        else {
          // The file has a draft already, which the studio's version must not replace: nothing is
          // replayed, the commit stays here, and the editor is told what to do.
          await git(['rebase', '--abort']).catch(() => undefined);
          for (const draftMade of made) drafts.drop(draftMade);
          return {
            ok: false,
            reason: `${drafts.nameOf(file)} changed both here and in the team's copy of the site, and has an unpublished draft: publish or discard that draft, then publish again to send this one`,
            keptAsDrafts: [],
          };
        }
        if (!kept.includes(file)) kept.push(file);
        if (remoteText === undefined) await git(['rm', '--quiet', '--', file]);
        else {
          await git(['checkout', '--ours', '--', file]);
          await git(['add', '--', file]);
        }
      }
      step = await git([...committer, ...wholeFileMergeSettings(), 'rebase', '--continue']).then(
        () => 'done' as const,
        async (error: unknown) => {
          // A commit left with nothing of its own is skipped.
          if (
            /nothing to commit|no changes/i.test(
              String((error as { stdout?: string }).stdout ?? '') + String((error as { stderr?: string }).stderr ?? ''),
            )
          )
            return git(['rebase', '--skip']).then(
              () => 'done' as const,
              () => 'stopped' as const,
            );
          return 'stopped' as const;
        },
      );
    }
    // The studio's versions that became drafts stay in their commits, named, so none is only a draft.
    if (kept.length > 0) await git(['update-ref', `refs/studio/replaced/${replaced}`, replaced]);
    return { ok: true, keptAsDrafts: kept };
  }

  async function showStage(stage: number, file: string): Promise<string | undefined> {
    return git(['show', `:${stage}:${file}`]).then(
      (result) => result.stdout,
      () => undefined,
    );
  }

  /**
   * Pushes HEAD to the remote's branch, and checks the remote holds it. When the remote moved on
   * meanwhile, fetches and replays the publish's commits over it and pushes again, a few times; a
   * replay that meets a change to the same file is given up, and the commit stays here, not sent.
   */
  async function push(): Promise<PushResult> {
    let reason = '';
    for (let attempt = 1; attempt <= PUSH_ATTEMPTS; attempt++) {
      try {
        await git(['push', '--porcelain', '--quiet', '--', remote.name, `HEAD:refs/heads/${remote.branch}`], { network: true });
        const commit = await head();
        const held = await remoteHolds(commit);
        if (held.ok) return { pushed: true, commit };
        reason = held.reason;
        break;
      } catch (error) {
        const output = `${(error as { stdout?: string }).stdout ?? ''}\n${(error as { stderr?: string }).stderr ?? ''}`;
        if (!/\[rejected\].*\((fetch first|non-fast-forward)\)|\(fetch first\)|non-fast-forward/i.test(output)) {
          reason =
            /Could not read from remote|unable to access|does not appear to be a git repository|Could not resolve|timed out|SIGTERM/i.test(
              output + String((error as Error).message),
            )
              ? `${remote.name} could not be reached (${await plain(error)})`
              : `${remote.name} refused it (${await plain(error)})`;
          break;
        }
        // The remote moved on since the fetch: take its commits and replay this one over them.
        const replayed = await replayPublish();
        if (!replayed.ok) {
          if (replayed.changedThere.length > 0)
            return { pushed: false, reason: replayed.reason, commit: await head(), changedThere: replayed.changedThere };
          reason = replayed.reason;
          break;
        }
        reason = `${shown} kept moving on while this was pushed; the next publish tries again`;
      }
    }
    return { pushed: false, reason, commit: await head() };
  }

  const head = async () => (await git(['rev-parse', 'HEAD'])).stdout.trim();

  /** Whether the remote's branch, fetched again, holds `commit`; else why not, in plain words. */
  async function remoteHolds(commit: string): Promise<{ ok: true } | { ok: false; reason: string }> {
    const fetched = await fetchBranch();
    if (!fetched.ok) return { ok: false, reason: `${fetched.reason}, so it could not be seen to hold this commit` };
    if (fetched.exists && (await isAncestor(commit, tracking))) return { ok: true };
    return { ok: false, reason: `git reported the push done, but ${shown} does not hold this commit` };
  }

  /**
   * Replays the commits not on the remote (the publish's) over the remote's branch, fetched again.
   * A change there to a file they change too is not merged for the editor: the replay is given up,
   * the commits stay as they were, and the reason names the files and who changed them.
   */
  async function replayPublish(): Promise<{ ok: true } | { ok: false; reason: string; changedThere: string[] }> {
    const fetched = await fetchBranch();
    if (!fetched.ok) return { ok: false, reason: fetched.reason, changedThere: [] };
    if (!fetched.exists) return { ok: true };
    const base = (await git(['merge-base', 'HEAD', tracking]).catch(() => ({ stdout: '' }))).stdout.trim();
    const committer = await identity();
    const done = await git([...committer, ...wholeFileMergeSettings(), 'rebase', '--quiet', tracking]).then(
      () => true,
      () => false,
    );
    if (done) return { ok: true };
    const conflicted = (await git(['diff', '--name-only', '--diff-filter=U', '-z']).catch(() => ({ stdout: '' }))).stdout
      .split('\0')
      .filter(Boolean);
    await git(['rebase', '--abort']).catch(() => undefined);
    const theirs = base ? await changesIn(`${base}..${tracking}`) : new Map<string, { author: string; subject: string }>();
    const named = conflicted.map((file) => {
      const change = theirs.get(file);
      return change ? `${file} (by ${change.author}, "${change.subject}")` : file;
    });
    return {
      ok: false,
      reason:
        named.length > 0
          ? `${named.join(', ')} changed there while this was published`
          : `${shown} moved on and this commit could not be replayed over it`,
      changedThere: conflicted,
    };
  }

  /**
   * Whether `newer` holds `commit` (the same commit or a descendant). A commit this checkout has not
   * seen (a deploy of something pushed later) is fetched first, once.
   */
  const fetchedFor = new Set<string>();
  async function contains(newer: string, commit: string): Promise<boolean> {
    if (newer === commit) return true;
    const known = await git(['cat-file', '-e', `${newer}^{commit}`]).then(
      () => true,
      () => false,
    );
    if (!known && !fetchedFor.has(newer)) {
      fetchedFor.add(newer);
      await fetchBranch();
    }
    return isAncestor(commit, newer);
  }

  return { remote, shown, bringUpToDate, push, contains };
}

/**
 * Git's message as an editor may read it: its `fatal:`/`error:` lines on one line, with the remote's
 * address shown as the remote's name, no user name or password of any address, and no folder of the
 * server.
 */
export function plainGitMessage(error: unknown, where: { root: string; remoteName: string; remoteUrl: string }): string {
  const output = String((error as { stderr?: string }).stderr ?? '') || (error instanceof Error ? error.message : String(error));
  const lines = output
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /^(fatal|error|remote|!)/i.test(line) && !/^hint:/i.test(line));
  let text = (lines.length > 0 ? lines : output.split('\n').slice(0, 2)).join(' ').trim();
  if ((error as { killed?: boolean }).killed) text = 'no answer within a minute';
  for (const address of [where.remoteUrl, withoutCredentials(where.remoteUrl)].filter((value) => value.length > 0))
    text = text.replaceAll(address, where.remoteName);
  text = withoutCredentials(text);
  for (const folder of new Set([where.root, realpathOrSelf(where.root)])) text = text.replaceAll(folder, '.');
  // Any other absolute path (the remote's folder, a home directory) says nothing an editor needs.
  text = text.replace(/(^|[\s'"(=])\/[^\s'"():]+/g, '$1…');
  return text.replace(/\s+/g, ' ').slice(0, 300) || 'git gave no reason';
}

function withoutCredentials(text: string): string {
  // Everything up to the last "@" of the address part: a password may hold an "@" of its own.
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^\s/]*@/gi, '$1');
}

function realpathOrSelf(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}
