// Text sanitiser for lead fields. Text is stored and forwarded exactly as typed ("Our data: 2 TB",
// "O'Brien & Co.", "5 < 6 > 4"); only constructs that can run code when a CRM or mail client shows
// the text as HTML are removed:
//   - script elements, content included (`<script>…</script>`), and lone script tags;
//   - `javascript:` and `vbscript:` URL schemes, and `data:` where a data URL follows (`data:text/html,…`);
//   - inline event-handler attributes (`onclick=`) inside a tag; `onboarding=2 weeks` in prose stays.
// Nothing is HTML-escaped: escaping belongs where text is rendered.
//
// Every step runs in time linear in the length of the text, whatever the text: the patterns below
// cannot backtrack beyond a bounded distance, and script elements are found by one forward scan.
// Removing a construct can join its neighbours into a new one (`javajavascript:script:`), so the
// steps repeat; text still changing after a few rounds is built to do that, and then loses every
// `<` and `:` it has left, after which no tag or URL scheme can form.

/** Rounds of removal before text that keeps reassembling itself is neutralised outright. */
const MAX_ROUNDS = 3;

// Browsers drop tabs and line breaks anywhere in a URL, so `java\tscript:` still runs.
const URL_IGNORED = '[\\t\\n\\r]*';

function schemePattern(scheme: string): string {
  return [...scheme].join(URL_IGNORED) + URL_IGNORED + ':';
}

// Dangerous anywhere, even glued to a word: prose has no use for these two schemes.
const SCRIPT_SCHEME = new RegExp(`${schemePattern('javascript')}|${schemePattern('vbscript')}`, 'gi');

// `data:` only where it starts a data URL (a media type such as `text/html`, or `,` / `;base64`) and is
// not the end of a longer word, so "Our data: 2 TB" and "metadata:" stay. RFC 6838 caps a media
// type name at 127 characters, which also bounds the look-ahead.
const DATA_URL_SCHEME = new RegExp(`(?<![a-z0-9+.-])${schemePattern('data')}(?=${URL_IGNORED}(?:[a-z0-9!#$&^_.+-]{1,127}/|[,;]))`, 'gi');

// An opening tag: `<` and a letter, up to its `>` (or the next `<`, or the end, for an unclosed one).
const TAG = /<[a-z][^<>]*>?/gi;
// An event-handler attribute inside a tag: `onclick=`, `onerror =`, after a space, slash or quote.
const INLINE_HANDLER = /(?<=[\s/"'])on[a-z]+\s*=/gi;

// `<script` or `</script`, as a whole tag name (`<scripture>` is not one).
const SCRIPT_TAG_START = /<(\/?)script(?![a-z0-9_-])/gi;

/** Trims and removes dangerous constructs; see the top of this file for exactly which. */
export function sanitizeText(text: string): string {
  let current = trimInvisible(text);
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const cleaned = removeDangerousConstructs(current);
    if (cleaned === current) return current;
    current = trimInvisible(cleaned);
  }
  if (removeDangerousConstructs(current) === current) return current;
  return trimInvisible(current.replace(/[<:]/g, ''));
}

function removeDangerousConstructs(text: string): string {
  const withoutScripts = removeScriptElements(text);
  const withoutSchemes = withoutScripts.replace(SCRIPT_SCHEME, '').replace(DATA_URL_SCHEME, '');
  return withoutSchemes.replace(TAG, (tag) => tag.replace(INLINE_HANDLER, ''));
}

/**
 * Removes `<script …>…</script>` with its content, and any script tag left without its partner.
 * One forward pass: the positions of script tags are listed once, and the next `>` and `<` are
 * looked up through a cache that only moves forward, so no character is scanned twice per pass.
 */
function removeScriptElements(text: string): string {
  const tags = [...text.matchAll(SCRIPT_TAG_START)].map((match) => ({
    start: match.index,
    nameEnd: match.index + match[0].length,
    closing: match[1] === '/',
  }));
  if (tags.length === 0) return text;

  const nextGreater = forwardFinder(text, '>');
  const nextLess = forwardFinder(text, '<');
  // A tag ends at its `>`; one that never closes (another `<` comes first) loses only its name.
  const tagEnd = (tag: (typeof tags)[number]): number => {
    const greater = nextGreater(tag.nameEnd);
    const less = nextLess(tag.nameEnd);
    return greater !== -1 && (less === -1 || greater < less) ? greater + 1 : tag.nameEnd;
  };

  let kept = '';
  let cursor = 0;
  let closingIndex = 0;
  for (let index = 0; index < tags.length; index += 1) {
    const tag = tags[index]!;
    if (tag.start < cursor) continue;
    let removeUntil = tagEnd(tag);
    if (!tag.closing) {
      closingIndex = Math.max(closingIndex, index + 1);
      while (closingIndex < tags.length && !(tags[closingIndex]!.closing && tags[closingIndex]!.start >= removeUntil)) {
        closingIndex += 1;
      }
      const closingTag = tags[closingIndex];
      if (closingTag !== undefined) {
        removeUntil = tagEnd(closingTag);
        index = closingIndex;
      }
    }
    kept += text.slice(cursor, tag.start);
    cursor = removeUntil;
  }
  return kept + text.slice(cursor);
}

/** `indexOf(character, from)` for calls whose `from` never decreases, in linear time over all calls. */
function forwardFinder(text: string, character: string): (from: number) => number {
  let found = -2;
  return (from) => {
    if (found === -1 || found >= from) return found;
    found = text.indexOf(character, from);
    return found;
  };
}

// Characters that take no space: a name made only of them is as empty as a blank one.
const INVISIBLE = new Set(['\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF', '\u00AD', '\u180E']);

function isBlank(character: string): boolean {
  return INVISIBLE.has(character) || character.trim() === '';
}

/** Trims white space and invisible characters from both ends (a loop: trimming regexes can backtrack). */
export function trimInvisible(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isBlank(text[start]!)) start += 1;
  while (end > start && isBlank(text[end - 1]!)) end -= 1;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}
