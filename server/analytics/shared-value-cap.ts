import type { KeepValue } from '../store/database.ts';
import type { VisitEvent } from './analytics-store.ts';
import { campaignKey, createValueCap, OTHER, VALUE_CAP_PER_DAY, type CampaignWords } from './value-cap.ts';
import { saltDay } from './visit-hash.ts';

// The daily bound of value-cap.ts kept by every server together (PostgreSQL): the day's referring sites
// and campaigns are the values the shared store keeps for the day (RateLimitStore.keepValues), at most
// `perDay` of each across all servers, not `perDay` per server. It is applied to a batch of events as
// the queue writes it, so a beacon never waits for it: each value this server knows is kept costs
// nothing, and the new values of a batch are asked in one go (one transaction per bound, made one
// server at a time, so the bound is never passed). A campaign a lead carried is kept whatever the
// bound holds, on every server, for the rest of its day.
//
// When the store cannot answer, the batch is capped by this server's own bound, as a single server
// always did (logged at most once a minute): the roll-ups then hold at most `perDay` more values per
// server for that day.

export type SharedValueCap = {
  /** The events as they are counted: a value past the day's shared bound becomes "(other)". Never rejects. */
  capAll(events: readonly VisitEvent[]): Promise<VisitEvent[]>;
  /** A campaign a lead carried on `day`: its page views count under its name for the rest of that day, on every server. */
  keepCampaign(campaign: CampaignWords, day: string): void;
};

type Log = { warn(details: object, message: string): void };

const DAY_MS = 86_400_000;
const BOUNDS = { referrers: 'analytics referrers', campaigns: 'analytics campaigns' } as const;
/** Days whose kept values are remembered: today, and yesterday for the events of a batch written past midnight. */
const DAYS_REMEMBERED = 2;

export function createSharedValueCap({
  keepValues,
  log,
  perDay = VALUE_CAP_PER_DAY,
  now = Date.now,
  warnEveryMs = 60_000,
}: {
  keepValues: (values: readonly KeepValue[]) => Promise<boolean[]>;
  log: Log;
  perDay?: number;
  now?: () => number;
  warnEveryMs?: number;
}): SharedValueCap {
  // Values known kept, per day: once kept, a value stays kept for the rest of its day.
  const days = new Map<string, { referrers: Set<string>; campaigns: Set<string> }>();
  const alone = createValueCap(perDay);
  let lastWarnedAt = -Infinity;

  function keptOn(day: string) {
    let kept = days.get(day);
    if (kept === undefined) {
      kept = { referrers: new Set(), campaigns: new Set() };
      days.set(day, kept);
      for (const old of [...days.keys()].sort().slice(0, -DAYS_REMEMBERED)) days.delete(old);
    }
    return kept;
  }
  const periodEnd = (day: string) => Date.parse(`${day}T00:00:00Z`) + DAY_MS;
  const ask = (bound: keyof typeof BOUNDS, day: string, value: string, always = false): KeepValue => ({
    name: BOUNDS[bound],
    period: day,
    periodEnd: periodEnd(day),
    value,
    max: perDay,
    always,
  });

  function warn(error: unknown, message: string): void {
    if (now() - lastWarnedAt < warnEveryMs) return;
    lastWarnedAt = now();
    log.warn({ err: error }, message);
  }

  return {
    async capAll(events) {
      const asked = new Map<string, KeepValue>();
      const askOnce = (value: KeepValue) => asked.set(JSON.stringify([value.name, value.period, value.value]), value);
      for (const event of events) {
        const day = saltDay(event.at);
        const kept = keptOn(day);
        if (event.referrerHost !== undefined && !kept.referrers.has(event.referrerHost)) askOnce(ask('referrers', day, event.referrerHost));
        if (event.campaign !== undefined && !kept.campaigns.has(campaignKey(event.campaign)))
          askOnce(ask('campaigns', day, campaignKey(event.campaign)));
      }
      if (asked.size > 0) {
        const values = [...asked.values()];
        let answers: boolean[];
        try {
          answers = await keepValues(values);
        } catch (error) {
          warn(
            error,
            "analytics: the day's referring sites and campaigns could not be bounded across servers, so this server bounded them alone; check the database if this repeats",
          );
          return events.map((event) => ({ ...alone.cap(event, saltDay(event.at)), at: event.at, visit: event.visit }));
        }
        values.forEach((value, index) => {
          if (answers[index] !== true) return;
          const kept = keptOn(value.period);
          (value.name === BOUNDS.referrers ? kept.referrers : kept.campaigns).add(value.value);
        });
      }
      return events.map((event) => {
        const kept = keptOn(saltDay(event.at));
        let capped = event;
        if (event.referrerHost !== undefined && !kept.referrers.has(event.referrerHost)) capped = { ...capped, referrerHost: OTHER };
        if (event.campaign !== undefined && !kept.campaigns.has(campaignKey(event.campaign)))
          capped = { ...capped, campaign: { source: OTHER, name: OTHER } };
        return capped;
      });
    },
    keepCampaign(campaign, day) {
      if (!(campaign.source || campaign.medium || campaign.name)) return;
      const key = campaignKey(campaign);
      alone.keepCampaign(campaign, day);
      keptOn(day).campaigns.add(key);
      keepValues([ask('campaigns', day, key, true)]).catch((error: unknown) => {
        warn(error, "analytics: a lead's campaign could not be kept across servers; check the database if this repeats");
      });
    },
  };
}
