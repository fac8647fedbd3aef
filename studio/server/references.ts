// What links to a page or an article: shown before it is deleted, and followed when its address changes.
import { parse } from 'yaml';
import { linkedAddress } from '../../content-model/links.ts';
import { issuePlace } from '../app/fields/issue-place.ts';
import { formModelOf } from './issue-words.ts';
import type { ContentFile, Workspace } from './workspace.ts';
import type { Reference } from '../api-types.ts';

export type { Reference };

/** Every content file (with drafts applied) holding a link to `file`'s address, and where in it. */
export function findReferences(workspace: Workspace, file: ContentFile): Reference[] {
  const target = workspace.listEntries().find((entry) => entry.path === file.path)?.address;
  if (!target || target.includes(':') || target === '*') return [];
  const references: Reference[] = [];
  for (const entry of workspace.listEntries()) {
    if (entry.path === file.path || entry.deleted || entry.kind === 'article' || entry.kind === 'roi') continue;
    const text = workspace.currentText(workspace.open(entry.path));
    if (text === null) continue;
    let data: unknown;
    try {
      data = parse(text);
    } catch {
      continue;
    }
    const where: string[] = [];
    const model = formModelOf(workspace.root);
    collectLinks(data, [], (href, segments) => {
      if (linkedAddress(href) !== target) return;
      // Named as the form names the place: "Navigation", "Block 3, Hero"; the page itself when the form cannot follow.
      const place = segments.length === 0 ? '' : issuePlace(model, entry.kind, data, { segments });
      where.push(place || 'the page');
    });
    // Named as the studio names it everywhere ("Home"), not by its search title.
    if (where.length > 0) references.push({ path: entry.path, title: entry.name, where: [...new Set(where)] });
  }
  return references;
}

/**
 * Walks the data and reports each `href` with where it sits, as far as a person needs it: the
 * top-level field (["navigation"]) or the block (["blocks", 2]).
 */
function collectLinks(
  value: unknown,
  segments: readonly (string | number)[],
  found: (href: string, segments: readonly (string | number)[]) => void,
): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) =>
      collectLinks(item, segments.length === 1 && segments[0] === 'blocks' ? [...segments, index] : segments, found),
    );
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  for (const [key, item] of Object.entries(value)) {
    if (key === 'href' && typeof item === 'string') found(item, segments);
    else collectLinks(item, segments.length === 0 ? [key] : segments, found);
  }
}
