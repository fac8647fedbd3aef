// What links to a page or an article: shown before it is deleted, and followed when its address changes.
import { parse } from 'yaml';
import { linkedAddress } from '../../content-model/links.ts';
import { isRecord } from '../../content-model/values.ts';
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
    collectLinks(data, [], (href, trail) => {
      if (linkedAddress(href) === target) where.push(trail);
    });
    // Named as the studio names it everywhere ("Home"), not by its search title.
    if (where.length > 0) references.push({ path: entry.path, title: entry.name, where: [...new Set(where)] });
  }
  return references;
}

/** Walks the data and reports each `href` with a readable trail ("navigation", "footer", "block 3 (hero)"). */
function collectLinks(value: unknown, trail: string[], found: (href: string, trail: string) => void): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      const type = isRecord(item) && typeof item.type === 'string' ? ` (${item.type})` : '';
      collectLinks(item, trail.at(-1) === 'blocks' ? [...trail.slice(0, -1), `block ${index + 1}${type}`] : trail, found);
    });
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  for (const [key, item] of Object.entries(value)) {
    if (key === 'href' && typeof item === 'string') found(item, describeTrail(trail));
    else collectLinks(item, trail.length < 1 || key === 'blocks' ? [...trail, key] : trail, found);
  }
}

function describeTrail(trail: readonly string[]): string {
  const [first] = trail;
  if (!first) return 'the page';
  return first;
}
