// A bound on what anonymous visitors can make the reports keep. The daily roll-ups are kept for ever
// and keyed by the referring site and the campaign words, which any visitor can make up: without a
// bound, a script inventing a new campaign for every beacon would grow the database by a row per
// beacon, for good. So each server keeps at most `perDay` distinct referring sites and distinct
// campaigns a day on page views; the next new ones are counted together as "(other)". Real sites
// see a few dozen of each a day. (Paths are bounded already: only the build's pages are accepted.)
//
// Junk can fill the bound; it must not push out a real campaign. A campaign a lead carried is real:
// the lead is counted under its own words outside this bound (lead-keys.ts), and from then on the
// day's page views of that campaign count under its name too, whatever the bound holds.
import type { CountedEvent } from './event-shape.ts';

export const VALUE_CAP_PER_DAY = 500;
/** What a referring site or a campaign beyond the day's bound is counted as. */
export const OTHER = '(other)';

/** The words the campaign roll-up keeps (term and content are not rolled up, so they take no room). */
export type CampaignWords = { readonly source?: string; readonly medium?: string; readonly name?: string };

export type ValueCap = {
  /** The event as it is counted: a referring site or campaign past the day's bound becomes "(other)". */
  cap(event: CountedEvent, eventDay: string): CountedEvent;
  /** A campaign a lead carried on `day`: its page views count under its name for the rest of that day. */
  keepCampaign(campaign: CampaignWords, day: string): void;
};

/** How a campaign is named among the day's kept values. */
export const campaignKey = ({ source = '', medium = '', name = '' }: CampaignWords) => JSON.stringify([source, medium, name]);

export function createValueCap(perDay = VALUE_CAP_PER_DAY): ValueCap {
  let day = '';
  let referrers = new Set<string>();
  let campaigns = new Set<string>();
  // Campaigns that brought a lead today: as many as there were leads, which are stored anyway.
  let carriedByLeads = new Set<string>();

  function startDay(eventDay: string): void {
    if (eventDay === day) return;
    day = eventDay;
    referrers = new Set();
    campaigns = new Set();
    carriedByLeads = new Set();
  }

  /** Whether `key` is one of the day's kept values, keeping it when there is room. */
  function keep(seen: Set<string>, key: string): boolean {
    if (seen.has(key)) return true;
    if (seen.size >= perDay) return false;
    seen.add(key);
    return true;
  }

  return {
    cap(event, eventDay) {
      startDay(eventDay);
      let capped = event;
      if (event.referrerHost !== undefined && !keep(referrers, event.referrerHost)) capped = { ...capped, referrerHost: OTHER };
      if (event.campaign !== undefined) {
        const key = campaignKey(event.campaign);
        if (!carriedByLeads.has(key) && !keep(campaigns, key)) capped = { ...capped, campaign: { source: OTHER, name: OTHER } };
      }
      return capped;
    },
    keepCampaign(campaign, leadDay) {
      // A lead of another day than the one being counted (a clock at midnight) changes nothing.
      if (leadDay < day) return;
      startDay(leadDay);
      if (campaign.source || campaign.medium || campaign.name) carriedByLeads.add(campaignKey(campaign));
    },
  };
}
