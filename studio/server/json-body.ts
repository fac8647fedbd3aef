// The studio's JSON bodies are bounded in shape as well as in bytes before any route sees them: the
// work of turning data into YAML and checking it grows with nesting and with the number of values,
// so a small body nested thousands deep could otherwise hold the studio for many seconds.

/**
 * The largest JSON body. The biggest page is under 10 KB and the longest article under 100 KB as
 * JSON; this leaves ten times the room of an article.
 */
export const JSON_BODY_LIMIT = 1024 * 1024;

/** The deepest content file nests 7 levels (page, blocks, block, items, item, …): three times that. */
export const MAX_JSON_DEPTH = 24;

/** The largest content file holds about 200 values: twenty-five times that. */
export const MAX_JSON_VALUES = 5_000;

/**
 * The longest list. The longest list in any content file has 20 entries; matching a list's entries
 * with the file's, to edit it in place, grows faster than the list.
 */
export const MAX_LIST_ITEMS = 500;

/**
 * The longest text in one value. The longest article is under 100 lines and 7 KB; YAML's work on a
 * text grows with its lines, and a text of 20,000 short lines already takes it half a second.
 */
export const MAX_TEXT_LINES = 2_000;
export const MAX_TEXT_CHARACTERS = 200_000;

/**
 * The most properties one object may have. The widest object in any content file has about 20;
 * checking a YAML map for duplicate keys grows with the square of its keys, and a stored draft is
 * read again on most requests, so one map of thousands of keys would slow every later request.
 */
export const MAX_OBJECT_KEYS = 200;

/** The longest property name: the content's longest is under 30 characters. One line only. */
export const MAX_KEY_CHARACTERS = 100;

/**
 * Why `value` is too deep or too large to be content, or undefined when it is not. Walks without
 * recursion, so depth cannot exhaust the stack, and stops at the first limit passed.
 */
export function jsonShapeProblem(value: unknown): string | undefined {
  const stack: [unknown, number][] = [[value, 1]];
  let values = 0;
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    values += 1;
    if (values > MAX_JSON_VALUES)
      return `This change holds more than ${MAX_JSON_VALUES.toLocaleString('en-US')} values: no page is that large.`;
    if (typeof item === 'string') {
      if (item.length > MAX_TEXT_CHARACTERS || lineCount(item) > MAX_TEXT_LINES)
        return `One text in this change is longer than ${MAX_TEXT_LINES.toLocaleString('en-US')} lines or ${MAX_TEXT_CHARACTERS.toLocaleString('en-US')} characters: split it over several pages or articles.`;
      continue;
    }
    if (typeof item !== 'object' || item === null) continue;
    if (depth > MAX_JSON_DEPTH) return `This change is nested more than ${MAX_JSON_DEPTH} levels deep: no page is.`;
    if (Array.isArray(item)) {
      if (item.length > MAX_LIST_ITEMS) return `One list in this change has more than ${MAX_LIST_ITEMS} entries: no page has that many.`;
      for (const child of item) stack.push([child, depth + 1]);
      continue;
    }
    const keys = Object.keys(item);
    if (keys.length > MAX_OBJECT_KEYS)
      return `One group in this change has more than ${MAX_OBJECT_KEYS} properties: no page has that many.`;
    if (keys.some((key) => key.length > MAX_KEY_CHARACTERS || /[\r\n]/.test(key)))
      return `One property name in this change is longer than ${MAX_KEY_CHARACTERS} characters or spans lines: no page has such a name.`;
    for (const key of keys) stack.push([(item as Record<string, unknown>)[key], depth + 1]);
  }
  return undefined;
}

function lineCount(text: string): number {
  let lines = 1;
  for (let at = text.indexOf('\n'); at !== -1 && lines <= MAX_TEXT_LINES; at = text.indexOf('\n', at + 1)) lines += 1;
  return lines;
}
