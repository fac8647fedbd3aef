// The costliest texts we know how to build for the sanitiser: each targets a way a text cleaner can
// take more than linear time (a pattern re-scanning the rest of the text, removal that reassembles,
// trimming by regex). Tests send them at the relay's body limit and bound the time of each answer.

/** `core` wrapped `depth` times in `before` … `after`: removing the core reassembles a new one each time. */
export function nest(core: string, before: string, after: string, depth: number): string {
  let text = core;
  for (let layer = 0; layer < depth; layer += 1) text = before + text + after;
  return text;
}

function fill(unit: string, length: number): string {
  return unit.repeat(Math.max(1, Math.floor(length / unit.length)));
}

function nestTo(core: string, before: string, after: string, length: number): string {
  return nest(core, before, after, Math.max(1, Math.floor((length - core.length) / (before.length + after.length))));
}

/** Named hostile texts of about `length` characters each (never more), all ASCII. */
export function hostileTexts(length: number): ReadonlyArray<readonly [name: string, text: string]> {
  const half = Math.floor(length / 2);
  return [
    ['script tags that never close', fill('<script', length)],
    ['script tags closed once at the end', `${fill('<script', length - 1)}>`],
    ['script openers without a closing tag', fill('<script>', length)],
    ['closing script tags only', fill('</script', length)],
    ['script blocks nested in their own name', nestTo('<script></script>', '<scr', 'ipt>x</script>', length)],
    ['scheme nested in its own name', nestTo('javascript:', 'java', 'script:', length)],
    ['unclosed script tags, then nested schemes', fill('<script', half) + nestTo('javascript:', 'java', 'script:', length - half)],
    ['schemes split by line breaks', fill('j\na\nv\na\ns\nc\nr\ni\np\nt\n', length)],
    ['data: before media types without a slash', fill(`data:${'a'.repeat(120)}`, length)],
    ['one open tag full of handler-like words', `<a${fill(' onx', length - 2)}`],
    ['handlers nested in their own name', `<img ${nestTo('onerror=', 'on', 'error=', length - 5)}`],
    ['white space with one letter in the middle', `${' '.repeat(half - 1)}x${' '.repeat(length - half)}`],
  ];
}
