// What a page may tell the server about a visit, and nothing more: a page view, a click on the
// booking link, the first touch of a lead form, and a form sent. Each names the page of this site it
// happened on; a page view also says where the visit came from (the referring site's name only, the
// campaign's `utm_*` words, and which kind of ad click it was, never the click's own id, which would
// name the visitor). A page's field speed (its Largest Contentful Paint, Interaction to Next Paint
// and Cumulative Layout Shift) comes as an event of its own that names the page and the values only.
// Anything else, or anything larger, is refused whole.
// The event's names and limits are the browser beacon's own (lead/beacon-event.ts); this module adds
// the checks only the server makes.
import { z } from 'zod';
import { cleanAttributionValue } from '../../lead/attribution.ts';
import {
  CAMPAIGN_WORD_MAX_LENGTH,
  CLICK_ID_KINDS,
  EVENT_TYPES,
  MAX_EVENT_BYTES,
  PAGE_PATH_MAX_LENGTH,
  REFERRER_MAX_LENGTH,
  VITAL_LIMITS,
  type CampaignWord,
  type VitalName,
} from '../../lead/beacon-event.ts';
import { LEAD_FORM_IDS } from '../../lead/rules.ts';

export { MAX_EVENT_BYTES };

/**
 * A campaign word as people write them in links ("spring-sale", "newsletter"), cleaned as the lead's
 * attribution fields are (no control or invisible format characters, trimmed), so a campaign counts
 * under the same word in the reports as in the inbox.
 */
const word = z.string().max(CAMPAIGN_WORD_MAX_LENGTH).transform(cleanAttributionValue);

/** A path of a page: "/", "/about", "/blog/what-is-ai-consulting"; no query, fragment or dot segment. */
const pagePath = z
  .string()
  .max(PAGE_PATH_MAX_LENGTH)
  .regex(/^\/(?:[a-z0-9-]+(?:\/[a-z0-9-]+)*)?$/, 'The path is a page of this site, such as "/about".');

const beacon = z
  .object({
    type: z.enum(EVENT_TYPES),
    path: pagePath,
    referrer: z.string().max(REFERRER_MAX_LENGTH).optional(),
    campaign: z
      .object({
        source: word.optional(),
        medium: word.optional(),
        name: word.optional(),
        term: word.optional(),
        content: word.optional(),
      } satisfies Record<CampaignWord, z.ZodType>)
      .strict()
      .optional(),
    click: z.enum(CLICK_ID_KINDS).optional(),
    form: z.enum(LEAD_FORM_IDS).optional(),
    /** The lead forms the viewed page shows: the first step of each form's funnel. */
    forms: z.array(z.enum(LEAD_FORM_IDS)).max(LEAD_FORM_IDS.length).optional(),
  })
  .strict()
  .refine((event) => (event.type === 'form_start' || event.type === 'form_submit') === (event.form !== undefined), {
    message: 'A form event names its form, and only a form event does.',
  })
  .refine((event) => event.forms === undefined || event.type === 'pageview', { message: 'Only a page view lists the forms it shows.' })
  .transform(({ forms, ...event }) => (forms && forms.length > 0 ? { ...event, forms: [...new Set(forms)] } : event));

const VITAL_WORDS: Readonly<Record<VitalName, string>> = {
  LCP: 'Largest Contentful Paint is a number of milliseconds from 0 to 60000.',
  INP: 'Interaction to Next Paint is a number of milliseconds from 0 to 60000.',
  CLS: 'Cumulative Layout Shift is a number from 0 to 10.',
};
const vital = (name: VitalName) =>
  z.number(VITAL_WORDS[name]).min(0, VITAL_WORDS[name]).max(VITAL_LIMITS[name], VITAL_WORDS[name]).optional();

/** A page's field speed: at least one of the three values, each a finite number within its limit. */
const vitalsBeacon = z
  .object({
    type: z.literal('vitals'),
    path: pagePath,
    vitals: z
      .object({ LCP: vital('LCP'), INP: vital('INP'), CLS: vital('CLS') } satisfies Record<VitalName, z.ZodType>)
      .strict()
      .refine((vitals) => Object.values(vitals).some((value) => value !== undefined), {
        message: 'Field speed holds at least one of LCP, INP and CLS.',
      }),
  })
  .strict();

/** A page's field speed as it is counted. */
export type VitalsReading = z.output<typeof vitalsBeacon>;

export type Beacon = z.output<typeof beacon>;
/** The event as it arrives, before cleaning: what the browser's beacon builds (lead/beacon-event.ts). */
export type ArrivingBeacon = z.input<typeof beacon>;

/** An event as it is counted: the referrer reduced to its site's name, an outside site only. */
export type CountedEvent = Omit<Beacon, 'referrer'> & { referrerHost?: string };

export type ReadEvent = { ok: true; event: CountedEvent } | { ok: true; vitals: VitalsReading } | { ok: false; problem: string };

/**
 * Reads a beacon's body (sent as text by `navigator.sendBeacon`, or JSON by `fetch`). `isSitePath`
 * says whether a path is a page of this site; `siteHost` is the site's own name, so a visitor moving
 * between its pages is not counted as referred by it.
 */
export function readEvent(body: string | Buffer, options: { isSitePath: (path: string) => boolean; siteHost: string }): ReadEvent {
  const bytes = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
  if (bytes > MAX_EVENT_BYTES) return { ok: false, problem: `An event is at most ${MAX_EVENT_BYTES} bytes.` };
  let data: unknown;
  try {
    data = JSON.parse(body.toString());
  } catch {
    return { ok: false, problem: 'An event is a JSON object.' };
  }
  if (typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'vitals') {
    const vitals = vitalsBeacon.safeParse(data);
    if (!vitals.success) return { ok: false, problem: vitals.error.issues[0]?.message ?? 'The event has the wrong shape.' };
    if (!options.isSitePath(vitals.data.path)) return { ok: false, problem: 'The path is not a page of this site.' };
    return { ok: true, vitals: vitals.data };
  }
  const parsed = beacon.safeParse(data);
  if (!parsed.success) return { ok: false, problem: parsed.error.issues[0]?.message ?? 'The event has the wrong shape.' };
  const { referrer, campaign, ...event } = parsed.data;
  if (!options.isSitePath(event.path)) return { ok: false, problem: 'The path is not a page of this site.' };
  const referrerHost = outsideHost(referrer, options.siteHost);
  const words = campaignWithoutAddresses(campaign);
  return { ok: true, event: { ...event, ...(words ? { campaign: words } : {}), ...(referrerHost ? { referrerHost } : {}) } };
}

/**
 * The campaign words without any that hold an e-mail address (newsletters often put the reader's
 * address in utm_term or utm_content, which would name the person) or are empty; none left: none.
 */
function campaignWithoutAddresses(campaign: Beacon['campaign']): Beacon['campaign'] {
  if (campaign === undefined) return undefined;
  const kept = Object.fromEntries(Object.entries(campaign).filter(([, word]) => word !== undefined && word !== '' && !word.includes('@')));
  return Object.keys(kept).length > 0 ? kept : undefined;
}

/** "news.example.org" for a referrer on another site; nothing for this site, a bad address or none. */
function outsideHost(referrer: string | undefined, siteHost: string): string | undefined {
  if (!referrer) return undefined;
  try {
    const url = new URL(referrer);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
    const host = url.hostname.toLowerCase().replace(/^www\./, '');
    return host === siteHost.toLowerCase().replace(/^www\./, '') ? undefined : host;
  } catch {
    return undefined;
  }
}
