// Text sanitiser for lead fields. ARCHITECTURE.md 'deliberate improvements': text is stored and
// forwarded as typed, so this strips dangerous patterns but never HTML-escapes (`O'Brien & Co.`
// stays exactly that); escaping happens where text is rendered.

// Spec §5 'Text sanitiser': whole <script>…</script> blocks go, content included.
const SCRIPT_BLOCK_PATTERN = /<script\b[^>]*>[\s\S]*?<\/script\s*>/gi;
// A lone opening or closing script tag left behind by a half-typed block.
const SCRIPT_TAG_PATTERN = /<\/?script\b[^>]*>/gi;
// Spec §5: javascript:, data: and vbscript: URL schemes; only `data:` is word-bounded so `metadata:` survives.
const DANGEROUS_URL_SCHEME_PATTERN = /(?:javascript|vbscript|\bdata)\s*:/gi;
// Spec §5: inline event-handler attributes such as `onclick=` or `onerror =`.
const INLINE_EVENT_HANDLER_PATTERN = /\bon[a-z]+\s*=/gi;

const DANGEROUS_PATTERNS = [
  SCRIPT_BLOCK_PATTERN,
  SCRIPT_TAG_PATTERN,
  DANGEROUS_URL_SCHEME_PATTERN,
  INLINE_EVENT_HANDLER_PATTERN,
] as const;

function stripDangerousPatternsOnce(text: string): string {
  return DANGEROUS_PATTERNS.reduce((result, pattern) => result.replace(pattern, ''), text);
}

/** Trims and strips dangerous patterns, repeating until stable so `javajavascript:script:` cannot reassemble. */
export function sanitizeText(text: string): string {
  let previous: string;
  let current = text;
  do {
    previous = current;
    current = stripDangerousPatternsOnce(previous);
  } while (current !== previous);
  return current.trim();
}

/** Sanitises every string value of a flat object; other values pass through unchanged. */
export function sanitizeFields<T extends Record<string, unknown>>(fields: T): T {
  const sanitized: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    sanitized[key] = typeof value === 'string' ? sanitizeText(value) : value;
  }
  return sanitized as T;
}
