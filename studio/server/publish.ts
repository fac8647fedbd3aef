// Publishing: the drafts the person publishing saw become live content in one step, or nothing changes.
//
//   0. the publish screen sends the drafts it showed, each with the fingerprint of its text: a draft
//      saved since (by anyone) refuses the publish, and no other draft goes out; where review is
//      required, a draft holding someone else's change is refused too (it goes out by its review);
//   1. check all content with the drafts applied, exactly as the build does (a mistake stops here),
//      and that the person may change where the booking page points, when the change does
//      (booking-page.ts: with accounts, only a role that may read the leads);
//   2. write the changed files into content/ (each file replaced in one rename);
//   3. build the site into a fresh folder under .studio/builds/ (a failed build puts the files back):
//      only what the change reaches when that gives the same files, else the full build
//      (site-builder.ts);
//   4. point DIST_DIR at the new build in one rename of a symbolic link: a running `npm run serve`
//      on this checkout answers from it within a second, without a restart;
//   5. when the project is a git repository, commit the changed files, naming the pages, the editor
//      and everyone else whose change it carries;
//   6. record who published what, and whose changes, in .studio/publish-log.jsonl: the history's
//      "Published by" comes from there, never from a commit message (without git, with the texts it wrote
//      in .studio/versions/, so every version can still be shown and restored: history.ts).
//
// With a git remote, the checkout is first brought up to the remote's branch and the commit is then
// pushed; with a live site to watch, the studio says when it serves the publish (delivery.ts).
//
// Publishes run one after another (a queue), never interleaved. The previous build stays on disk,
// so the last publish can be undone at once.
import {
  appendFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { ContentError, type ContentIssue } from '../../content-model/content-issue.ts';
import { loadContent } from '../../content-model/load/load-content.ts';
import { conflictAnswer, type Delivery } from './delivery.ts';
import { inFormWords } from './issue-words.ts';
import { commitFiles, oneLine, type PublishedFile } from './git.ts';
import { keepVersionTexts } from './version-texts.ts';
import { createSiteBuilder, type BuildChange } from './site-builder.ts';
import { authorsOf, fingerprintOf, type Draft, type Workspace } from './workspace.ts';
import type { PublishRecord, PublishStepKey } from '../api-types.ts';
import { isBuild } from '../../content-model/load/build-files.ts';
import { bookingPageRefused, changesBookingPage, type BookingPageAction } from './booking-page.ts';
import { listWords } from '../../back-office/list-words.ts';

/** Reports the step a publish has reached (its run shows it to the screen). */
export type StepReporter = (step: PublishStepKey) => void;
export type { PublishRecord, PublishedFile };

/** A draft as a screen showed it: its file and the fingerprint of its text (`fingerprintOf`). */
export type SeenDraft = { path: string; fingerprint: string };

/**
 * What one publish makes live. `seen`: the drafts the publish screen showed, and only those, each
 * refused if it changed since; `changes`: texts named by the caller (a restored version, a change sent
 * for review or scheduled), each with the version of the file on disk it was made from (a file changed
 * since is a conflict) or without one (it replaces whatever is there). Neither: every draft (tests and
 * tools; no screen publishes that way).
 */
export type PublishRequest = {
  action?: PublishRecord['action'];
  seen?: readonly SeenDraft[];
  /** Review is required: a seen draft holding anyone else's change is refused (it needs its own review). */
  ownDraftsOnly?: boolean;
  changes?: readonly { path: string; text: string | null; baseVersion?: string | null; changedBy?: readonly string[] }[];
  /** The first line of the commit; "Publish <pages>" when left out. */
  subject?: string;
  /** A line for the commit and the record: who asked for a reviewed change and who approved it, who scheduled it. */
  note?: string;
  /** Who approved the reviewed change it publishes (the history names them). */
  approvedBy?: string;
};

export type PublishRefusal =
  'nothing' | 'invalid' | 'conflict' | 'build-failed' | 'undo-impossible' | 'changed-since' | 'needs-review' | 'booking-page';

export type PublishResult =
  | { ok: true; record: PublishRecord }
  | {
      ok: false;
      reason: PublishRefusal;
      message: string;
      issues?: readonly ContentIssue[];
    };

/** What a refused publish did not do: publish now, or schedule for later. */
type Undone = 'published' | 'scheduled';

/** A draft that changed since the publish screen showed it: nothing goes out until the person looks again. */
export function changedSinceMessage(titles: readonly string[], undone: Undone = 'published'): string {
  const before = undone === 'published' ? 'publishing' : 'scheduling';
  return `${listWords(titles)} changed since you opened the publish screen: look at the changes again before ${before}. Nothing was ${undone}.`;
}

/** A draft holding someone else's change, under required review. */
export function needsReviewMessage(held: readonly { title: string; others: readonly string[] }[], undone: Undone = 'published'): string {
  const pages = held.map((entry) => `${entry.title} (changed by ${listWords(entry.others)})`);
  return `Nothing was ${undone}: ${listWords(pages)} ${held.length === 1 ? 'holds' : 'hold'} changes by someone else, which need a review first. Publish your own changes, and approve theirs from the review requests.`;
}

/**
 * The drafts a publish screen showed, as they are now: refused when one changed or went since, or
 * (with `ownDraftsOnly`) holds a change by anyone but `user`. Publishing now and publishing at a set
 * time both take their drafts through here.
 */
export function takeSeenDrafts(
  workspace: Workspace,
  seen: readonly SeenDraft[],
  user: string,
  ownDraftsOnly: boolean,
  undone: Undone = 'published',
): { ok: true; drafts: Draft[] } | { ok: false; reason: 'nothing' | 'changed-since' | 'needs-review'; message: string } {
  if (seen.length === 0)
    return {
      ok: false,
      reason: 'nothing',
      message: `There is nothing to ${undone === 'published' ? 'publish' : 'schedule'}: no page has unpublished changes.`,
    };
  const current = new Map(workspace.listDrafts().map((draft) => [draft.path, draft]));
  const titles = new Map(workspace.listEntries().map((entry) => [entry.path, entry.name]));
  const titleOf = (file: string) => titles.get(file) ?? file;
  const changed = seen.filter((shown) => {
    const draft = current.get(shown.path);
    return !draft || fingerprintOf(draft) !== shown.fingerprint;
  });
  // Every draft shown is live already, as shown (the same publish sent twice, or by two people at once).
  const isLive = (shown: SeenDraft) =>
    !current.has(shown.path) &&
    fingerprintOf({ text: workspace.readDisk(workspace.contentFile(shown.path))?.text ?? null }) === shown.fingerprint;
  if (changed.length > 0 && seen.every(isLive))
    return {
      ok: false,
      reason: 'nothing',
      message: `${listWords(seen.map((shown) => titleOf(shown.path)))} ${seen.length === 1 ? 'is' : 'are'} live already, as shown: there is nothing more to ${undone === 'published' ? 'publish' : 'schedule'}.`,
    };
  if (changed.length > 0)
    return {
      ok: false,
      reason: 'changed-since',
      message: changedSinceMessage(
        changed.map((shown) => titleOf(shown.path)),
        undone,
      ),
    };
  const drafts = seen.map((shown) => current.get(shown.path)!);
  if (ownDraftsOnly) {
    const held = drafts
      .map((draft) => ({ title: titleOf(draft.path), others: authorsOf(draft).filter((author) => author !== user) }))
      .filter((entry) => entry.others.length > 0);
    if (held.length > 0) return { ok: false, reason: 'needs-review', message: needsReviewMessage(held, undone) };
  }
  return { ok: true, drafts };
}

type StoredPublish = { record: PublishRecord; files: PublishedFile[]; build: string; previousBuild: string | null };

export type Publisher = ReturnType<typeof createPublisher>;

export function createPublisher(options: {
  root: string;
  workspace: Workspace;
  /** The folder `npm run serve` serves (DIST_DIR), turned into a symbolic link on the first publish. */
  distDir: string;
  stateDir?: string;
  /**
   * The build; tests may swap it. It gets the folder to build into and what changed (the content
   * files and the live build), and must resolve only when the build is complete.
   */
  build?: (outDir: string, change: BuildChange) => Promise<unknown>;
  now?: () => Date;
  /** Pushing to a git remote and watching the live site; none: the checkout is the whole story. */
  delivery?: Delivery;
  /**
   * Whether `user` may change where the booking page points, asked when a publish, restore or undo
   * would (booking-page.ts), inside the queue, so every way a change goes live meets it. None: anyone
   * may (one person's studio, without accounts).
   */
  mayChangeBookingPage?: (user: string) => Promise<boolean>;
}) {
  const { root, workspace, distDir, delivery } = options;
  const stateDir = options.stateDir ?? path.join(root, '.studio');
  const buildsDir = path.join(stateDir, 'builds');
  const logFile = path.join(stateDir, 'publish-log.jsonl');
  const lastFile = path.join(stateDir, 'last-publish.json');
  const now = options.now ?? (() => new Date());
  // The studio's own builder keeps a build process running between publishes; a build given by a
  // test has none.
  const builder = options.build ? undefined : createSiteBuilder({ root });
  const build = options.build ?? builder!.build;
  let queue: Promise<unknown> = Promise.resolve();
  let queued = 0;

  /** Runs `task` after every publish or undo already asked for; `report` hears that it waits, if it does. */
  function enqueue<T>(task: () => Promise<T>, report: StepReporter): Promise<T> {
    if (queued > 0) report('waiting');
    queued++;
    const run = () => task().finally(() => queued--);
    const next = queue.then(run, run);
    queue = next.catch(() => undefined);
    return next;
  }

  /** The steps a publish takes here, in order: sending only where there is a remote to send to. */
  function plannedSteps(): PublishStepKey[] {
    return ['checking', 'building', 'going-live', 'saving', ...(delivery?.sendsTo() ? (['sending'] as const) : [])];
  }

  /**
   * The mistakes that stop a publish, and the warnings that do not, with `drafts` applied: each
   * named where the form shows it and in the page the studio names (issue-words.ts).
   */
  function check(drafts: readonly Draft[]): { errors: ContentIssue[]; warnings: ContentIssue[] } {
    const overrides = workspace.draftOverrides(drafts);
    const words = (issues: readonly ContentIssue[]) => inFormWords(root, workspace, issues, overrides);
    try {
      return { errors: [], warnings: words(loadContent({ root, overrides }).warnings) };
    } catch (error) {
      if (error instanceof ContentError) return { errors: words(error.issues), warnings: words(error.warnings) };
      throw error;
    }
  }

  async function buildAndSwitch(
    id: string,
    files: readonly PublishedFile[],
    report: StepReporter,
  ): Promise<{ build: string; previousBuild: string | null }> {
    mkdirSync(buildsDir, { recursive: true });
    const outDir = path.join(buildsDir, id);
    report('building');
    await build(outDir, { changed: files.map((file) => file.path), previous: liveBuild(distDir) });
    report('going-live');
    const previousBuild = switchLiveBuild(distDir, outDir, buildsDir, id);
    return { build: outDir, previousBuild };
  }

  /** A refusal when `files` change the booking page and `user` may not; undefined when nothing stops them. */
  async function bookingPageRefusal(
    user: string,
    files: readonly Pick<PublishedFile, 'path' | 'before' | 'after'>[],
    action: BookingPageAction,
  ): Promise<PublishResult | undefined> {
    if (!options.mayChangeBookingPage || !files.some(changesBookingPage)) return undefined;
    if (await options.mayChangeBookingPage(user)) return undefined;
    return { ok: false, reason: 'booking-page', message: bookingPageRefused(action) };
  }

  /** Publishes `request` (every draft by default); `report` hears each step as it starts. */
  function publish(user: string, request: PublishRequest = {}, report: StepReporter = () => {}): Promise<PublishResult> {
    return enqueue(async () => {
      report('checking');
      const started = performance.now();
      let drafts: Draft[];
      if (request.seen) {
        // Read inside the queue: a draft saved while an earlier publish ran is seen as changed.
        const taken = takeSeenDrafts(workspace, request.seen, user, request.ownDraftsOnly ?? false);
        if (!taken.ok) return taken;
        drafts = taken.drafts;
      } else if (request.changes) {
        drafts = request.changes.map((change) => ({
          path: workspace.contentFile(change.path).path,
          text: change.text,
          baseVersion:
            change.baseVersion === undefined
              ? (workspace.readDisk(workspace.contentFile(change.path))?.version ?? null)
              : change.baseVersion,
          revision: 0,
          updatedBy: user,
          updatedAt: now().toISOString(),
          changedBy: [...(change.changedBy ?? [user])],
        }));
      } else drafts = workspace.listDrafts();
      if (drafts.length === 0)
        return { ok: false, reason: 'nothing', message: 'There is nothing to publish: no page has unpublished changes.' };

      // A change pushed by someone else to a file with a draft then shows like a change on disk.
      const synced = await delivery?.prepare(user);
      const changedSince = drafts.filter(
        (draft) => (workspace.readDisk(workspace.contentFile(draft.path))?.version ?? null) !== draft.baseVersion,
      );
      if (changedSince.length > 0) {
        const conflict = conflictAnswer(
          changedSince.map((draft) => draft.path),
          synced,
        );
        // Each file named as the studio names it, for the links to open them.
        const issues = inFormWords(root, workspace, conflict.issues, workspace.draftOverrides(drafts));
        return { ok: false, reason: 'conflict', ...conflict, issues };
      }
      const issues = check(drafts).errors;
      if (issues.length > 0) {
        const count = issues.length === 1 ? 'one mistake' : `${issues.length} mistakes`;
        return {
          ok: false,
          reason: 'invalid',
          message: `Nothing was published: the content has ${count}. Fix them (they are listed beside the fields), then publish again.`,
          issues,
        };
      }

      const files: PublishedFile[] = drafts.map((draft) => {
        const entry = workspace.listEntries().find((e) => e.path === draft.path);
        return {
          path: draft.path,
          before: workspace.readDisk(workspace.contentFile(draft.path))?.text ?? null,
          after: draft.text,
          title: entry?.name ?? draft.path,
        };
      });
      const action = request.action ?? 'publish';
      const refused = await bookingPageRefusal(user, files, action === 'restore' ? 'restore' : 'publish');
      if (refused) return refused;
      const id = `${now().toISOString().replace(/[:.]/g, '-')}-${action}`;
      writeFiles(files, 'after');
      let switched: { build: string; previousBuild: string | null };
      try {
        switched = await buildAndSwitch(id, files, report);
      } catch (error) {
        writeFiles(files, 'before');
        rmSync(path.join(buildsDir, id), { recursive: true, force: true });
        return {
          ok: false,
          reason: 'build-failed',
          message: `Nothing was published: the site could not be built, and the live site is unchanged.\n${buildFailureText(error, root)}`,
        };
      }
      // A draft is done once its text is live; a draft of another text (a restore, a scheduled
      // publish of an older text, or a save made while this publish was building) stays, and shows
      // as changed on disk when opened.
      for (const draft of workspace.listDrafts()) {
        const published = files.find((file) => file.path === draft.path);
        if (published && published.after === draft.text) workspace.discardDraft(draft.path);
      }

      report('saving');
      // Everyone whose change goes out is named, in the commit and in the studio's own record.
      const changedBy = [...new Set(drafts.flatMap(authorsOf))];
      const note = [request.note, changedBy.some((author) => author !== user) ? `Changes by ${listWords(changedBy)}.` : undefined]
        .filter(Boolean)
        .join(' ');
      const commit = await commitFiles(root, files, request.subject ?? `Publish ${describeFiles(files)}`, user, note || undefined);
      // Without git, the texts are kept beside the log, so every version can be shown and restored.
      if (!commit) keepVersionTexts(stateDir, id, files);
      if (commit && delivery?.sendsTo()) report('sending');
      const delivered = delivery ? await delivery.deliver(id, commit, switched.build) : commit ? { commit } : {};
      const record: PublishRecord = {
        id,
        action,
        user,
        at: now().toISOString(),
        files: files.map(summarise),
        changedBy,
        ...(note ? { note: oneLine(note) } : {}),
        ...(request.approvedBy ? { approvedBy: request.approvedBy } : {}),
        ...delivered,
        ms: Math.round(performance.now() - started),
      };
      remember({ record, files, ...switched });
      return { ok: true, record: described(record) };
    }, report);
  }

  /** Puts back what the last publish changed: the files, the live build, and a commit saying so. */
  function undoLast(user: string, report: StepReporter = () => {}): Promise<PublishResult> {
    return enqueue(async () => {
      report('checking');
      const started = performance.now();
      if (!existsSync(lastFile)) return { ok: false, reason: 'undo-impossible', message: 'There is no publish to undo.' };
      const last = JSON.parse(readFileSync(lastFile, 'utf8')) as StoredPublish;
      await delivery?.prepare(user);
      const changedSince = last.files.filter((file) => (workspace.readDisk(workspace.contentFile(file.path))?.text ?? null) !== file.after);
      if (changedSince.length > 0) {
        return {
          ok: false,
          reason: 'undo-impossible',
          message: `The last publish cannot be undone: ${changedSince.map((f) => f.path).join(', ')} changed since. Edit the page instead.`,
        };
      }
      // Undoing writes each file's text from before the last publish over the one it made.
      const refused = await bookingPageRefusal(
        user,
        last.files.map((file) => ({ path: file.path, before: file.after, after: file.before })),
        'undo',
      );
      if (refused) return refused;
      const id = `${now().toISOString().replace(/[:.]/g, '-')}-undo`;
      writeFiles(last.files, 'before');
      let liveBuild: string;
      try {
        if (last.previousBuild && isBuild(last.previousBuild)) {
          report('going-live');
          switchLiveBuild(distDir, last.previousBuild, buildsDir, id);
          liveBuild = last.previousBuild;
        } else liveBuild = (await buildAndSwitch(id, last.files, report)).build;
      } catch (error) {
        writeFiles(last.files, 'after');
        return {
          ok: false,
          reason: 'build-failed',
          message: `The publish was not undone: the site could not be built.\n${buildFailureText(error, root)}`,
        };
      }
      const reverted = last.files.map((file) => ({ ...file, before: file.after, after: file.before }));
      report('saving');
      const commit = await commitFiles(root, reverted, `Undo publish of ${describeFiles(last.files)}`, user);
      if (!commit) keepVersionTexts(stateDir, id, reverted);
      if (commit && delivery?.sendsTo()) report('sending');
      const delivered = delivery ? await delivery.deliver(id, commit, liveBuild) : commit ? { commit } : {};
      const record: PublishRecord = {
        id,
        action: 'undo',
        user,
        at: now().toISOString(),
        files: reverted.map(summarise),
        ...delivered,
        ms: Math.round(performance.now() - started),
      };
      appendFileSync(logFile, `${JSON.stringify(record)}\n`);
      rmSync(lastFile, { force: true });
      return { ok: true, record: described(record) };
    }, report);
  }

  function remember(stored: StoredPublish): void {
    mkdirSync(stateDir, { recursive: true });
    appendFileSync(logFile, `${JSON.stringify(stored.record)}\n`);
    writeFileSync(lastFile, `${JSON.stringify(stored)}\n`);
    // Keep the live build and the one before it (for undo); older builds go.
    const keep = new Set(
      [stored.build, stored.previousBuild].filter((dir): dir is string => dir !== null).map((dir) => path.basename(dir)),
    );
    for (const name of existsSync(buildsDir) ? readdirSync(buildsDir) : []) {
      if (!keep.has(name)) rmSync(path.join(buildsDir, name), { recursive: true, force: true });
    }
  }

  function writeFiles(files: readonly PublishedFile[], which: 'before' | 'after'): void {
    for (const file of files) {
      const target = workspace.contentFile(file.path).absolute;
      const text = file[which];
      if (text === null) rmSync(target, { force: true });
      else workspace.writeAtomically(target, text);
    }
  }

  function history(limit = 20): PublishRecord[] {
    if (!existsSync(logFile)) return [];
    const records = readFileSync(logFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as PublishRecord)
      .slice(-limit)
      .reverse();
    return delivery ? delivery.describe(records) : records;
  }

  /** A new record as answered: with how far it got beyond this checkout. */
  function described(record: PublishRecord): PublishRecord {
    return delivery ? delivery.describe([record])[0]! : record;
  }

  function canUndo(): boolean {
    return existsSync(lastFile);
  }

  /** Ends the build process, once the queue is done (the studio is closing). */
  async function close(): Promise<void> {
    await queue;
    builder?.close();
  }

  return { publish, undoLast, plannedSteps, check, history, canUndo, close };
}

function summarise(file: PublishedFile): PublishRecord['files'][number] {
  return { path: file.path, title: file.title, change: file.before === null ? 'added' : file.after === null ? 'deleted' : 'changed' };
}

/**
 * The pages' names for a commit subject, as the site's links name them ("Home and About"). A name is
 * the editor's text and may hold line breaks: each is made one line, so no title can add lines of its own to the message (such as trailers like
 * "Signed-off-by:", which tools read from the message's last lines).
 */
function describeFiles(files: readonly PublishedFile[]): string {
  const names = files.map((file) => oneLine(file.title).slice(0, 80));
  return names.length <= 3 ? listWords(names) : `${names.slice(0, 3).join(', ')} and ${names.length - 3} more`;
}

/**
 * Points `distDir` at `target` in one rename of a symbolic link. The first time, when `distDir` is
 * still the folder `npm run build` wrote, that folder moves under .studio/builds/ (kept for undo).
 * Returns the build that was live before.
 */
export function switchLiveBuild(distDir: string, target: string, buildsDir: string, id: string): string | null {
  let previous: string | null = null;
  const existing = existsSync(distDir) || isSymlink(distDir) ? lstatSync(distDir) : undefined;
  if (existing?.isSymbolicLink()) {
    const linked = path.resolve(path.dirname(distDir), readlinkSync(distDir));
    previous = existsSync(linked) ? linked : null;
  } else if (existing?.isDirectory()) {
    previous = path.join(buildsDir, `${id}-before`);
    renameSync(distDir, previous);
  }
  const temporary = `${distDir}.studio-next`;
  rmSync(temporary, { force: true });
  symlinkSync(path.relative(path.dirname(distDir), target), temporary);
  renameSync(temporary, distDir);
  return previous;
}

function isSymlink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

/** The build folder `distDir` holds now (through its link), or null when it holds none. */
function liveBuild(distDir: string): string | null {
  try {
    const folder = realpathSync(distDir);
    return isBuild(folder) ? folder : null;
  } catch {
    return null;
  }
}

/**
 * What the build said, for the editor: its plain messages, with the project's place on the server
 * left out (paths are shown from the project folder) and no stack trace lines.
 */
export function buildFailureText(error: unknown, root: string): string {
  const output = (error as { stderr?: string }).stderr?.trim();
  let text = output || (error instanceof Error ? error.message : String(error));
  for (const prefix of new Set([root, realpathOrSelf(root)])) {
    text = text.replaceAll(`file://${prefix}/`, '').replaceAll(`${prefix}/`, '').replaceAll(prefix, '.');
  }
  return text
    .split('\n')
    .filter((line) => !/^\s*at\s/.test(line))
    .slice(0, 20)
    .join('\n');
}

function realpathOrSelf(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}
