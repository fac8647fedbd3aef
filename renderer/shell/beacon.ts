// The page's analytics beacon: tells our own server (POST /api/events) that a page was viewed, the
// booking link clicked, a lead form started or sent. No cookie, no storage, no identifier: the server
// names the visit itself and keeps no address. Where the visit came from (the referring site, the
// campaign's `utm_*` words, the kind of ad click, never its id) goes with the first page view of a
// page load only. A browser asking not to be tracked (Do Not Track, Global Privacy Control) sends
// nothing. Sending never holds up the page: it waits for an idle moment, and failures are ignored.
// The page's field speed (vitals.ts) is measured by code of its own, fetched only once the page has
// been painted and the browser is idle, so it never delays the first paint.
// The event's names and limits are the server's own (lead/beacon-event.ts).
import {
  CAMPAIGN_PARAMETERS,
  CAMPAIGN_WORD_MAX_LENGTH,
  CLICK_ID_KINDS,
  EVENTS_ENDPOINT,
  MAX_EVENT_BYTES,
  type BeaconEvent as Beacon,
  type CampaignParameter,
} from '../../lead/beacon-event.ts';
import type { LeadFormId } from '../../lead/rules.ts';
import { BOOKING_LINK_ATTRIBUTE, LEAD_FORM_ATTRIBUTE } from '../../ui/page/page-markers.ts';
import { NAVIGATED_EVENT } from './navigation-events.ts';

/** Where the visit came from, read from the address it landed on and `document.referrer`. */
export function arrival(url: URL, referrer: string): Pick<Beacon, 'referrer' | 'campaign' | 'click'> {
  const found: Pick<Beacon, 'referrer' | 'campaign' | 'click'> = {};
  // The referring site's origin is all the server keeps (its name); the rest of its address stays here.
  const from = referrer && new URL(referrer, url).origin;
  if (from && from !== url.origin) found.referrer = from;
  for (const parameter of Object.keys(CAMPAIGN_PARAMETERS) as CampaignParameter[]) {
    const value = url.searchParams.get(parameter)?.trim().slice(0, CAMPAIGN_WORD_MAX_LENGTH);
    if (value) (found.campaign ??= {})[CAMPAIGN_PARAMETERS[parameter]] = value;
  }
  const click = CLICK_ID_KINDS.find((kind) => url.searchParams.has(kind));
  if (click) found.click = click;
  return found;
}

/** JSON of the event, without the campaign and referrer should they make it larger than the server takes. */
export function encodeBeacon(beacon: Beacon): string {
  const body = JSON.stringify(beacon);
  return new Blob([body]).size > MAX_EVENT_BYTES ? JSON.stringify({ ...beacon, campaign: undefined, referrer: undefined }) : body;
}

/**
 * sendBeacon sends a string as text/plain, which needs no CORS preflight and is what fetch sends for a
 * string body too; fetch stands in where sendBeacon is missing or refuses. Failures are ignored.
 */
function post(body: string): void {
  if (!navigator.sendBeacon?.(EVENTS_ENDPOINT, body)) fetch(EVENTS_ENDPOINT, { method: 'POST', body, keepalive: true }).catch(() => {});
}

const send = (beacon: Beacon) => post(encodeBeacon(beacon));

/** Runs `go` when the browser is idle, after the page has been painted and the navigation is done. */
function idle(go: () => void): void {
  if ('requestIdleCallback' in window) requestIdleCallback(go, { timeout: 2_000 });
  else setTimeout(go);
}

const later = (beacon: Beacon) => idle(() => send(beacon));

/**
 * Starts the beacon on a page load: its page view now, one after each client-side navigation, and
 * the page's clicks and forms. Nothing at all when the visitor asked not to be tracked (Do Not Track,
 * Global Privacy Control): the server would not count them anyway. `signal` stops it (tests start
 * one per case).
 */
export function startBeacon(signal?: AbortSignal): void {
  if (navigator.doNotTrack === '1' || (navigator as Navigator & { globalPrivacyControl?: boolean }).globalPrivacyControl) return;
  // Forms started on the page shown; a form is started once per page view.
  let started = new Set<string>();
  // The page's path as the site names its pages: "/" or "/about", never "/about/".
  const here = () => location.pathname.replace(/\/+$/, '') || '/';
  const on = (type: Beacon['type'], more?: Partial<Beacon>): Beacon => ({ type, path: here(), ...more });
  const formOf = (target: EventTarget | null) =>
    target instanceof Element
      ? (target.closest(`form[${LEAD_FORM_ATTRIBUTE}]`)?.getAttribute(LEAD_FORM_ATTRIBUTE) as LeadFormId | null | undefined)
      : undefined;
  // Capture phase: seen before any handler of the page can stop the event (React prevents a form's
  // submission; the shell prevents a followed link's).
  const listen = (target: EventTarget, type: string, listener: (event: Event) => void) =>
    target.addEventListener(type, listener, { capture: true, signal });

  const pageview = (first?: boolean) => {
    started = new Set();
    // The lead forms on the page, each once.
    const forms = [
      ...new Set(
        [...document.querySelectorAll(`form[${LEAD_FORM_ATTRIBUTE}]`)].map((form) => form.getAttribute(LEAD_FORM_ATTRIBUTE) as LeadFormId),
      ),
    ];
    later(on('pageview', { ...(first && arrival(new URL(location.href), document.referrer)), ...(forms[0] && { forms }) }));
  };
  const formStarted = (event: Event) => {
    const form = formOf(event.target);
    if (form && !started.has(form)) {
      started.add(form);
      later(on('form_start', { form }));
    }
  };

  pageview(true);
  // Field speed is the page load's: measured for the page the visitor landed on, once a frame has been
  // drawn and the browser is idle (the shell starts after the first paint).
  const landed = here();
  requestAnimationFrame(() =>
    idle(() =>
      import('./vitals.ts').then(
        (vitals) => vitals.startVitals(landed, post, signal),
        () => {},
      ),
    ),
  );
  listen(window, NAVIGATED_EVENT, () => pageview());
  listen(document, 'focusin', formStarted);
  listen(document, 'input', formStarted);
  // A submission is sent in the next task, not in the tap's: on a slow phone that tap is a long task
  // with the browser's own work alone. Should the submission leave the page (a form posted without
  // script), the page is still there until the answer comes, long after the next task.
  listen(document, 'submit', (event) => {
    const form = formOf(event.target);
    if (form) setTimeout(() => send(on('form_submit', { form })));
  });
  // A click may leave the page, so it is sent at once.
  listen(document, 'click', (event) => {
    if (event.target instanceof Element && event.target.closest(`a[${BOOKING_LINK_ATTRIBUTE}]`)) send(on('booking_click'));
  });
}
