// What differs between the kinds of content file once one is open: which part of the form model
// is its form, where the build's messages point (an article's fields sit under its front matter),
// and what the preview draws for it.
import type { ContentIssue } from '../../../content-model/content-issue.ts';
import type { OpenedFile } from '../api.ts';
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
