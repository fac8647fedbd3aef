// Advice on content that is valid but reads badly for some visitors or for search engines: shown
// beside the field and listed as warnings, never stopping a build or a publish.
//   - a picture's description (alt text) that is a file name, or starts with "Image of" (a screen
//     reader already says it is an image);
//   - Markdown headings that skip a level (## then ####) or have no text;
//   - link text that says nothing on its own ("click here", "read more", a bare address), in
//     Markdown and on buttons;
//   - a page or article title, or a description, longer than a search result shows.
import { issueAt, type ContentIssue } from '../content-issue.ts';
import type { YamlSource } from '../formats/yaml-source.ts';
import { isRecord } from '../values.ts';

/** Search results cut a title after about this many characters, and a description after this many. */
export const SEARCH_TITLE_CHARACTERS = 60;
export const SEARCH_DESCRIPTION_CHARACTERS = 160;

/** Link text that means nothing out of its sentence (a screen reader lists links by their text alone). */
const EMPTY_LINK_TEXTS = new Set([
  'click here',
  'here',
  'click',
  'read more',
  'more',
  'learn more',
  'more info',
  'more information',
  'details',
  'link',
  'this link',
  'this',
  'go',
  'continue',
]);

const FILE_NAME_ALT = /^[\w .()-]+\.(?:png|jpe?g|webp|gif|svg|avif|bmp|tiff?)$|^(?:img|dsc|dscn|image|photo|pic|screenshot)[ _-]?\d+$/i;
const REDUNDANT_ALT = /^(?:an? )?(?:image|picture|photo|photograph|graphic|pic) of\b/i;

export type WarningInput = {
  site: YamlSource;
  /** Title pattern of search results (`%s | Company`): a title with `|` is shown as it is. */
  titleTemplate: string;
  pages: readonly { source: YamlSource }[];
  /** Articles: their front matter, and their Markdown with the line it starts on in the file. */
  posts: readonly { source: YamlSource; body: string; bodyLine: number }[];
};

export function contentWarnings({ site, titleTemplate, pages, posts }: WarningInput): ContentIssue[] {
  const warnings: ContentIssue[] = [];
  const warnAt = (source: YamlSource, segments: readonly (string | number)[], message: string) => {
    const { line, column } = source.positionOf(segments);
    warnings.push(issueAt({ file: source.file, line, column, data: source.data }, segments, message, { severity: 'warning' }));
  };
  const searchTitle = (title: string) => (title.includes('|') ? title : titleTemplate.replace('%s', title));

  for (const source of [site, ...pages.map((page) => page.source)]) {
    walkStrings(source.data, [], (value, segments, parent) => {
      const key = segments[segments.length - 1];
      if (key === 'alt' && isRecord(parent) && typeof parent.src === 'string') {
        const problem = altProblem(value);
        if (problem) warnAt(source, segments, problem);
      }
      if (key === 'label' && isRecord(parent) && typeof parent.href === 'string') {
        const problem = linkTextProblem(value);
        if (problem) warnAt(source, segments, problem);
      }
      // Markdown in a page: links and headings in any text that has them.
      for (const problem of markdownProblems(value, { firstLevel: undefined })) warnAt(source, segments, problem.message);
    });
  }
  /** Warns about the text at `key` of `source`'s data, when it is a text and `problemOf` finds something. */
  const checkText = (source: YamlSource, key: string, problemOf: (text: string) => string | undefined) => {
    const value = isRecord(source.data) ? source.data[key] : undefined;
    const problem = typeof value === 'string' ? problemOf(value) : undefined;
    if (problem) warnAt(source, [key], problem);
  };
  const titleProblem = (title: string) => lengthProblem('title', searchTitle(title), SEARCH_TITLE_CHARACTERS);
  for (const { source } of pages) {
    const data = source.data;
    if (!isRecord(data) || typeof data.path !== 'string' || data.path.includes(':')) continue;
    checkText(source, 'title', titleProblem);
    checkText(source, 'description', (text) => lengthProblem('description', text, SEARCH_DESCRIPTION_CHARACTERS));
  }
  for (const { source, body, bodyLine } of posts) {
    checkText(source, 'imageAlt', altProblem);
    checkText(source, 'title', titleProblem);
    checkText(source, 'excerpt', (text) => lengthProblem('excerpt', text, SEARCH_DESCRIPTION_CHARACTERS));
    // The article's title is its level-1 heading: its text starts at ##.
    for (const problem of markdownProblems(body, { firstLevel: 1 })) {
      warnings.push({
        file: source.file,
        line: bodyLine + problem.line,
        column: 1,
        where: 'article text',
        message: problem.message,
        severity: 'warning',
        part: 'body',
      });
    }
  }
  return warnings;
}

/** What is wrong with a picture's description, if anything. */
export function altProblem(alt: string): string | undefined {
  const text = alt.trim();
  if (FILE_NAME_ALT.test(text))
    return `This picture's description is a file name ("${text}"): say what the picture shows, for people who cannot see it.`;
  if (REDUNDANT_ALT.test(text))
    return `Start this picture's description with what it shows: screen readers already say it is a picture, so "${text.split(' of ')[0]} of" is heard twice.`;
  return undefined;
}

/** What is wrong with a link's text, if anything. */
export function linkTextProblem(text: string): string | undefined {
  const plain = text
    .replace(/[*_`]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[.!:…→»>\s]+$/u, '');
  if (plain === '') return 'This link has no text: say where it goes, so it can be found and understood on its own.';
  if (EMPTY_LINK_TEXTS.has(plain))
    return `The link text "${text.trim()}" says nothing on its own (screen readers list links by their text alone): say where it goes, such as "Read the pricing guide".`;
  if (/^(?:https?:\/\/|www\.)\S+$/i.test(plain))
    return `The link text is a bare address ("${text.trim()}"): say where it goes in words, such as "our pricing page".`;
  return undefined;
}

function lengthProblem(what: string, text: string, limit: number): string | undefined {
  const length = [...text].length;
  if (length <= limit) return undefined;
  const shown = `${[...text]
    .slice(0, limit - 1)
    .join('')
    .trimEnd()}…`;
  return `This ${what} is ${length} characters as search results show it; they cut it after about ${limit}, so people see "${shown}". Shorten it.`;
}

type MarkdownProblem = { line: number; message: string };

/**
 * Headings that skip a level or have no text, and links whose text says nothing, in Markdown text.
 * `firstLevel`: the level of the heading the text sits under (an article's title is 1), if known.
 */
export function markdownProblems(text: string, { firstLevel }: { firstLevel: number | undefined }): MarkdownProblem[] {
  if (!text.includes('#') && !text.includes('](')) return [];
  const problems: MarkdownProblem[] = [];
  let previous = firstLevel;
  let fenced = false;
  text.split('\n').forEach((lineText, index) => {
    if (/^\s{0,3}(?:```|~~~)/.test(lineText)) fenced = !fenced;
    if (fenced) return;
    const heading = /^\s{0,3}(#{1,6})(?:\s+(.*?))?\s*#*\s*$/.exec(lineText);
    if (heading) {
      const level = heading[1]!.length;
      if (!heading[2]?.trim())
        problems.push({ line: index, message: `This heading (${heading[1]}) has no text: write one, or remove the line.` });
      else if (previous !== undefined && level > previous + 1) {
        problems.push({
          line: index,
          message: `The heading "${heading[2].trim()}" jumps from level ${previous} to level ${level}: use ${'#'.repeat(previous + 1)} so screen reader users, who move by headings, miss nothing.`,
        });
      }
      previous = level;
    }
    for (const link of lineText.matchAll(/(?<!!)\[([^\]]*)\]\(([^)\s]*)[^)]*\)/g)) {
      const problem = linkTextProblem(link[1]!);
      if (problem) problems.push({ line: index, message: problem });
    }
  });
  return problems;
}

/**
 * Deeper than any page the schemas allow (a block in a page is four levels down, a team member's
 * picture six): a deeper value, or a loop YAML anchors could make, is not walked further.
 */
const MAX_WALK_DEPTH = 32;

function walkStrings(
  value: unknown,
  segments: (string | number)[],
  visit: (value: string, segments: (string | number)[], parent: unknown) => void,
  parent?: unknown,
): void {
  if (segments.length > MAX_WALK_DEPTH) return;
  if (typeof value === 'string') visit(value, segments, parent);
  else if (Array.isArray(value)) value.forEach((item, index) => walkStrings(item, [...segments, index], visit, value));
  else if (isRecord(value)) for (const [key, item] of Object.entries(value)) walkStrings(item, [...segments, key], visit, value);
}
