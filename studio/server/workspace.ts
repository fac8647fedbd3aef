// The content files as the studio sees them: what is on disk (the live content) and, beside it, each
// person's unpublished edits (drafts). Drafts live under .studio/drafts/, outside content/, so the
// build, CI and `git status` never see them until they are published.
//
// Every path from the browser goes through `contentFile`, which accepts only the names of content
// files (content/site.yaml, content/roi.yaml, content/pages/<name>.yaml, content/blog/<slug>.md):
// nothing the browser sends can reach another file. A file there that is a symbolic link to a file
// outside content/ (a `git pull` can bring one) is never read: it is named as a mistake instead.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { splitFrontMatter } from '../../content-model/formats/front-matter.ts';
import { CONTENT_KINDS, contentFileOf, KIND_ORDER, kindDefinition, NAME_PATTERN, titleOf } from '../../content-model/kinds.ts';
import { isReallyInside } from '../../content-model/load/content-files.ts';
import { writeFileAtomically } from '../../content-model/load/write-file-atomically.ts';
import type { ContentKind, Entry } from '../api-types.ts';
import { comparePages, pageName, siteLinks } from './page-names.ts';

export type { ContentKind, Entry };

/** A content file named by its path from the project root, always with forward slashes. */
export type ContentFile = { path: string; kind: ContentKind; name: string; absolute: string };

export type Draft = {
  path: string;
  /** The file's new text; null when the draft deletes the file. */
  text: string | null;
  /** Version of the file on disk the draft started from; null for a file that did not exist. */
  baseVersion: string | null;
  /** Goes up by one with every save: a save based on an older revision was made without seeing the newer one. */
  revision: number;
  updatedBy: string;
  updatedAt: string;
  /**
   * Everyone who saved the draft since it was started, first to last: whose changes its publish
   * carries. Missing in drafts saved before the studio kept it (then only `updatedBy` is known).
   */
  changedBy?: string[];
};

/** A draft that was dropped: discarded by a person, published, or given up for the live text. */
export type GoneDraft = {
  path: string;
  revision: number;
  /** Everyone whose changes it held. */
  changedBy: string[];
  at: string;
  /** Who discarded it; absent when the studio dropped it (published, or back to the live text). */
  discardedBy?: string;
};

/** Dropped drafts remembered: enough for any browser left open on one, small enough to read on every keep. */
export const MAX_GONE_DRAFTS = 500;

export type OpenedFile = {
  file: ContentFile;
  /** The live text and its version; undefined for a file that exists only as a draft. */
  disk?: { text: string; version: string };
  draft?: Draft;
};

export const PAGE_NAME_PATTERN = NAME_PATTERN;

/**
 * Unpublished files at once. Every check and preview reads them all; a team has a handful, and a
 * page that keeps making copies could otherwise slow the studio for everyone.
 */
export const MAX_DRAFTS = 100;

export type WorkspaceErrorReason = 'draft-changed' | 'disk-changed' | 'exists';

export class WorkspaceError extends Error {
  override name = 'WorkspaceError';
  readonly status: 400 | 404 | 409 | 422;
  readonly reason: WorkspaceErrorReason | undefined;

  constructor(message: string, status: 400 | 404 | 409 | 422 = 400, reason?: WorkspaceErrorReason) {
    super(message);
    this.status = status;
    this.reason = reason;
  }
}

/** The version of a text: changes whenever one byte does. */
export function versionOf(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 22);
}

/**
 * What a draft's text was when a screen showed it: the version of its text, or "deleted". The publish
 * screen sends it back, so a draft saved since is noticed before anything goes live.
 */
export function fingerprintOf(draft: Pick<Draft, 'text'>): string {
  return draft.text === null ? 'deleted' : versionOf(draft.text);
}

/** Everyone whose changes a draft holds. */
export function authorsOf(draft: Pick<Draft, 'changedBy' | 'updatedBy'>): string[] {
  return draft.changedBy ?? [draft.updatedBy];
}

/** `user` added to the people who changed `draft`, once. */
function withAuthor(draft: Draft | undefined, user: string): string[] {
  const earlier = draft ? authorsOf(draft) : [];
  return earlier.includes(user) ? earlier : [...earlier, user];
}

export type Workspace = ReturnType<typeof createWorkspace>;

export function createWorkspace({ root, stateDir = path.join(root, '.studio') }: { root: string; stateDir?: string }) {
  const draftsDir = path.join(stateDir, 'drafts');
  const contentDir = path.join(root, 'content');
  mkdirSync(draftsDir, { recursive: true });

  const goneFile = path.join(stateDir, 'discarded-drafts.json');
  const draftFile = (file: ContentFile) => path.join(draftsDir, `${file.path.replaceAll('/', '__')}.json`);

  function contentFile(relative: unknown): ContentFile {
    if (typeof relative !== 'string') throw new WorkspaceError('No file was named.');
    const found = contentFileOf(relative);
    if (found) return { path: relative, ...found, absolute: path.join(root, ...relative.split('/')) };
    throw new WorkspaceError(`"${relative.slice(0, 120)}" is not a content file the studio edits.`);
  }

  function readDisk(file: ContentFile): { text: string; version: string } | undefined {
    if (!existsSync(file.absolute)) return undefined;
    if (!isReallyInside(file.absolute, contentDir))
      throw new WorkspaceError(
        `"${nameWithoutReading(file)}" is a link to a file kept elsewhere, which the studio does not read: a developer must replace it with the file itself.`,
      );
    const text = readFileSync(file.absolute, 'utf8');
    return { text, version: versionOf(text) };
  }

  function readDraft(file: ContentFile): Draft | undefined {
    const stored = draftFile(file);
    if (!existsSync(stored)) return undefined;
    return JSON.parse(readFileSync(stored, 'utf8')) as Draft;
  }

  const writeAtomically = writeFileAtomically;

  function listDrafts(): Draft[] {
    return readdirSync(draftsDir)
      .filter((name) => name.endsWith('.json'))
      .map((name) => JSON.parse(readFileSync(path.join(draftsDir, name), 'utf8')) as Draft)
      .sort((a, b) => a.path.localeCompare(b.path));
  }

  function open(relative: unknown): OpenedFile {
    const file = contentFile(relative);
    const disk = readDisk(file);
    const draft = readDraft(file);
    if (!disk && !draft) throw new WorkspaceError(`"${spokenName(file)}" does not exist.`, 404);
    return { file, ...(disk ? { disk } : {}), ...(draft ? { draft } : {}) };
  }

  /** The text the person is working on: their draft, or the live file. */
  function currentText(opened: OpenedFile): string | null {
    return opened.draft ? opened.draft.text : (opened.disk?.text ?? null);
  }

  /**
   * Saves a draft. `seen` is what the person's editor was based on: the draft revision (0 when there
   * was none) and the version on disk when they opened the file. A save made without seeing a newer
   * save (another tab, another person) or a change on disk is refused, so nothing is overwritten unseen.
   */
  function saveDraft(
    relative: unknown,
    text: string | null,
    seen: { revision: number; diskVersion: string | null },
    user: string,
    /** People whose changes the text carries besides the draft's own (a version kept from a draft discarded first). */
    carrying: readonly string[] = [],
  ): Draft {
    const file = contentFile(relative);
    const disk = readDisk(file);
    const draft = readDraft(file);
    if ((draft?.revision ?? 0) !== seen.revision) {
      throw new WorkspaceError(
        `"${spokenName(file)}" was saved ${draft ? `by ${draft.updatedBy} ` : ''}in another tab or by another person since you opened it.`,
        409,
        'draft-changed',
      );
    }
    const base = draft ? draft.baseVersion : (disk?.version ?? null);
    if ((disk?.version ?? null) !== base || (!draft && (disk?.version ?? null) !== seen.diskVersion)) {
      throw new WorkspaceError(
        `"${spokenName(file)}" was changed by someone else (a publish, or a developer) since you opened it.`,
        409,
        'disk-changed',
      );
    }
    if (text !== null && disk && text === disk.text) {
      // Back to what is live: nothing left to publish. Revision 0 is "no draft", so the next save
      // from this tab (which now holds 0) is not mistaken for one that missed another tab's save.
      discardDraft(file.path);
      return {
        path: file.path,
        text,
        baseVersion: disk.version,
        revision: 0,
        updatedBy: user,
        updatedAt: new Date().toISOString(),
      };
    }
    if (!draft) refusePastDraftLimit();
    const next: Draft = {
      path: file.path,
      text,
      baseVersion: base,
      revision: seen.revision + 1,
      updatedBy: user,
      updatedAt: new Date().toISOString(),
      changedBy: [...new Set([...carrying, ...withAuthor(draft, user)])],
    };
    writeAtomically(draftFile(file), `${JSON.stringify(next, null, 2)}\n`);
    return next;
  }

  function createDraft(
    relative: unknown,
    text: string,
    user: string,
    /** People whose changes the text carries besides its maker (a copy of someone's draft). */
    carrying: readonly string[] = [],
  ): Draft {
    const file = contentFile(relative);
    if (readDisk(file) || readDraft(file))
      throw new WorkspaceError(
        `${file.kind === 'article' ? 'An article' : 'A page'} named "${file.name}" already exists: choose another name.`,
        409,
        'exists',
      );
    refusePastDraftLimit();
    const draft: Draft = {
      path: file.path,
      text,
      baseVersion: null,
      revision: 1,
      updatedBy: user,
      updatedAt: new Date().toISOString(),
      changedBy: [...new Set([...carrying, user])],
    };
    writeAtomically(draftFile(file), `${JSON.stringify(draft, null, 2)}\n`);
    return draft;
  }

  /** Refuses before anything is written when drafting every one of `paths` would pass the draft limit. */
  function refuseUnlessRoomForDrafts(paths: readonly unknown[]): void {
    const added = new Set(
      paths
        .map((relative) => contentFile(relative))
        .filter((file) => !readDraft(file))
        .map((file) => file.path),
    );
    refusePastDraftLimit(added.size);
  }

  function refusePastDraftLimit(adding = 1): void {
    if (adding > 0 && readdirSync(draftsDir).filter((name) => name.endsWith('.json')).length + adding > MAX_DRAFTS)
      throw new WorkspaceError(
        `There are ${MAX_DRAFTS} files with unpublished changes already: publish or discard some before changing another.`,
        409,
      );
  }

  /**
   * Writes a draft as given, past the draft limit: a version of the file that must not be lost (the
   * studio's own, which the remote overtook). Its base names the version it was made from.
   */
  function keepDraft(
    relative: unknown,
    text: string | null,
    baseVersion: string | null,
    user: string,
    /** Whose changes the text holds when they are others than `user` (the people a replayed publish named). */
    authors: readonly string[] = [user],
  ): Draft {
    const file = contentFile(relative);
    const earlier = readDraft(file);
    const draft: Draft = {
      path: file.path,
      text,
      baseVersion,
      revision: (earlier?.revision ?? 0) + 1,
      updatedBy: authors.at(-1) ?? user,
      updatedAt: new Date().toISOString(),
      changedBy: [...new Set([...(earlier ? authorsOf(earlier) : []), ...(authors.length ? authors : [user])])],
    };
    writeAtomically(draftFile(file), `${JSON.stringify(draft, null, 2)}\n`);
    return draft;
  }

  /**
   * Drops a draft. Who wrote it is kept by its revision (see `authorsOfGone`), so a text a browser
   * still holds from it never goes live credited to someone else alone. `by`: who dropped it.
   */
  function discardDraft(relative: unknown, by?: string): void {
    const file = contentFile(relative);
    const draft = readDraft(file);
    if (!draft) return;
    const gone: GoneDraft = { path: file.path, revision: draft.revision, changedBy: authorsOf(draft), at: new Date().toISOString() };
    if (by) gone.discardedBy = by;
    writeAtomically(goneFile, `${JSON.stringify([...readGone(), gone].slice(-MAX_GONE_DRAFTS), null, 2)}\n`);
    rmSync(draftFile(file), { force: true });
  }

  function readGone(): GoneDraft[] {
    if (!existsSync(goneFile)) return [];
    return JSON.parse(readFileSync(goneFile, 'utf8')) as GoneDraft[];
  }

  /**
   * Everyone whose changes a draft of `relative` at `revision` held, when that draft is gone
   * (discarded, or published and dropped); undefined when the studio has no record of it.
   * Revisions start again after a draft is dropped, so every gone draft at that revision counts.
   */
  function authorsOfGone(relative: string, revision: number): string[] | undefined {
    const matching = readGone().filter((gone) => gone.path === relative && gone.revision === revision);
    return matching.length ? [...new Set(matching.flatMap((gone) => gone.changedBy))] : undefined;
  }

  /** The drafts dropped lately, oldest first: who dropped whose draft, and when. */
  function listGone(): GoneDraft[] {
    return readGone();
  }

  /** Every content file, live or only drafted, with what the navigator shows. */
  function listEntries(): Entry[] {
    const drafts = new Map(listDrafts().map((draft) => [draft.path, draft]));
    const onDisk = KIND_ORDER.flatMap((kind) => {
      const definition = kindDefinition(kind);
      if (definition.shape === 'singleton') return [definition.file];
      return listNames(path.join(root, ...definition.folder.split('/')), definition.extension).map(
        (name) => `${definition.folder}/${name}`,
      );
    });
    const paths = [...new Set([...onDisk, ...drafts.keys()])];
    const entries: (Entry & { data: unknown })[] = [];
    for (const relative of paths) {
      let file: ContentFile;
      try {
        file = contentFile(relative);
      } catch {
        continue; // a file in content/ the studio does not edit (a README, a misnamed page)
      }
      const draft = drafts.get(relative);
      let diskText: string | undefined;
      try {
        diskText = readDisk(file)?.text;
      } catch (error) {
        // A link to a file outside content/ is left out, so every page can still list what links
        // to it; the content check names it, and opening it says what to do.
        if (error instanceof WorkspaceError) continue;
        throw error;
      }
      const isNew = draft !== undefined && draft.baseVersion === null;
      const described = describe(file, draft?.text ?? diskText ?? '');
      entries.push({
        path: relative,
        kind: file.kind,
        ...described,
        name: described.title,
        edited: draft !== undefined,
        isNew,
        deleted: draft?.text === null,
      });
    }
    // Pages are named and ordered the way the site's own links show them (as the settings stand, drafts included).
    const links = siteLinks(entries.find((entry) => entry.kind === 'site')?.data);
    for (const entry of entries) if (entry.kind === 'page') entry.name = pageName(entry, links);
    const pages = entries.filter((entry) => entry.kind === 'page').sort(comparePages(links));
    return [...entries.filter((entry) => entry.kind !== 'page'), ...pages].map(withoutData);
  }

  /**
   * What the studio calls `relative` when its text is `text` (an older version, a file deleted
   * since): named as `listEntries` names it, with the site's links as they stand.
   */
  function nameOf(relative: string, text: string): string {
    const file = contentFile(relative);
    const described = describe(file, text);
    if (file.kind !== 'page') return described.title;
    const site = contentFile(CONTENT_KINDS.site.file);
    let siteText = '';
    try {
      const draft = readDraft(site);
      siteText = (draft ? draft.text : readDisk(site)?.text) ?? '';
    } catch {
      // A site file that is a link out of content/: named without its links.
    }
    return pageName(described, siteLinks(describe(site, siteText).data));
  }

  /**
   * What the studio calls `file` in a sentence: its name in the list of pages (from its draft or its
   * file), else its file's name made into words. Messages name files this way, never by their paths.
   */
  function spokenName(file: ContentFile): string {
    try {
      const draft = readDraft(file);
      const text = draft ? draft.text : readDisk(file)?.text;
      if (typeof text === 'string') return nameOf(file.path, text);
    } catch {
      // A link out of content/: named without reading it.
    }
    return nameWithoutReading(file);
  }

  /** Texts standing in for the files on disk (absolute paths), for checking or building with every draft applied. */
  function draftOverrides(drafts: readonly Draft[] = listDrafts()): Map<string, string | null> {
    return new Map(drafts.map((draft) => [contentFile(draft.path).absolute, draft.text]));
  }

  return {
    /** The project's folder (its schemas name the form the studio's messages speak of). */
    root,
    contentFile,
    open,
    currentText,
    saveDraft,
    createDraft,
    refuseUnlessRoomForDrafts,
    discardDraft,
    authorsOfGone,
    listGone,
    keepDraft,
    listDrafts,
    listEntries,
    draftOverrides,
    nameOf,
    spokenName,
    readDisk,
    writeAtomically,
  };
}

function listNames(dir: string, extension: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith(extension))
    .sort();
}

function withoutData({ data: _data, ...entry }: Entry & { data: unknown }): Entry {
  return entry;
}

/** A file's name made into words ("spring-offer" → "Spring offer", the site file → "Site settings"), for when its text cannot be read. */
function nameWithoutReading(file: ContentFile): string {
  const definition = kindDefinition(file.kind);
  return definition.shape === 'singleton' ? definition.title : titleOf(file.name);
}

/** Title, address, draft mark and data of a file from its text; a text that does not parse still gets a title. */
function describe(file: ContentFile, text: string): { title: string; address?: string; markedDraft: boolean; data: unknown } {
  const definition = kindDefinition(file.kind);
  let data: Record<string, unknown> = {};
  try {
    const yamlText = definition.format === 'markdown' ? (splitFrontMatter(text)?.yaml ?? '') : text;
    const parsed: unknown = parse(yamlText);
    if (typeof parsed === 'object' && parsed !== null) data = parsed as Record<string, unknown>;
  } catch {
    // Shown by name until it parses again.
  }
  if (definition.shape === 'singleton') return { title: definition.title, markedDraft: false, data };
  const title = typeof data.title === 'string' && data.title.trim() ? data.title : file.name;
  const address = definition.addressOf(file.name, data);
  return { title, ...(address ? { address } : {}), markedDraft: data.draft === true, data };
}
