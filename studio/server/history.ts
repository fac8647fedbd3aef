// Every published version of the content, kept, shown and restorable.
//
// In a git repository the history is git's: `git log` of the content files, so it lists every
// change, made here or elsewhere. Who published a version, and whether it was a publish, an undo or
// a restore, comes from the studio's own publish log (.studio/publish-log.jsonl), which names each
// publish's commit; never from a commit's message, which anyone can write. Any other commit that
// changed content files (a developer's, or a publish made by another studio) is listed as a commit
// with its author. A file's
// text in a version is read from git (`git ls-tree` and `git cat-file` of the commit), the commit
// first checked: 40 (or 64) hexadecimal digits, and reachable from HEAD.
//
// Without git the history is the studio's publish log (.studio/publish-log.jsonl), and each publish
// keeps the texts it wrote, before and after, in .studio/versions/<publish id>.json, so every version
// can still be shown and restored.
//
// A restore is a publish like any other (publish.ts): it is checked, built, committed, and can be
// undone. Nothing later is thrown away.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { contentFileOf, KIND_ORDER, kindDefinition, titleOf } from '../../content-model/kinds.ts';
import type { HistoryPage, HistoryVersion, PageVersion, PublishRecord } from '../api-types.ts';
import { fileData, readFileData } from './file-data.ts';
import { gitIn, isRepository, oneLine } from './git.ts';
import { peopleWords, personName } from '../person-name.ts';
import { diffHunks } from './line-diff.ts';
import type { Publisher, PublishRequest, PublishResult } from './publish.ts';
import type { StepReporter } from './publish.ts';
import { keptTextsFile, type KeptTexts } from './version-texts.ts';
import { WorkspaceError, type ContentFile, type Workspace } from './workspace.ts';
import { listWords } from '../../back-office/list-words.ts';

/** How many versions one page of the history holds. */
export const HISTORY_PAGE_SIZE = 20;

/** A commit id: SHA-1 (40 digits) or SHA-256 (64). */
const COMMIT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i;

/** A publish's id in the log: its time, then its action ("2025-03-02T14-05-00-000Z-publish"). */
const PUBLISH_ID = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9-]+Z-[a-z]+$/;

/** The content files, as git pathspecs: the two settings files, the pages and the articles. */
const CONTENT_PATHSPECS = KIND_ORDER.map((kind) => {
  const definition = kindDefinition(kind);
  return definition.shape === 'singleton' ? definition.file : `:(glob)${definition.folder}/*${definition.extension}`;
});

/** "2025-03-02 14:05 UTC": when a version was published, in a commit subject. */
export function publishedAtText(at: string): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? at : `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** Who approved the reviewed change a publish carried: as its record names them, or (older records) as its note does. */
function approvalOf(record: PublishRecord | undefined): { approvedBy?: string } {
  if (!record) return {};
  const approvedBy = record.approvedBy ?? /\bapproved by (.+?)\.(?:\s|$)/.exec(record.note ?? '')?.[1];
  return approvedBy ? { approvedBy } : {};
}

/**
 * The version in words, as the history lists it: "Home and About published by Mia, approved by Sam";
 * a reviewed change is credited to whoever made it and whoever approved it; a commit made outside
 * the studio, "Changed outside the studio by Dev Eloper". People are named as the studio names them
 * (person-name.ts), pages as the site's links name them.
 */
export function summaryOf(version: Omit<HistoryVersion, 'summary'>): string {
  if (version.action === 'commit') return `Changed outside the studio by ${version.user}`;
  const pages = listWords(version.files.map((file) => oneLine(file.name)));
  const others = (version.changedBy ?? []).filter((person) => personName(person) !== personName(version.user));
  if (version.action === 'undo') return `The publish of ${pages} undone by ${personName(version.user)}`;
  if (version.action === 'restore') return `${pages} restored to an earlier version by ${personName(version.user)}`;
  if (version.approvedBy)
    return `${pages} published by ${peopleWords(version.changedBy?.length ? version.changedBy : [version.user])}, approved by ${personName(version.approvedBy)}`;
  return `${pages} published by ${personName(version.user)}${others.length > 0 ? `, with changes by ${peopleWords(others)}` : ''}`;
}

function withSummary(version: Omit<HistoryVersion, 'summary'>): HistoryVersion {
  return { ...version, summary: summaryOf(version) };
}

export type History = ReturnType<typeof createHistory>;

export function createHistory({
  root,
  stateDir = path.join(root, '.studio'),
  workspace,
  publisher,
}: {
  root: string;
  stateDir?: string;
  workspace: Workspace;
  publisher: Publisher;
}) {
  const git = gitIn(root);
  const logFile = path.join(stateDir, 'publish-log.jsonl');

  /** Versions newest first, `limit` at a time; `path`: only the versions of that file. */
  async function list(options: { path?: string | undefined; head?: string | undefined; offset?: number | undefined; limit?: number } = {}) {
    const file = options.path === undefined ? undefined : workspace.contentFile(options.path);
    const offset = options.offset ?? 0;
    const limit = options.limit ?? HISTORY_PAGE_SIZE;
    return (await isRepository(root)) ? listFromGit(file, options.head, offset, limit) : listFromLog(file, options.head, offset, limit);
  }

  /** One file as a version left it, with what restoring it would change in the file today. */
  async function version(id: string, relative: string): Promise<PageVersion> {
    const file = workspace.contentFile(relative);
    const found = await findVersion(id, file);
    const live = workspace.readDisk(file);
    let data: unknown = null;
    let parseError: string | undefined;
    if (found.text !== null) {
      try {
        data = readFileData(file.kind, found.text);
      } catch (error) {
        const reason = error instanceof Error ? error.message.split('\n')[0]! : String(error);
        parseError = `This version cannot be drawn as a page: ${reason}`;
      }
    }
    return {
      version: found.version,
      path: file.path,
      kind: file.kind,
      fileName: file.name,
      name: nameNow(file, found.text),
      text: found.text,
      data,
      previousData: fileData(file.kind, found.previous),
      ...(parseError ? { parseError } : {}),
      hunks: diffHunks(live?.text ?? '', found.text ?? ''),
      liveVersion: live?.version ?? null,
      same: (live?.text ?? null) === found.text,
      hasDraft: workspace.listDrafts().some((draft) => draft.path === file.path),
    };
  }

  /**
   * Publishes the file as the version left it: a new publish (checked, built, committed, and undone
   * like any other), or a deletion where the file did not exist in it. `liveVersion`: the file's
   * version today as the person saw it when comparing; a publish since is refused.
   */
  async function restore(
    user: string,
    request: { version: string; path: string; liveVersion?: string | null | undefined },
    report?: StepReporter,
  ): Promise<PublishResult> {
    return publisher.publish(user, await restoreRequest(request), report);
  }

  /** What restoring the version publishes; refused (a WorkspaceError) when there is nothing to restore or it changed since. */
  async function restoreRequest(request: {
    version: string;
    path: string;
    liveVersion?: string | null | undefined;
  }): Promise<PublishRequest> {
    const file = workspace.contentFile(request.path);
    const found = await findVersion(request.version, file);
    const live = workspace.readDisk(file);
    const name = nameNow(file, found.text);
    if (found.text === null && kindDefinition(file.kind).shape === 'singleton')
      throw new WorkspaceError(
        `The ${name.toLowerCase()} did not exist in that version, and cannot be deleted: choose a later version.`,
        409,
      );
    if (request.liveVersion !== undefined && (live?.version ?? null) !== request.liveVersion)
      throw new WorkspaceError(
        `${name} was published again since you opened this version: look at the comparison again, then restore.`,
        409,
      );
    if ((live?.text ?? null) === found.text)
      throw new WorkspaceError(`This version of ${name} is what the site has now: there is nothing to restore.`, 409);
    return {
      action: 'restore',
      changes: [{ path: file.path, text: found.text, baseVersion: live?.version ?? null }],
      subject: `Restore ${oneLine(name).slice(0, 80)} as published ${publishedAtText(found.version.at)}`,
    };
  }

  // --- From git ---

  async function listFromGit(file: ContentFile | undefined, head: string | undefined, offset: number, limit: number): Promise<HistoryPage> {
    const start = head === undefined ? await headCommit() : await checkCommit(head);
    if (!start) return { versions: [], head: null, nextOffset: null, git: true };
    const commits = await readCommits(
      'log',
      [`--skip=${offset}`, `--max-count=${limit + 1}`, start],
      file ? [file.path] : CONTENT_PATHSPECS,
    );
    const names = namer();
    const published = new Map(readLog().flatMap((record) => (record.commit ? [[record.commit, record] as const] : [])));
    const versions: HistoryVersion[] = [];
    for (const commit of commits.slice(0, limit)) {
      const version = await fromCommit(commit, names, published.get(commit.hash));
      // A commit that changed only other files under content/ (a README) is no version of a page.
      if (version.files.length > 0) versions.push(version);
    }
    return { versions, head: start, nextOffset: commits.length > limit ? offset + limit : null, git: true };
  }

  async function headCommit(): Promise<string | null> {
    try {
      return (await git(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'])).stdout.trim() || null;
    } catch {
      return null; // a repository without any commit yet
    }
  }

  /** The commit `id` names, if it is in the history of HEAD; else a 400 or 404 saying why not. */
  async function checkCommit(id: string): Promise<string> {
    if (!COMMIT_ID.test(id))
      throw new WorkspaceError(
        `"${oneLine(id).slice(0, 80)}" is not a version of the site: a version is named by its commit id, 40 characters 0–9 and a–f.`,
        400,
      );
    const commit = id.toLowerCase();
    try {
      await git(['merge-base', '--is-ancestor', commit, 'HEAD']);
    } catch {
      throw new WorkspaceError(
        `Version ${commit.slice(0, 7)} is not in the site’s history: it may be on another branch, or the history was rewritten. Reload the history and choose again.`,
        404,
      );
    }
    return commit;
  }

  type RawCommit = { hash: string; author: string; at: string; message: string; changes: { status: string; path: string }[] };

  /** `git log` or `git show` of commits, with the content files each changed. */
  async function readCommits(command: 'log' | 'show', args: readonly string[], pathspecs: readonly string[]): Promise<RawCommit[]> {
    // A fresh marker starts each commit: no message can hold it by chance.
    const marker = `--commit-${randomBytes(8).toString('hex')}--`;
    const { stdout } = await git([
      command,
      '-z',
      '--no-renames',
      '--diff-merges=first-parent',
      '--name-status',
      `--format=${marker}%H%x00%an%x00%aI%x00%B%x00`,
      ...args,
      '--',
      ...pathspecs,
    ]);
    return stdout
      .split(marker)
      .slice(1)
      .map((chunk) => {
        const [hash = '', author = '', at = '', message = '', ...rest] = chunk.split('\0');
        const tokens = rest.map((token) => token.trim()).filter(Boolean);
        const changes: RawCommit['changes'] = [];
        for (let index = 0; index + 1 < tokens.length; index += 2) changes.push({ status: tokens[index]!, path: tokens[index + 1]! });
        return { hash, author, at, message: message.trim(), changes };
      });
  }

  /** A commit as a version: a publish, undo or restore when the studio's log names it, else a commit by its author. */
  async function fromCommit(
    commit: RawCommit,
    names: ReturnType<typeof namer>,
    record: PublishRecord | undefined,
  ): Promise<HistoryVersion> {
    const subject = commit.message.split('\n')[0] ?? '';
    const files: HistoryVersion['files'] = [];
    for (const change of commit.changes) {
      if (!contentFileOf(change.path)) continue;
      const kind = change.status.startsWith('A') ? 'added' : change.status.startsWith('D') ? 'deleted' : 'changed';
      files.push({ path: change.path, name: await names.ofCommit(change.path, commit.hash, kind), change: kind });
    }
    return withSummary({
      id: commit.hash,
      action: record?.action ?? 'commit',
      user: record?.user ?? commit.author,
      ...(record?.changedBy ? { changedBy: record.changedBy } : {}),
      at: commit.at,
      subject,
      ...(commit.message !== subject ? { message: commit.message } : {}),
      commit: commit.hash,
      files,
      ...approvalOf(record),
    });
  }

  /** A file's text at a commit; null when the commit has no such file. */
  async function textAt(commit: string, file: ContentFile): Promise<string | null> {
    const listed = (await git(['ls-tree', '-z', commit, '--', file.path])).stdout;
    if (!listed) return null;
    const [mode = '', type = '', object = ''] = listed.split('\t')[0]!.split(' ');
    if (type !== 'blob' || mode === '120000')
      throw new WorkspaceError(
        `${nameNow(file, null)} cannot be shown as it was in that version: the version holds something other than a page there.`,
        422,
      );
    return (await git(['cat-file', 'blob', object])).stdout;
  }

  // --- From the publish log, without git ---

  function readLog(): PublishRecord[] {
    if (!existsSync(logFile)) return [];
    return readFileSync(logFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as PublishRecord)
      .reverse();
  }

  function listFromLog(file: ContentFile | undefined, head: string | undefined, offset: number, limit: number): HistoryPage {
    const records = readLog().filter((record) => !file || record.files.some((changed) => changed.path === file.path));
    let start = 0;
    if (head !== undefined) {
      start = records.findIndex((record) => record.id === checkPublishId(head));
      if (start === -1) throw new WorkspaceError('The history changed since it was opened: reload it.', 404);
    }
    const names = namer();
    const shown = records.slice(start + offset, start + offset + limit);
    return {
      versions: shown.map((record) => fromRecord(record, names)),
      head: records[start]?.id ?? null,
      nextOffset: start + offset + limit < records.length ? offset + limit : null,
      git: false,
    };
  }

  function checkPublishId(id: string): string {
    if (!PUBLISH_ID.test(id))
      throw new WorkspaceError(`"${oneLine(id).slice(0, 80)}" is not a version of the site: choose one from the history.`, 400);
    return id;
  }

  function fromRecord(record: PublishRecord, names: ReturnType<typeof namer>): HistoryVersion {
    const files = record.files.map((file) => ({ path: file.path, name: names.known(file.path) ?? file.title, change: file.change }));
    const pages = files.map((file) => oneLine(file.name)).join(', ');
    const subject =
      record.action === 'undo' ? `Undo publish of ${pages}` : record.action === 'restore' ? `Restore ${pages}` : `Publish ${pages}`;
    return withSummary({
      id: record.id,
      action: record.action,
      user: record.user,
      ...(record.changedBy ? { changedBy: record.changedBy } : {}),
      at: record.at,
      subject,
      ...(record.commit ? { commit: record.commit } : {}),
      files,
      ...approvalOf(record),
    });
  }

  function keptTexts(id: string): KeptTexts | undefined {
    const file = keptTextsFile(stateDir, id);
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as KeptTexts) : undefined;
  }

  /**
   * A file's text as publish `index` (newest first) left it: what the last publish of it at or
   * before that one wrote; else what the first publish of it after found; else (never published in
   * the studio) the file as it is.
   */
  function textAtPublish(records: readonly PublishRecord[], index: number, file: ContentFile): string | null {
    const kept = (record: PublishRecord) => {
      if (!record.files.some((changed) => changed.path === file.path)) return 'untouched';
      return keptTexts(record.id)?.files.find((changed) => changed.path === file.path) ?? 'not kept';
    };
    const notKept = () =>
      new WorkspaceError(
        `The studio kept no copy of ${nameNow(file, null)} as this publish left it: it was published before the studio kept every version.`,
        404,
      );
    for (let older = index; older < records.length; older++) {
      const texts = kept(records[older]!);
      if (texts === 'not kept') break;
      if (texts !== 'untouched') return texts.after;
    }
    for (let newer = index - 1; newer >= 0; newer--) {
      const texts = kept(records[newer]!);
      if (texts === 'not kept') throw notKept();
      if (texts !== 'untouched') return texts.before;
    }
    if (kept(records[index]!) === 'not kept') throw notKept();
    return workspace.readDisk(file)?.text ?? null;
  }

  // --- Both ---

  /**
   * The version, the file's text in it, and its text just before it (`previous`: what the version
   * changed; null where the file did not exist before, or nothing tells what it was).
   */
  async function findVersion(
    id: string,
    file: ContentFile,
  ): Promise<{ version: HistoryVersion; text: string | null; previous: string | null }> {
    if (await isRepository(root)) {
      const commit = await checkCommit(id);
      const [raw] = await readCommits('show', [commit], CONTENT_PATHSPECS);
      if (!raw) throw new WorkspaceError(`Version ${commit.slice(0, 7)} could not be read.`, 404);
      const record = readLog().find((candidate) => candidate.commit === commit);
      return {
        version: await fromCommit(raw, namer(), record),
        text: await textAt(commit, file),
        previous: await textBefore(commit, file),
      };
    }
    const records = readLog();
    const index = records.findIndex((record) => record.id === checkPublishId(id));
    if (index === -1)
      throw new WorkspaceError('That version is not in the studio’s publish log: reload the history and choose again.', 404);
    return {
      version: fromRecord(records[index]!, namer()),
      text: textAtPublish(records, index, file),
      previous: textBeforePublish(records, index, file),
    };
  }

  /** The file in the commit's first parent: null for the first commit, or a file that was no plain file there. */
  async function textBefore(commit: string, file: ContentFile): Promise<string | null> {
    try {
      return await textAt(`${commit}^`, file);
    } catch {
      return null;
    }
  }

  /** The file just before publish `index` (newest first): the text it kept from before, else what the publish before it left. */
  function textBeforePublish(records: readonly PublishRecord[], index: number, file: ContentFile): string | null {
    const kept = keptTexts(records[index]!.id)?.files.find((changed) => changed.path === file.path);
    if (kept) return kept.before;
    if (index + 1 >= records.length) return null;
    try {
      return textAtPublish(records, index + 1, file);
    } catch {
      return null;
    }
  }

  /** What the studio calls the file now, or (gone since) what it would call the text. */
  function nameNow(file: ContentFile, text: string | null): string {
    return workspace.listEntries().find((entry) => entry.path === file.path)?.name ?? nameOfText(file, text);
  }

  function nameOfText(file: ContentFile, text: string | null): string {
    if (text !== null) return workspace.nameOf(file.path, text);
    const definition = kindDefinition(file.kind);
    return definition.shape === 'singleton' ? definition.title : titleOf(file.name);
  }

  /**
   * Names files as the studio shows them (`Entry.name`), read once per answer; a file deleted since
   * is named from its last text in git, found once.
   */
  function namer() {
    let entries: Map<string, string> | undefined;
    const gone = new Map<string, string>();
    const known = (relative: string) =>
      (entries ??= new Map(workspace.listEntries().map((entry) => [entry.path, entry.name]))).get(relative);
    return {
      known,
      async ofCommit(relative: string, commit: string, change: 'added' | 'changed' | 'deleted'): Promise<string> {
        const now = known(relative);
        if (now !== undefined) return now;
        const remembered = gone.get(relative);
        if (remembered !== undefined) return remembered;
        const file = workspace.contentFile(relative);
        let text: string | null = null;
        try {
          text = await textAt(change === 'deleted' ? `${commit}^` : commit, file);
        } catch {
          // Unreadable there: named from its file name.
        }
        const name = nameOfText(file, text);
        gone.set(relative, name);
        return name;
      },
    };
  }

  return { list, version, restore, restoreRequest };
}
