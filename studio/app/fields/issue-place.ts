// Where a content mistake or suggestion is, in the form's own words: the one function the studio
// names an issue's place with. The server runs it on every issue it sends (the form model is built
// from the same schemas it reads), so the list above the form, the publish screen and a refused
// publish all say "Block 6, Text section › Picture › Description" and never the file's keys.
import type { ContentIssue } from '../../../content-model/content-issue.ts';
import type { ContentKind } from '../../../content-model/kinds.ts';
import { fieldTrail, mistakePlace } from './field-trail.ts';
import type { Field, FormModel } from './form-model.ts';

/** What the form calls an article's text, below its details. */
export const ARTICLE_TEXT_PLACE = 'Article text';

/**
 * The place of `issue` in a file of `kind` whose data is `data` (an article's front matter for an
 * article): empty when the issue is about the whole file.
 */
export function issuePlace(model: FormModel, kind: ContentKind, data: unknown, issue: Pick<ContentIssue, 'segments' | 'part'>): string {
  if (issue.part === 'body') return ARTICLE_TEXT_PLACE;
  if (!issue.segments || issue.segments.length === 0) return '';
  const root: Field = { site: model.site, roi: model.roi, page: model.page, article: model.article }[kind];
  return mistakePlace(fieldTrail(model, root, data, issue.segments));
}

/** An issue as a person reads it: "place: message", or the message alone for the whole file. */
export function issueText(issue: Pick<ContentIssue, 'place' | 'message'>): string {
  return issue.place ? `${issue.place}: ${lowerFirst(issue.message)}` : issue.message;
}

/** "A heading is needed" after a place reads "Hero › Heading: a heading is needed"; a word in capitals keeps them. */
function lowerFirst(message: string): string {
  return /^[A-Z](?![A-Z])/.test(message) && !/^I\b/.test(message) ? message.charAt(0).toLowerCase() + message.slice(1) : message;
}
