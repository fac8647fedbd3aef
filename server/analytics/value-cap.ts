// A bound on what anonymous visitors can make the reports keep. The daily roll-ups are kept for ever
// and keyed by the referring site and the campaign words, which any visitor can make up: without a
// bound, a script inventing a new campaign for every beacon would grow the database by a row per
// beacon, for good. So each server keeps at most `perDay` distinct referring sites and distinct
// campaigns a day; the next new ones are counted together as "(other)". Real sites see a few dozen
// of each a day. (Paths are bounded already: only the build's pages are accepted.)
import type { CountedEvent } from './event-shape.ts';

export const VALUE_CAP_PER_DAY = 500;
/** What a referring site or a campaign beyond the day's bound is counted as. */
export const OTHER = '(other)';

export function createValueCap(perDay = VALUE_CAP_PER_DAY) {
  let day = '';
  let referrers = new Set<string>();
  let campaigns = new Set<string>();

  /** Whether `key` is one of the day's kept values, keeping it when there is room. */
  function keep(seen: Set<string>, key: string): boolean {
    if (seen.has(key)) return true;
    if (seen.size >= perDay) return false;
    seen.add(key);
    return true;
  }

  return function cap(event: CountedEvent, eventDay: string): CountedEvent {
    if (eventDay !== day) {
      day = eventDay;
      referrers = new Set();
      campaigns = new Set();
    }
    let capped = event;
    if (event.referrerHost !== undefined && !keep(referrers, event.referrerHost)) capped = { ...capped, referrerHost: OTHER };
    if (event.campaign !== undefined && !keep(campaigns, JSON.stringify(event.campaign)))
      capped = { ...capped, campaign: { source: OTHER, name: OTHER } };
    return capped;
  };
}
