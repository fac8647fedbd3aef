// /api/references and /api/rename: what links to a page (shown before it is deleted), and changing
// a page's address, after which every link to the old address (navigation, footer, other pages)
// follows it, each as a draft of its file. The new address must pass the same rule as the content
// check (no address an article, the server or the build uses) and be no other page's.
import { z } from 'zod';
import { pageAddressProblem } from '../../../content-model/addresses.ts';
import { addressFieldOf } from '../../../content-model/kinds.ts';
import { replaceLinks } from '../../../content-model/links.ts';
import { isRecord } from '../../../content-model/values.ts';
import type { ContentEditing } from '../editing.ts';
import { editorOf } from '../plugins/sessions.ts';
import type { StudioRoutes } from '../plugins/request-checks.ts';
import { findReferences } from '../references.ts';
import { contentPath, diskVersion, revision, seenOf } from '../request-shapes.ts';
import { WorkspaceError, type Workspace } from '../workspace.ts';

export type ReferenceRoutesOptions = { workspace: Workspace; editing: ContentEditing };

const ADDRESS_PATTERN = /^\/[a-z0-9-]+(\/[a-z0-9-]+)*$/;

const referencesQuery = z.object({ path: contentPath });
const renameBody = z.object({
  path: contentPath,
  address: z.string(),
  revision: revision.optional(),
  diskVersion: diskVersion.optional(),
});

export const referenceRoutes: StudioRoutes<ReferenceRoutesOptions> = async (app, { workspace, editing }) => {
  app.get('/references', { config: { right: 'studio:edit' }, schema: { querystring: referencesQuery } }, async (request) => {
    const file = workspace.contentFile(request.query.path);
    return { references: findReferences(workspace, file) };
  });

  app.post('/rename', { config: { right: 'studio:edit' }, schema: { body: renameBody } }, async (request) => {
    const { body } = request;
    const opened = workspace.open(body.path);
    // A kind whose address follows from the file's name (an article) has none to change.
    const addressField = addressFieldOf(opened.file.kind);
    if (addressField === undefined) throw new WorkspaceError('Only pages have an address to change.');
    const address = body.address.trim();
    if (!ADDRESS_PATTERN.test(address))
      throw new WorkspaceError('An address starts with "/" and has lowercase letters, digits and dashes, such as "/spring-offer".');
    const current = editing.parseData(opened);
    const oldAddress = isRecord(current) && typeof current[addressField] === 'string' ? current[addressField] : undefined;
    if (!isRecord(current) || !oldAddress) throw new WorkspaceError('This page has no address yet.');
    // The same rule as the content check: not an address an article, the server or the build uses.
    const articleSlugs = new Set(
      workspace.listEntries().flatMap((entry) => (entry.kind === 'article' ? [workspace.contentFile(entry.path).name] : [])),
    );
    const problem = pageAddressProblem(address, { articleSlugs });
    if (problem) throw new WorkspaceError(problem);
    if (workspace.listEntries().some((entry) => entry.address === address && entry.path !== opened.file.path)) {
      throw new WorkspaceError(`Another page already has the address "${address}".`, 409, 'exists');
    }
    // Found before the address changes: what links to the old address. Every new text is worked
    // out, and the draft limit checked, before anything is written: a rename is whole or not at all.
    const references = findReferences(workspace, opened.file).filter((reference) => reference.path !== opened.file.path);
    const followers = references.map((reference) => {
      const other = workspace.open(reference.path);
      return {
        other,
        title: reference.title,
        text: editing.nextText(other, replaceLinks(editing.parseData(other), oldAddress, address)),
      };
    });
    const pageText = editing.nextText(opened, { ...current, [addressField]: address });
    workspace.refuseUnlessRoomForDrafts([opened.file.path, ...followers.map(({ other }) => other.file.path)]);
    workspace.saveDraft(opened.file.path, pageText, seenOf(body), editorOf(request));
    // Links to the old address follow it, in the navigation, the footer and every page.
    const updated: string[] = [];
    for (const { other, title, text } of followers) {
      workspace.saveDraft(
        other.file.path,
        text,
        { revision: other.draft?.revision ?? 0, diskVersion: other.disk?.version ?? null },
        editorOf(request),
      );
      updated.push(title);
    }
    return { address, updated };
  });
};
