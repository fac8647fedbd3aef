// /api/changes, /api/preview-data, /api/discard and /api/keep-both: the unpublished changes as the
// publish screen shows them (the data of the live file and of each draft, which the screen compares
// field by field, a line diff of the two texts, the fingerprint of its
// text that a publish sends back, who changed it, and the content mistakes that would stop a
// publish; where review is required, an admin's publish leaves out drafts holding anyone else's
// change, listed apart as held; a draft a waiting scheduled publish carries is listed as scheduled
// instead, never offered again), the data the preview draws with the drafts applied, dropping
// a draft, and keeping both versions after a conflict. A draft that holds someone else's newer
// work is never dropped here.
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { addressFieldOf, collectionPath } from '../../../content-model/kinds.ts';
import { stringifyYaml, updateMarkdownFile } from '../../../content-model/formats/yaml-edit.ts';
import type { Changes } from '../../api-types.ts';
import { checkArticleData, type ContentEditing } from '../editing.ts';
import { fileData } from '../file-data.ts';
import { diffHunks } from '../line-diff.ts';
import { editorOf } from '../plugins/sessions.ts';
import type { StudioRoutes } from '../plugins/request-checks.ts';
import type { Publisher } from '../publish.ts';
import { contentPath, pageData, revision } from '../request-shapes.ts';
import type { PublishRights } from '../reviews.ts';
import { authorsOf, fingerprintOf, WorkspaceError, type Draft, type Workspace } from '../workspace.ts';
import type { ScheduledPublish, Scheduler } from '../schedule.ts';
import { scheduledView } from './schedule.ts';

/** `scheduler`: drafts a waiting scheduled publish carries are shown as scheduled, not offered again. */
export type DraftRoutesOptions = {
  workspace: Workspace;
  publisher: Publisher;
  editing: ContentEditing;
  rights: PublishRights;
  scheduler?: Scheduler;
};

/** `revision`: the draft revision the person saw; a draft saved since is not dropped. */
const discardBody = z.object({ path: contentPath, revision });
/** `revision`: the draft revision the browser last saw; absent, it saw none. */
const keepBothBody = z.object({ path: contentPath, data: pageData, revision: revision.optional() });

export const draftRoutes: StudioRoutes<DraftRoutesOptions> = async (app, { workspace, publisher, editing, rights, scheduler }) => {
  app.get('/changes', { config: { right: 'studio:edit' } }, async (request): Promise<Changes> => {
    const user = editorOf(request);
    // The same rule the publish applies: an admin's publish under required review carries only their own changes.
    const ownOnly = rights.reviewRequired && rights.mayPublish(request.studioSession);
    const isHeld = (draft: Draft) => ownOnly && authorsOf(draft).some((author) => author !== user);
    // A draft a waiting scheduled publish carries goes live at its time: shown as scheduled, with
    // when and by whom, and never offered for publishing (or holding back) again.
    const carried = scheduler?.carrying() ?? new Map<string, ScheduledPublish>();
    const all = workspace.listDrafts().filter((draft) => !carried.has(draft.path));
    const drafts = all.filter((draft) => !isHeld(draft));
    const entries = new Map(workspace.listEntries().map((entry) => [entry.path, entry]));
    const { errors: issues, warnings: allWarnings } = publisher.check(drafts);
    // Advice about the files this publish changes; the rest of the site's is shown where those files are edited.
    const changed = new Set(drafts.map((draft) => draft.path));
    const warnings = allWarnings.filter((warning) => changed.has(warning.file));
    return {
      files: drafts.map((draft) => {
        const file = workspace.contentFile(draft.path);
        const live = workspace.readDisk(file)?.text ?? null;
        return {
          path: draft.path,
          title: entries.get(draft.path)?.name ?? draft.path,
          change: draft.baseVersion === null ? 'added' : draft.text === null ? 'deleted' : 'changed',
          updatedBy: draft.updatedBy,
          changedBy: authorsOf(draft),
          fingerprint: fingerprintOf(draft),
          hunks: diffHunks(live ?? '', draft.text ?? ''),
          before: fileData(file.kind, live),
          after: fileData(file.kind, draft.text),
        };
      }),
      held: all
        .filter(isHeld)
        .map((draft) => ({ path: draft.path, title: entries.get(draft.path)?.name ?? draft.path, changedBy: authorsOf(draft) })),
      ...(scheduler && carried.size > 0
        ? {
            scheduled: [...carried].map(([path, entry]) => {
              const view = scheduledView(scheduler, entry, request.studioSession, rights);
              return {
                path,
                title: entries.get(path)?.name ?? entry.files.find((file) => file.path === path)?.title ?? path,
                scheduleId: entry.id,
                when: view.when,
                scheduledBy: entry.scheduledBy,
                mayCancel: view.mayCancel,
              };
            }),
          }
        : {}),
      issues,
      warnings,
      publishable: drafts.length > 0 && issues.length === 0,
    };
  });

  app.get('/preview-data', { config: { right: 'studio:edit' } }, async () => editing.previewData());

  // Dropping a draft drops everyone's changes in it: only the version the person saw, and, where
  // review is required, only the people whose changes it holds or an admin may drop someone else's.
  // Who dropped whose draft is kept (workspace.listGone).
  app.post('/discard', { config: { right: 'studio:edit' }, schema: { body: discardBody } }, async (request, reply) => {
    const { body } = request;
    const { draft, file } = workspace.open(body.path);
    if (!draft) return { discarded: true };
    const refused = discardRefusal(draft, body.revision, request, rights, workspace.spokenName(workspace.contentFile(draft.path)));
    if (refused) return reply.code(403).send({ message: refused });
    workspace.discardDraft(file.path, editorOf(request));
    return { discarded: true };
  });

  /** After a conflict: the person's version becomes a new page beside the one on disk. */
  app.post('/keep-both', { config: { right: 'studio:edit' }, schema: { body: keepBothBody } }, async (request) => {
    const { body } = request;
    const opened = workspace.open(body.path);
    // The draft on the server holds nothing the browser's version lacks only when the browser had
    // seen its latest revision; otherwise it is another tab's or person's work and stays.
    const sawLatestDraft = !opened.draft || opened.draft.revision === body.revision;
    // Whose changes the browser's version holds besides this person's: the draft's, and those of the
    // draft it was based on when that one was dropped since. A version from a draft the studio has
    // no record of is refused, so nobody's change goes live under another name.
    const seenRevision = body.revision ?? 0;
    const basedOnGone = seenRevision > 0 && (!opened.draft || opened.draft.revision !== seenRevision);
    const goneAuthors = basedOnGone ? workspace.authorsOfGone(opened.file.path, seenRevision) : [];
    if (basedOnGone && !opened.draft && !goneAuthors)
      throw new WorkspaceError(
        `The draft of "${workspace.spokenName(opened.file)}" you were changing was discarded or published since you opened it. Reload the page, then make your change again.`,
        409,
        'draft-changed',
      );
    const carrying = [...new Set([...(opened.draft ? authorsOf(opened.draft) : []), ...(goneAuthors ?? [])])];
    if (opened.file.kind === 'site' || opened.file.kind === 'roi') {
      if (!sawLatestDraft)
        throw new WorkspaceError(
          `"${workspace.spokenName(opened.file)}" has a newer draft from another tab or person. Reload it, then make your change again.`,
          409,
          'draft-changed',
        );
      // One file for the whole site: keeping both means the person's version, on top of the new disk
      // version; it still carries the changes of everyone who had saved the draft it came from.
      const disk = workspace.readDisk(opened.file);
      workspace.discardDraft(opened.file.path);
      const reopened = workspace.open(opened.file.path);
      const draft = workspace.saveDraft(
        opened.file.path,
        editing.nextText(reopened, body.data),
        { revision: 0, diskVersion: disk?.version ?? null },
        editorOf(request),
        carrying,
      );
      return { path: opened.file.path, revision: draft.revision };
    }
    const copyName = editing.freeName(opened.file.name, opened.file.kind);
    let data = body.data;
    // A copy of a file that writes its own address gets an address of its own.
    const addressField = addressFieldOf(opened.file.kind);
    if (addressField !== undefined)
      data = { ...data, [addressField]: `${String(data[addressField] ?? '')}-${copyName.slice(opened.file.name.length + 1)}`, draft: true };
    const text =
      opened.file.kind === 'article' ? updateMarkdownFile(editing.currentTextOf(opened), checkArticleData(data)) : stringifyYaml(data);
    const draft = workspace.createDraft(collectionPath(opened.file.kind, copyName), text, editorOf(request), carrying);
    // The browser's version now lives in the copy: the original goes back to what is on disk, unless
    // its draft holds someone else's newer work.
    if (sawLatestDraft) workspace.discardDraft(opened.file.path);
    return { path: draft.path, revision: draft.revision };
  });
};

/**
 * Why `request`'s person may not drop `draft` (a discard, or deleting a page that exists only as a
 * draft), as a plain sentence answered with 403; undefined when they may. A draft saved since the
 * person saw `revision` is refused with 409 (thrown), so nobody's newer change is dropped unseen.
 */
export function discardRefusal(
  draft: Draft,
  revision: number | undefined,
  request: FastifyRequest,
  rights: PublishRights,
  /** What the studio calls the draft's file (workspace.spokenName). */
  name: string,
): string | undefined {
  if (draft.revision !== revision)
    throw new WorkspaceError(
      `"${name}" was saved by ${draft.updatedBy} since you opened it. Reload it to see that change before discarding.`,
      409,
      'draft-changed',
    );
  const others = authorsOf(draft).filter((author) => author !== editorOf(request));
  if (rights.reviewRequired && !rights.mayPublish(request.studioSession) && others.length > 0)
    return `These changes hold work by ${others.join(', ')}. Only they or an admin can discard it; ask them, or ask an admin.`;
  return undefined;
}
