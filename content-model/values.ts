// Telling apart the values content data is made of (it comes from YAML, JSON or a form).

/** An object with named properties: not null, not a list. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
