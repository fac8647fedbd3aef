// Time zones are IANA names (America/New_York), checked against the zones this runtime knows, so a
// name that would make every clock fail is refused where it is typed: in site settings, in a
// person's working hours.

const known = new Map<string, boolean>();

/** True when `zone` is an IANA time zone name this runtime can compute local time in. */
export function isValidTimeZone(zone: string): boolean {
  const cached = known.get(zone);
  if (cached !== undefined) return cached;
  // Intl also accepts offsets such as "+05:00"; a zone name keeps its daylight-saving rules, an offset does not.
  let valid = /^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(zone);
  if (valid) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
    } catch {
      valid = false;
    }
  }
  if (known.size < 1000) known.set(zone, valid);
  return valid;
}
