// Text both lead stores keep exactly as it came. Two things in a JavaScript string cannot be kept:
//   - U+0000 (NUL): PostgreSQL's text and jsonb cannot hold it, while SQLite can, so one engine would
//     refuse a lead the other keeps;
//   - a lone UTF-16 surrogate (half of an emoji, say): it is no character at all, UTF-8 cannot carry it,
//     and each database driver turns it into something else.
// Fields a visitor types refuse such text with a message (validation.ts); everything else the relay
// keeps (the page address, the browser's name, attribution, spam) is made storable with
// `toStorableText`. Both run in one pass over the text.

const NUL = 0;
const REPLACEMENT_CHARACTER = '\uFFFD';

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Whether every character of `text` can be stored by both engines (no NUL, no lone surrogate). */
export function isStorableText(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === NUL) return false;
    if (isHighSurrogate(code)) {
      if (!isLowSurrogate(text.charCodeAt(index + 1))) return false;
      index += 1;
    } else if (isLowSurrogate(code)) return false;
  }
  return true;
}

/** `text` without NUL, each lone surrogate replaced by U+FFFD (what a UTF-8 encoder writes for it). */
export function toStorableText(text: string): string {
  if (isStorableText(text)) return text;
  let kept = '';
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === NUL) continue;
    if (isHighSurrogate(code) && isLowSurrogate(text.charCodeAt(index + 1))) {
      kept += text.slice(index, index + 2);
      index += 1;
    } else if (isHighSurrogate(code) || isLowSurrogate(code)) kept += REPLACEMENT_CHARACTER;
    else kept += text[index];
  }
  return kept;
}

/** The first `maxLength` UTF-16 units of `text`, one fewer when the cut would split an emoji's pair. */
export function cutText(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  const end = isHighSurrogate(text.charCodeAt(maxLength - 1)) && isLowSurrogate(text.charCodeAt(maxLength)) ? maxLength - 1 : maxLength;
  return text.slice(0, end);
}
