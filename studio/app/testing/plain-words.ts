// What a text the studio shows must not hold: the words of the files behind it. The people who use
// the studio never open those files, so a file path, a YAML construct, a list index or a property
// name in a label, a help text or a message is a sentence they cannot act on. Tests run every text
// the studio can show through `jargonIn`.

/** Property names that are code, not words, wherever they appear (the schema's keys that read as English, such as "heading", are fine). */
const CODE_WORDS = ['src', 'alt', 'href', 'noindex', 'slug', 'frontmatter', 'ctaHref', 'ctaLabel', 'fullPageLoad', 'roiSent'];

const PATTERNS: readonly { what: string; pattern: RegExp }[] = [
  { what: 'a file path', pattern: /\b(?:content|schema|public|blocks|studio|server|src)\/[\w./<>:*-]*/ },
  { what: 'a file name', pattern: /\b[\w-]+\.(?:ya?ml|json|tsx?|md)\b/i },
  { what: 'a picture file name', pattern: /\b[\w-]+\.(?:svg|png|jpe?g|webp|avif)\b/i },
  { what: 'a Markdown word', pattern: /\bfront ?matter\b/i },
  { what: 'a YAML word', pattern: /\bYAML\b|(?:^|\s)>-(?:\s|$)|(?:^|\n)\s*- \w+:/i },
  { what: 'a property written as in the file', pattern: /\b\w+: (?:true|false|null)\b|\btype:|\bdraft: true/ },
  { what: 'a list index', pattern: /\w\[\d*\]/ },
  { what: 'an address pattern', pattern: /\/:\w+|<slug>|"\*"/ },
  { what: 'a code name', pattern: /\b[a-z]+[A-Z]\w*\b/ },
  { what: 'a snake_case name', pattern: /\b[a-z]+_[a-z_]+\b/ },
  { what: 'a git word', pattern: /\borigin\/\w+|\bcommitted\b|\bpushed to\b|\bHEAD\b/i },
];

/** The jargon found in `text`, each as what it is and the words that gave it away; empty when the text is plain. */
export function jargonIn(text: string, extraCodeWords: readonly string[] = []): { what: string; found: string }[] {
  const found: { what: string; found: string }[] = [];
  for (const { what, pattern } of PATTERNS) {
    const match = pattern.exec(text);
    if (match) found.push({ what, found: match[0] });
  }
  for (const word of [...CODE_WORDS, ...extraCodeWords]) {
    if (new RegExp(`(?<![\\w-])${word}(?![\\w-])`).test(text)) found.push({ what: 'a property name', found: word });
  }
  return found;
}
