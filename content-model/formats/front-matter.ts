// An article is Markdown with front matter: its details as YAML between two "---" lines, then its
// text. Every reader and writer of articles splits them here, so they agree on where each part ends.

export type FrontMatterParts = {
  /** The first "---" line, with its line break. */
  opening: string;
  /** The YAML between the two lines (with its last line break; empty when there is none). */
  yaml: string;
  /** The second "---" line, with its line break when it has one. */
  closing: string;
  /** The blank line between the front matter and the text, when there is one. */
  separator: string;
  /** The article's text. */
  body: string;
};

const FRONT_MATTER = /^---\r?\n([\s\S]*?\r?\n)?---\r?\n?/;

/** The parts of an article's file; undefined when it does not start with front matter. */
export function splitFrontMatter(text: string): FrontMatterParts | undefined {
  const match = FRONT_MATTER.exec(text);
  if (!match) return undefined;
  const yaml = match[1] ?? '';
  const opening = match[0].slice(0, match[0].indexOf('\n') + 1);
  const closing = match[0].slice(opening.length + yaml.length);
  const rest = text.slice(match[0].length);
  const separator = /^\r?\n/.exec(rest)?.[0] ?? '';
  return { opening, yaml, closing, separator, body: rest.slice(separator.length) };
}

/** The file's text from its parts: `joinFrontMatter(splitFrontMatter(text))` is `text`. */
export function joinFrontMatter(parts: FrontMatterParts): string {
  return parts.opening + parts.yaml + parts.closing + parts.separator + parts.body;
}

/** A new article's file: its details, a blank line, its text. */
export function writeFrontMatter(yaml: string, body: string): string {
  return `---\n${yaml}${yaml.endsWith('\n') || yaml === '' ? '' : '\n'}---\n\n${body}`;
}
