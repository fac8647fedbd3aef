// A content file's text as the data the form and the change list read: an article's front matter and
// body, anything else its YAML. The change lists compare two of these; a text that cannot be read is
// null there, and its change is shown by its lines only.
import { parse } from 'yaml';
import { readMarkdownFile } from '../../content-model/formats/yaml-edit.ts';
import type { ContentKind } from '../../content-model/kinds.ts';

/** The data of `text` as the form reads it; throws (the YAML library's error) when it cannot be read. */
export function readFileData(kind: ContentKind, text: string): unknown {
  return kind === 'article' ? readMarkdownFile(text) : (parse(text) as unknown);
}

/** The data of `text` (null: no text, or one that cannot be read). */
export function fileData(kind: ContentKind, text: string | null | undefined): unknown {
  if (text === null || text === undefined) return null;
  try {
    return readFileData(kind, text) ?? null;
  } catch {
    return null;
  }
}
