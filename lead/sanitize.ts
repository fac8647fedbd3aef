// Text sanitiser for lead fields. Text is stored and forwarded exactly as typed ("Our data: 2 TB",
// "O'Brien & Co.", "5 < 6 > 4"); only constructs that can run code when a CRM or mail client shows
// the text as HTML are removed:
//   - script elements, content included (`<script>…</script>`), and lone script tags;
//   - `javascript:` and `vbscript:` URL schemes, and `data:` where a data URL follows (`data:text/html,…`);
//   - inline event-handler attributes (`onclick=`) inside a tag; `onboarding=2 weeks` in prose stays;
//   - whole tags that load or run something of their own (iframe, object, embed, form, meta, base, …),
//     and tags that hide a scheme or a handler behind character references (`jav&#x61;script:`),
//     which a browser decodes inside attributes.
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

// Elements that load a document, a plug-in or a form of their own, or change where links go: a lead
// field never needs them, and `<iframe srcdoc="&lt;script&gt;…">` runs code without any scheme.
const EMBEDDING_ELEMENTS = new Set(['iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'form', 'meta', 'base', 'link']);
const TAG_NAME = /^<([a-z][a-z0-9-]*)/i;

// Character references a browser decodes in an attribute: numeric (`&#106;`, `&#x6A`, leading zeros,
// `;` optional) and the named ones that can hide a scheme's letters or its colon.
const NUMERIC_REFERENCE = /&#(?:x([0-9a-f]{1,8})|([0-9]{1,10}));?/gi;
const NAMED_REFERENCE = /&(tab|newline|colon);?/gi;
const NAMED_CHARACTERS: Record<string, string> = { tab: '\t', newline: '\n', colon: ':' };

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
  return withoutSchemes.replace(TAG, (tag) => (isDangerousTag(tag) ? '' : tag.replace(INLINE_HANDLER, '')));
}

/** A tag that embeds something, or whose attributes, once a browser decodes them, hold a scheme or a handler. */
function isDangerousTag(tag: string): boolean {
  if (EMBEDDING_ELEMENTS.has(TAG_NAME.exec(tag)?.[1]?.toLowerCase() ?? '')) return true;
  if (!tag.includes('&')) return false;
  const decoded = decodeReferences(tag);
  return matches(SCRIPT_SCHEME, decoded) || matches(DATA_URL_SCHEME, decoded) || matches(INLINE_HANDLER, decoded);
}

function decodeReferences(text: string): string {
  return text
    .replace(NUMERIC_REFERENCE, (_reference, hex: string | undefined, decimal: string | undefined) => {
      const code = hex !== undefined ? Number.parseInt(hex, 16) : Number(decimal);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    })
    .replace(NAMED_REFERENCE, (_reference, name: string) => NAMED_CHARACTERS[name.toLowerCase()] ?? '');
}

/** Whether a global pattern matches `text`, without leaving its position behind for the next use. */
function matches(pattern: RegExp, text: string): boolean {
  pattern.lastIndex = 0;
  const found = pattern.test(text);
  pattern.lastIndex = 0;
  return found;
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
