// The page's analytics beacon: tells our own server (POST /api/events) that a page was viewed, the
// booking link clicked, a lead form started or sent. No cookie, no storage, no identifier: the server
// names the visit itself and keeps no address. Where the visit came from (the referring site, the
// campaign's `utm_*` words, the kind of ad click, never its id) goes with the first page view of a
// page load only. A browser asking not to be tracked (Do Not Track, Global Privacy Control) sends
// nothing. Sending never holds up the page: it waits for an idle moment, and failures are ignored.
import { BOOKING_LINK_ATTRIBUTE, LEAD_FORM_ATTRIBUTE } from '../page-markers.ts';
import { NAVIGATED_EVENT } from './navigation-events.ts';

export const EVENTS_ENDPOINT = '/api/events';

/** The server refuses a larger event whole; campaign words and the referrer are what may be left out. */
const MAX_EVENT_BYTES = 1024;
const MAX_WORD_LENGTH = 100;
const CAMPAIGN_WORDS = [
  ['utm_source', 'source'],
  ['utm_medium', 'medium'],
  ['utm_campaign', 'name'],
  ['utm_term', 'term'],
  ['utm_content', 'content'],
] as const;
const CLICK_ID_KINDS = ['gclid', 'fbclid', 'msclkid'] as const;
// The server refuses a campaign word with control characters (and with it the whole page view).
// eslint-disable-next-line no-control-regex -- control characters are what this removes
const CONTROL_CHARACTERS = /[\u0000-\u001F\u007F-\u009F]/g;

type Beacon = {
  type: 'pageview' | 'booking_click' | 'form_start' | 'form_submit';
  path: string;
  referrer?: string;
  campaign?: Record<string, string>;
  click?: string;
  form?: string;
  forms?: string[];
};

/** The page's path as the site names its pages: "/" or "/about", never "/about/". */
export function pagePath(pathname: string): string {
  return pathname.replace(/\/+$/, '') || '/';
}

/** Where the visit came from, read from the address it landed on and `document.referrer`. */
export function arrival(url: URL, referrer: string): Pick<Beacon, 'referrer' | 'campaign' | 'click'> {
  const found: Pick<Beacon, 'referrer' | 'campaign' | 'click'> = {};
  // The referring site's origin is all the server keeps (its name); the rest of its address stays here.
  let from = '';
  try {
    from = new URL(referrer).origin;
  } catch {
    // No referrer, or not an address.
  }
  if (from !== url.origin && from.startsWith('http')) found.referrer = from;
  for (const [param, word] of CAMPAIGN_WORDS) {
    const value = url.searchParams.get(param)?.replace(CONTROL_CHARACTERS, '').trim().slice(0, MAX_WORD_LENGTH);
    if (value) (found.campaign ??= {})[word] = value;
  }
  const click = CLICK_ID_KINDS.find((kind) => url.searchParams.has(kind));
  if (click) found.click = click;
  return found;
}

/** The lead forms on the page, each once. */
export function leadFormsIn(root: ParentNode): string[] {
  const ids = [...root.querySelectorAll(`form[${LEAD_FORM_ATTRIBUTE}]`)].map((form) => form.getAttribute(LEAD_FORM_ATTRIBUTE) ?? '');
  return [...new Set(ids)].filter(Boolean);
}

/** JSON of the event, without the campaign and referrer should they make it larger than the server takes. */
export function encodeBeacon(beacon: Beacon): string {
  const body = JSON.stringify(beacon);
  if (new TextEncoder().encode(body).length <= MAX_EVENT_BYTES) return body;
  const { campaign: _campaign, referrer: _referrer, ...rest } = beacon;
  return JSON.stringify(rest);
}

/** A string is sent as text/plain, which needs no CORS preflight; fetch stands in where sendBeacon is missing or refuses. */
function send(beacon: Beacon): void {
  const body = encodeBeacon(beacon);
  try {
    if (navigator.sendBeacon?.(EVENTS_ENDPOINT, body)) return;
  } catch {
    // Fall through to fetch.
  }
  fetch(EVENTS_ENDPOINT, { method: 'POST', body, keepalive: true, headers: { 'Content-Type': 'text/plain' } }).catch(() => {});
}

/** Sends when the browser is idle, after the page has been painted and the navigation is done. */
function later(beacon: Beacon): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => send(beacon), { timeout: 2_000 });
  else setTimeout(() => send(beacon), 0);
}

/** The visitor asked not to be tracked; the server refuses their events anyway, so none are sent. */
export function optedOut(): boolean {
  return navigator.doNotTrack === '1' || (navigator as Navigator & { globalPrivacyControl?: boolean }).globalPrivacyControl === true;
}

/**
 * Starts the beacon on a page load: its page view now, one after each client-side navigation, and
 * the page's clicks and forms. `signal` stops it (tests start one per case).
 */
export function startBeacon(signal?: AbortSignal): void {
  if (optedOut()) return;
  // Forms started on the page shown; a form is started once per page view.
  let started = new Set<string>();
  const path = () => pagePath(location.pathname);
  const formOf = (target: EventTarget | null) =>
    target instanceof Element ? target.closest(`form[${LEAD_FORM_ATTRIBUTE}]`)?.getAttribute(LEAD_FORM_ATTRIBUTE) : undefined;
  // Capture phase: seen before any handler of the page can stop the event (React prevents a form's
  // submission; the shell prevents a followed link's).
  const listen = (target: EventTarget, type: string, listener: (event: Event) => void) =>
    target.addEventListener(type, listener, { capture: true, signal });

  const pageview = (first: boolean) => {
    started = new Set();
    const forms = leadFormsIn(document);
    later({
      type: 'pageview',
      path: path(),
      ...(first ? arrival(new URL(location.href), document.referrer) : {}),
      ...(forms.length > 0 ? { forms } : {}),
    });
  };
  const formStarted = (event: Event) => {
    const form = formOf(event.target);
    if (!form || started.has(form)) return;
    started.add(form);
    later({ type: 'form_start', path: path(), form });
  };

  pageview(true);
  listen(window, NAVIGATED_EVENT, () => pageview(false));
  listen(document, 'focusin', formStarted);
  listen(document, 'input', formStarted);
  // A submission or a click may leave the page, so those are sent at once: sendBeacon outlives the
  // page and does not hold it up.
  listen(document, 'submit', (event) => {
    const form = formOf(event.target);
    if (form) send({ type: 'form_submit', path: path(), form });
  });
  listen(document, 'click', (event) => {
    if (event.target instanceof Element && event.target.closest(`a[${BOOKING_LINK_ATTRIBUTE}]`))
      send({ type: 'booking_click', path: path() });
  });
}
