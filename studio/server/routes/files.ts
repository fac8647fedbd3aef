// /api/schemas, /api/entries and /api/file: the content schemas the forms are drawn from, the list
// of content files, and one file opened (GET), saved as a draft (PUT), created as a new page or
// article (POST) or deleted as a draft (DELETE). Nothing here writes into content/: every change is
// a draft until it is published (routes/publish.ts). Each body and query is checked by its schema
// first; which paths are content files is decided by the workspace.
import { readSchemaModel } from '../../../content-model/load/schema-files.ts';
import { z } from 'zod';
import { collectionPath, kindDefinition } from '../../../content-model/kinds.ts';
import type { ContentEditing } from '../editing.ts';
import { editorOf } from '../plugins/sessions.ts';
import type { StudioRoutes } from '../plugins/request-checks.ts';
import type { Publisher } from '../publish.ts';
import type { Scheduler } from '../schedule.ts';
import type { PublishRights } from '../reviews.ts';
import { discardRefusal } from './drafts.ts';
import { contentPath, diskVersion, pageData, revision, revisionInQuery, seenOf } from '../request-shapes.ts';
import { authorsOf, PAGE_NAME_PATTERN, WorkspaceError, type Workspace } from '../workspace.ts';

export type FileRoutesOptions = {
  workspace: Workspace;
  publisher: Publisher;
  editing: ContentEditing;
  /** The project's schema/ folder. */
  /** The project folder: schemas are read from schema/ and blocks/<type>/ under it. */
  root: string;
  rights: PublishRights;
  /** Which drafts a waiting scheduled publish carries, so the list can say so. */
  scheduler?: Pick<Scheduler, 'carrying'>;
};

const openQuery = z.object({ path: contentPath });
const saveBody = z.object({ path: contentPath, data: pageData, revision: revision.optional(), diskVersion: diskVersion.optional() });
const createBody = z.object({
  kind: z.enum(['page', 'article']).default('page'),
  name: z.string(),
  /** A page or article to start from; empty or absent: the starting page or article. */
  copyFrom: contentPath.optional(),
});
const deleteQuery = z.object({ path: contentPath, revision: revisionInQuery.optional(), diskVersion: z.string().optional() });

export const fileRoutes: StudioRoutes<FileRoutesOptions> = async (app, { workspace, publisher, editing, root, rights, scheduler }) => {
  // Every schema by name, the block schemas from their folders included.
  app.get('/schemas', { config: { right: 'studio:edit' } }, async () => readSchemaModel(root).files);

  app.get('/entries', { config: { right: 'studio:edit' } }, async () => {
    const carried = scheduler?.carrying() ?? new Map();
    return {
      entries: workspace.listEntries().map((entry) => (carried.has(entry.path) ? { ...entry, scheduled: true } : entry)),
      canUndo: publisher.canUndo(),
      history: publisher.history(10),
    };
  });

  app.get('/file', { config: { right: 'studio:edit' }, schema: { querystring: openQuery } }, async (request) => {
    const opened = workspace.open(request.query.path);
    return editing.describeOpened(opened, editing.issuesFor(opened.file));
  });

  app.put('/file', { config: { right: 'studio:edit' }, schema: { body: saveBody } }, async (request) => {
    const { body } = request;
    const opened = workspace.open(body.path);
    const text = editing.nextText(opened, body.data);
    const draft = workspace.saveDraft(opened.file.path, text, seenOf(body), editorOf(request));
    // `edited` is false when the change went back to the live text (the draft was dropped).
    return { revision: draft.revision, edited: draft.revision > 0, issues: editing.issuesFor(opened.file) };
  });

  app.post('/file', { config: { right: 'studio:edit' }, schema: { body: createBody } }, async (request) => {
    const { kind, copyFrom } = request.body;
    const name = request.body.name.trim();
    if (!PAGE_NAME_PATTERN.test(name))
      throw new WorkspaceError('Use lowercase letters, digits and dashes for the name, such as "spring-offer".');
    const target = collectionPath(kind, name);
    const text = kind === 'article' ? editing.newArticleText(name, copyFrom) : editing.newPageText(name, copyFrom);
    // A copy of a draft holds its authors' unpublished changes: it carries their names, so a review
    // still sees them and an admin's own publish cannot take them live unseen.
    const source = copyFrom ? workspace.open(copyFrom).draft : undefined;
    const draft = workspace.createDraft(target, text, editorOf(request), source ? authorsOf(source) : []);
    return { path: draft.path, revision: draft.revision };
  });

  app.delete('/file', { config: { right: 'studio:edit' }, schema: { querystring: deleteQuery } }, async (request, reply) => {
    const { query } = request;
    const opened = workspace.open(query.path);
    if (kindDefinition(opened.file.kind).shape === 'singleton')
      throw new WorkspaceError('The site settings and the ROI numbers cannot be deleted.');
    if (!opened.disk) {
      // A page that exists only as a draft is dropped as a discard is: only as the person saw it,
      // and under review only by the people whose changes it holds or an admin.
      if (opened.draft) {
        const refused = discardRefusal(opened.draft, query.revision, request, rights, workspace.spokenName(opened.file));
        if (refused) return reply.code(403).send({ message: refused });
      }
      workspace.discardDraft(opened.file.path, editorOf(request));
      return { deleted: true };
    }
    workspace.saveDraft(opened.file.path, null, seenOf(query), editorOf(request));
    return { deleted: true };
  });
};
