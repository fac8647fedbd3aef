// The CRM's pace shared by every process on one database: a rolling window of grants, kept as one
// row (crm_pace) that each store reads and rewrites inside a transaction holding its lock. Each entry
// is one grant, [when, how many]; an entry leaves the window CRM_PACE_WINDOW_MS after it was made.
// At most one entry per granted call is kept, and only for one window, so the row stays small.

export const CRM_PACE_WINDOW_MS = 10_000;

export type PaceGrant = readonly [at: number, count: number];
export type PaceLog = readonly PaceGrant[];

/** Reads the stored log; anything unreadable counts as an empty window (the next grant rewrites it). */
export function parsePaceLog(text: string | null | undefined): PaceLog {
  if (typeof text !== 'string') return [];
  try {
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (entry): entry is PaceGrant =>
        Array.isArray(entry) && entry.length === 2 && Number.isFinite(entry[0]) && Number.isInteger(entry[1]) && entry[1] > 0,
    );
  } catch {
    return [];
  }
}

/**
 * Grants up to `wanted` slots at `now` so that the grants inside any window stay within `maxPerWindow`.
 * An entry from a clock that is ahead of ours stays until our clock passes it.
 */
export function takeSlots(log: PaceLog, now: number, wanted: number, maxPerWindow: number): { granted: number; log: PaceLog } {
  const live = log.filter(([at]) => at > now - CRM_PACE_WINDOW_MS);
  const used = live.reduce((sum, [, count]) => sum + count, 0);
  const granted = Math.max(0, Math.min(Math.floor(wanted), maxPerWindow - used));
  return { granted, log: granted > 0 ? [...live, [now, granted]] : live };
}

/**
 * Takes `count` unused slots back off the oldest grants: the window can then only look fuller than
 * the sends really made it, never emptier.
 */
export function giveBackSlots(log: PaceLog, now: number, count: number): PaceLog {
  let left = Math.max(0, Math.floor(count));
  const kept: PaceGrant[] = [];
  for (const [at, granted] of log.filter(([grantedAt]) => grantedAt > now - CRM_PACE_WINDOW_MS)) {
    const taken = Math.min(left, granted);
    left -= taken;
    if (granted > taken) kept.push([at, granted - taken]);
  }
  return kept;
}
