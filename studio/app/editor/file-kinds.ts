// What differs between the kinds of content file once one is open: which part of the form model
// is its form, where the build's messages point (an article's fields sit under its front matter),
// and what the preview draws for it.
import { ARTICLE_PATH, NOT_FOUND_PATH } from '../../../content-model/addresses.ts';
import type { ContentIssue } from '../../../content-model/content-issue.ts';
import { addressFieldOf } from '../../../content-model/kinds.ts';
import type { Entry, OpenedFile } from '../api.ts';
import type { DataPath, LinkTarget } from '../editor-context.tsx';
import type { Field, FormModel } from '../fields/form-model.ts';
import type { PreviewTarget } from '../PreviewPane.tsx';

export function rootField(model: FormModel, kind: OpenedFile['kind']): Field {
  return { site: model.site, roi: model.roi, page: model.page, article: model.article }[kind];
}

/** An issue's path in the form's terms: an article's fields are inside `frontMatter`. */
export function articleSegments(file: OpenedFile | null, issue: ContentIssue): ContentIssue['segments'] {
  if (file?.kind === 'article' && issue.part === 'body') return ['body'];
  if (file?.kind !== 'article' || !issue.segments) return issue.segments;
  return ['frontMatter', ...issue.segments];
}

/** What the preview draws for the file with this data: nothing for a deleted file or the ROI numbers. */
export function previewTarget(file: Pick<OpenedFile, 'kind' | 'name' | 'deleted'>, data: unknown): PreviewTarget | null {
  if (data === null || file.deleted) return null;
  if (file.kind === 'page') return { kind: 'page', page: data };
  if (file.kind === 'article')
    return { kind: 'article', slug: file.name, article: data as { frontMatter: Record<string, unknown>; body: string } };
  if (file.kind === 'site') return { kind: 'site', site: data };
  return null;
}

/**
 * Addresses the site itself gives a meaning to, with why they stay as they are: the home page is
 * what people reach by the site's name, and the article and "not found" pages answer many addresses.
 */
const FIXED_ADDRESSES: Readonly<Record<string, string>> = {
  '/': 'This is the home page: its address is always "/", where people land when they type the site\'s name, so it cannot be changed.',
  [ARTICLE_PATH]: "This page shows each article at the article's own address, so it has no address of its own to change.",
  [NOT_FOUND_PATH]: 'This page is shown for any address the site does not have, so it has no address of its own to change.',
};

/**
 * Why the value at `at` is shown but cannot be changed; undefined when it can be. Read from the file
 * as it was opened, so typing "/" into another page's address never locks it.
 */
export function fixedReason(file: Pick<OpenedFile, 'kind' | 'data'>, at: DataPath): string | undefined {
  const field = addressFieldOf(file.kind);
  if (field === undefined || at.length !== 1 || at[0] !== field) return undefined;
  const address = (file.data as Record<string, unknown> | null)?.[field];
  return typeof address === 'string' ? FIXED_ADDRESSES[address] : undefined;
}

/** Whether this file's address is one the site gives a meaning to (the home page's), so it is never changed. */
export function hasFixedAddress(file: Pick<OpenedFile, 'kind' | 'data'>): boolean {
  const field = addressFieldOf(file.kind);
  return field !== undefined && fixedReason(file, [field]) !== undefined;
}

/** What a link can point at: the pages with an address of their own, then the articles, by the names the studio gives them. */
export function linkTargetsOf(entries: readonly Entry[]): LinkTarget[] {
  const targets = entries.flatMap((entry): LinkTarget[] => {
    if (entry.deleted || entry.address === undefined || (FIXED_ADDRESSES[entry.address] !== undefined && entry.address !== '/')) return [];
    if (entry.kind !== 'page' && entry.kind !== 'article') return [];
    return [{ address: entry.address, name: entry.name, kind: entry.kind }];
  });
  return [...targets.filter((t) => t.kind === 'page'), ...targets.filter((t) => t.kind === 'article')];
}
