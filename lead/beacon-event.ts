// The analytics beacon's event as it travels from a page to the server: its names, its limits and the
// ad networks whose clicks it recognises. The browser's beacon (renderer/shell/beacon.ts) builds it,
// the server (server/analytics/event-shape.ts) reads it, and a lead's attribution (attribution.ts)
// takes the same campaign parameters and click ids, so the three cannot drift apart. Plain TypeScript,
// no schema library: every page loads it with the beacon, whose bytes are budgeted.
import type { LeadFormId } from './rules.ts';

/** Where pages send their events. */
export const EVENTS_ENDPOINT = '/api/events';

/** A beacon is a few hundred bytes; the server refuses a larger event whole. */
export const MAX_EVENT_BYTES = 1024;

export const EVENT_TYPES = ['pageview', 'booking_click', 'form_start', 'form_submit'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** The campaign's `utm_*` parameters, each with the name the event gives its word (utm_campaign is the campaign's name). */
export const CAMPAIGN_PARAMETERS = {
  utm_source: 'source',
  utm_medium: 'medium',
  utm_campaign: 'name',
  utm_term: 'term',
  utm_content: 'content',
} as const;
export type CampaignParameter = keyof typeof CAMPAIGN_PARAMETERS;
export type CampaignWord = (typeof CAMPAIGN_PARAMETERS)[CampaignParameter];

/**
 * The ad networks' click ids (Google, Meta, Microsoft). The event says which kind of click brought
 * the visit, never the id, which would name the visitor; a lead carries the id itself to the CRM.
 */
export const CLICK_ID_KINDS = ['gclid', 'fbclid', 'msclkid'] as const;
export type ClickIdKind = (typeof CLICK_ID_KINDS)[number];

/** The longest campaign word, page path and referrer an event may hold. */
export const CAMPAIGN_WORD_MAX_LENGTH = 100;
export const PAGE_PATH_MAX_LENGTH = 200;
export const REFERRER_MAX_LENGTH = 500;

export type BeaconEvent = {
  type: EventType;
  /** The page as the site names it: "/" or "/about", never "/about/". */
  path: string;
  /** Sent with the first page view of a page load only, as are `campaign` and `click`. */
  referrer?: string;
  campaign?: Partial<Record<CampaignWord, string>>;
  click?: ClickIdKind;
  /** The lead form a form event is about. */
  form?: LeadFormId;
  /** The lead forms a viewed page shows. */
  forms?: LeadFormId[];
};

/**
 * Field speed, the three Core Web Vitals a page measures in the visitor's browser: Largest
 * Contentful Paint and Interaction to Next Paint in milliseconds, Cumulative Layout Shift as a score.
 * Each with the largest value the server takes: a minute for the two times (a page still loading
 * after that is a broken measurement, not a slow page) and 10 for the layout score (real pages stay
 * well under 1).
 */
export const VITAL_LIMITS = { LCP: 60_000, INP: 60_000, CLS: 10 } as const;
export type VitalName = keyof typeof VITAL_LIMITS;

/**
 * A page's field speed, sent once per page load when the page is hidden, apart from the other
 * events: its page and the values measured, and nothing else (no campaign, no form, no visit).
 */
export type VitalsBeacon = { type: 'vitals'; path: string; vitals: Partial<Record<VitalName, number>> };
