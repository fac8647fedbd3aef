// @vitest-environment happy-dom
// The analytics beacon as a visitor's browser runs it: a page view on load (with where the visit came
// from) and after each client-side navigation, with the lead forms the page shows; a booking click;
// a form's first touch once per page view and every submission; nothing at all for a visitor who asked
// not to be tracked; and nothing written to the device.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { encodeBeacon, startBeacon } from './beacon.ts';
import { NAVIGATED_EVENT } from './navigation-events.ts';
import { startVitals } from './vitals.ts';

// Field speed's own module, loaded by the beacon once the page is painted; its measuring is tested in vitals.test.ts.
vi.mock('./vitals.ts', () => ({ startVitals: vi.fn() }));

let sent: Array<{ url: string; body: Record<string, unknown> }>;
let stop: AbortController;
const sendBeacon = vi.fn((url: string, body: string) => {
  sent.push({ url, body: JSON.parse(body) as Record<string, unknown> });
  return true;
});

function setPrivacy({ doNotTrack = null, gpc = undefined }: { doNotTrack?: string | null; gpc?: boolean | undefined }) {
  Object.defineProperty(navigator, 'doNotTrack', { value: doNotTrack, configurable: true });
  Object.defineProperty(navigator, 'globalPrivacyControl', { value: gpc, configurable: true });
}

function showPage(path: string, body: string, referrer = '') {
  history.replaceState({}, '', path);
  Object.defineProperty(document, 'referrer', { value: referrer, configurable: true });
  document.body.innerHTML = body;
}

const HOME_FORM = '<form data-lead-form="home"><input name="name"><input name="email"><button>Send</button></form>';
// An anchor on the page: the test browser has no booking site to open.
const BOOKING = '<a href="#booking" data-booking><span>Book a call</span></a>';

/** The beacons sent once the browser has been idle. */
async function beacons() {
  await new Promise((resolve) => setTimeout(resolve, 5));
  return sent.map(({ body }) => body);
}

beforeEach(() => {
  vi.mocked(startVitals).mockClear();
  sent = [];
  stop = new AbortController();
  Object.defineProperty(navigator, 'sendBeacon', { value: sendBeacon, configurable: true });
  setPrivacy({});
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => stop.abort());

describe('the page view', () => {
  it('on load says where the visit came from: the referring site, the campaign words and the kind of ad click, never its id', async () => {
    showPage(
      '/about/?utm_source=newsletter&utm_medium=email&utm_campaign=spring&utm_term=ai&utm_content=top&gclid=EAIaIQ&other=1',
      HOME_FORM,
      'https://news.example.org/story?id=42',
    );
    startBeacon(stop.signal);
    expect(sent).toEqual([]);
    const [pageview] = await beacons();
    expect(sent[0]!.url).toBe('/api/events');
    expect(pageview).toEqual({
      type: 'pageview',
      path: '/about',
      referrer: 'https://news.example.org',
      campaign: { source: 'newsletter', medium: 'email', name: 'spring', term: 'ai', content: 'top' },
      click: 'gclid',
      forms: ['home'],
    });
    expect(JSON.stringify(sent)).not.toContain('EAIaIQ');
  });

  it('after a client-side navigation names the new page and its forms, and not again where the visit came from', async () => {
    showPage('/?utm_source=newsletter', '<p>Welcome</p>', 'https://news.example.org/');
    startBeacon(stop.signal);
    showPage('/contact', '<form data-lead-form="contact"></form><form data-lead-form="contact"></form>');
    window.dispatchEvent(new CustomEvent(NAVIGATED_EVENT));
    expect(await beacons()).toEqual([
      { type: 'pageview', path: '/', referrer: 'https://news.example.org', campaign: { source: 'newsletter' } },
      { type: 'pageview', path: '/contact', forms: ['contact'] },
    ]);
  });

  it('leaves out the site itself as a referrer', async () => {
    showPage('/', '', `${location.origin}/blog`);
    startBeacon(stop.signal);
    expect(await beacons()).toEqual([{ type: 'pageview', path: '/' }]);
  });
});

describe('clicks and forms', () => {
  it('count a booking click, the first touch of a form once per page view, and every submission', async () => {
    showPage('/', HOME_FORM + BOOKING + '<a href="#about">About</a>');
    startBeacon(stop.signal);
    const form = document.querySelector('form')!;
    const [name, email] = document.querySelectorAll('input');
    name!.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    name!.dispatchEvent(new InputEvent('input', { bubbles: true }));
    email!.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    // A page handler that stops the submission (React's) does not hide it.
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      event.stopPropagation();
    });
    form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    document.querySelector('span')!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    document.querySelector('a[href="#about"]')!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    const all = await beacons();
    // The click is sent at once (before the page view, which waits for idle time), the submissions in
    // the next task (off the tap's), the form's start when idle.
    expect(all[0]).toEqual({ type: 'booking_click', path: '/' });
    expect(all.filter((beacon) => beacon.type !== 'pageview').toSorted((a, b) => String(a.type).localeCompare(String(b.type)))).toEqual([
      { type: 'booking_click', path: '/' },
      { type: 'form_start', path: '/', form: 'home' },
      { type: 'form_submit', path: '/', form: 'home' },
      { type: 'form_submit', path: '/', form: 'home' },
    ]);

    // The next page view starts the form's funnel again.
    window.dispatchEvent(new CustomEvent(NAVIGATED_EVENT));
    name!.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    expect((await beacons()).filter((beacon) => beacon.type === 'form_start')).toHaveLength(2);
  });

  it('send a submission in the next task, not in the one that submitted', async () => {
    showPage('/', HOME_FORM);
    startBeacon(stop.signal);
    document.querySelector('form')!.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    expect(sent.filter(({ body }) => body.type === 'form_submit')).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(sent.filter(({ body }) => body.type === 'form_submit').map(({ body }) => body)).toEqual([
      { type: 'form_submit', path: '/', form: 'home' },
    ]);
    // Once.
    expect((await beacons()).filter((beacon) => beacon.type === 'form_submit')).toHaveLength(1);
  });

  it('ignore fields outside a lead form', async () => {
    showPage('/', '<form role="search"><input></form>');
    startBeacon(stop.signal);
    document.querySelector('input')!.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    document.querySelector('form')!.dispatchEvent(new Event('submit', { bubbles: true }));
    expect(await beacons()).toEqual([{ type: 'pageview', path: '/' }]);
  });
});

describe('a visitor who asked not to be tracked', () => {
  it.each([
    ['Do Not Track', { doNotTrack: '1' }],
    ['Global Privacy Control', { gpc: true }],
  ])('with %s sends nothing', async (_, privacy) => {
    setPrivacy(privacy);
    showPage('/?utm_source=newsletter', HOME_FORM + BOOKING);
    startBeacon(stop.signal);
    document.querySelector('input')!.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    document.querySelector('form')!.dispatchEvent(new Event('submit', { bubbles: true }));
    document.querySelector('a')!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(await beacons()).toEqual([]);
    // Long after the idle moment field speed would start from.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(startVitals).not.toHaveBeenCalled();
  });
});

describe('field speed', () => {
  it('is measured for the page the visitor landed on, from an idle moment after the first paint, its report sent as the events are', async () => {
    showPage('/pricing/', '');
    startBeacon(stop.signal);
    expect(startVitals).not.toHaveBeenCalled();
    await beacons();
    await vi.waitFor(() => expect(startVitals).toHaveBeenCalledTimes(1));
    const [path, post] = vi.mocked(startVitals).mock.calls[0]!;
    expect(path).toBe('/pricing');
    post('{"type":"vitals","path":"/pricing","vitals":{"LCP":900}}');
    expect(sent.at(-1)).toEqual({ url: '/api/events', body: { type: 'vitals', path: '/pricing', vitals: { LCP: 900 } } });
  });
});

describe('sending', () => {
  it('falls back to fetch with the same text body when sendBeacon refuses, and a failed fetch is ignored', async () => {
    Object.defineProperty(navigator, 'sendBeacon', { value: () => false, configurable: true });
    const fetch = vi.fn(() => Promise.reject(new TypeError('offline')));
    vi.stubGlobal('fetch', fetch);
    showPage('/', '');
    startBeacon(stop.signal);
    await beacons();
    vi.unstubAllGlobals();
    expect(fetch).toHaveBeenCalledWith('/api/events', {
      method: 'POST',
      body: '{"type":"pageview","path":"/"}',
      keepalive: true,
    });
  });

  it('leaves out the campaign words and referrer rather than send more than the server takes', () => {
    const word = 'é'.repeat(100);
    const body = encodeBeacon({
      type: 'pageview',
      path: '/',
      referrer: 'https://news.example.org',
      campaign: { source: word, medium: word, name: word, term: word, content: word },
      forms: ['home'],
    });
    expect(JSON.parse(body)).toEqual({ type: 'pageview', path: '/', forms: ['home'] });
  });

  it('writes no cookie and nothing to storage', async () => {
    showPage('/?utm_source=newsletter&gclid=abc', HOME_FORM + BOOKING, 'https://news.example.org/');
    startBeacon(stop.signal);
    document.querySelector('input')!.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    document.querySelector('form')!.dispatchEvent(new Event('submit', { bubbles: true }));
    expect((await beacons()).length).toBe(3);
    expect(document.cookie).toBe('');
    expect(localStorage.length).toBe(0);
    expect(sessionStorage.length).toBe(0);
  });
});
