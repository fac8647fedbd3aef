// Hydrate only what moves: static blocks stay the prerendered DOM (never touched, no script), while
// the interactive blocks on the same page become islands that respond, after a page load and after
// client-side navigation.
import { expect, test, type Browser, type CDPSession, type Page } from '@playwright/test';
import { expectFieldError } from './lead-receiver.ts';
import { LEAD_FORM_PAGES } from './lead-forms.ts';
import { waitForHydration } from './support.ts';
import { FORM_PAUSE_MS } from '../../renderer/islands/island-timing.ts';

/** From the end of parsing, remembers every static block and records every change made inside one. */
async function watchStaticBlocks(page: Page) {
  await page.addInitScript(() => {
    const world = window as unknown as { staticChanges: string[]; staticBlocks: Element[] };
    world.staticChanges = [];
    document.addEventListener('DOMContentLoaded', () => {
      world.staticBlocks = [...document.querySelectorAll('main > :not([data-island])')];
      const observer = new MutationObserver((records) => {
        for (const record of records)
          world.staticChanges.push(`${record.type} ${record.attributeName ?? ''} in <${(record.target as Element).nodeName}>`);
      });
      for (const block of world.staticBlocks)
        observer.observe(block, { subtree: true, childList: true, attributes: true, characterData: true });
    });
  });
}

async function staticBlocksUntouched(page: Page) {
  return page.evaluate(() => {
    const world = window as unknown as { staticChanges: string[]; staticBlocks: Element[] };
    const now = [...document.querySelectorAll('main > :not([data-island])')];
    return {
      count: world.staticBlocks.length,
      sameNodes: now.length === world.staticBlocks.length && now.every((node, i) => node === world.staticBlocks[i]),
      changes: world.staticChanges,
    };
  });
}

function loadedScripts(page: Page) {
  return page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((entry) => new URL(entry.name).pathname)
      .filter((path) => path.endsWith('.js')),
  );
}

test('the home page: static blocks keep their DOM while the lead form island validates', async ({ page }) => {
  await watchStaticBlocks(page);
  await page.goto('/');
  await waitForHydration(page);
  const island = page.locator('[data-island="form"]');
  await expect(island).toHaveAttribute('data-hydrated', '');

  const form = page.getByRole('form', { name: 'Get Your Free Consultation' });
  await form.getByRole('button', { name: 'Get Started Now' }).click();
  await expectFieldError(form.getByLabel('Full Name'), 'Name must be at least 2 characters');

  const result = await staticBlocksUntouched(page);
  expect(result.count, 'static blocks on the home page').toBeGreaterThanOrEqual(3);
  expect(result.sameNodes, 'static blocks are the nodes the HTML parser made').toBe(true);
  expect(result.changes, 'changes inside static blocks').toEqual([]);
  // Only the interactive block's code loaded: no chunk of a static block.
  const scripts = await loadedScripts(page);
  expect(scripts.some((path) => /block-form-/.test(path))).toBe(true);
  expect(scripts.filter((path) => /block-(hero|stats|card-grid|testimonials|faq-list|cta|steps)-/.test(path))).toEqual([]);
});

test('the thank-you page: the countdown ticks beside static blocks that never change', async ({ page }) => {
  await watchStaticBlocks(page);
  await page.goto('/thankyou');
  await waitForHydration(page);
  const timer = page.getByRole('timer');
  const first = await timer.textContent();
  await expect(timer).not.toHaveText(first ?? '', { timeout: 3_000 });
  const result = await staticBlocksUntouched(page);
  expect(result.count).toBeGreaterThanOrEqual(1);
  expect(result.sameNodes).toBe(true);
  expect(result.changes).toEqual([]);
});

test('an article runs the page shell only: no React, no block code', async ({ page }) => {
  await page.goto('/blog/what-is-ai-consulting');
  await waitForHydration(page);
  // The shell, and at an idle moment after the first paint its field speed measurement (web-vitals):
  // no React and no block's code.
  const scripts = await loadedScripts(page);
  expect(scripts.filter((path) => !/^\/assets\/vitals-[\w-]+\.js$/.test(path))).toEqual([
    expect.stringMatching(/^\/assets\/shell-[\w-]+\.js$/),
  ]);
  expect(await page.locator('[data-island]').count()).toBe(0);
});

test('after client-side navigation from an article, the contact form island hydrates and responds', async ({ page }) => {
  await page.goto('/blog/what-is-ai-consulting');
  await waitForHydration(page);
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contact', exact: true }).click();
  await expect(page).toHaveURL('/contact');
  await waitForHydration(page);
  await expect(page.locator('[data-island="form"]')).toHaveAttribute('data-hydrated', '');
  const form = page.getByRole('form', { name: 'Send Us a Message' });
  await form.getByRole('button', { name: 'Send Message' }).click();
  await expectFieldError(form.getByLabel('Full Name'), 'Required');
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
});

test('client-side navigation brings the page head along and Back restores the scroll position', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/about');
  await waitForHydration(page);
  const link = page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Policy' });
  await link.scrollIntoViewIfNeeded();
  const scrolled = await page.evaluate(() => window.scrollY);
  expect(scrolled).toBeGreaterThan(500);
  await link.click();
  await expect(page).toHaveURL('/privacy-policy');
  await expect(page).toHaveTitle(/Privacy Policy/);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/privacy-policy$/);
  await expect(page.locator('meta[property="og:url"]')).toHaveAttribute('content', /\/privacy-policy$/);
  await expect(page.locator('#main')).toBeFocused();
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  // One set of page tags: the previous page's are gone.
  expect(await page.locator('link[rel="canonical"]').count()).toBe(1);
  expect(await page.locator('title').count()).toBe(1);

  await page.goBack();
  await expect(page).toHaveURL('/about');
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/about$/);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(scrolled);
  await page.goForward();
  await expect(page).toHaveURL('/privacy-policy');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Privacy Policy');
});

test('a page that cannot be fetched as one of ours is loaded by the browser instead', async ({ page }) => {
  await page.goto('/about');
  await waitForHydration(page);
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
  // The fetch for the next page fails; the document request that follows is let through.
  await page.route('**/services', (route) =>
    route.request().resourceType() === 'fetch'
      ? route.fulfill({ status: 200, contentType: 'application/json', body: '{}' })
      : route.continue(),
  );
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Services', exact: true }).click();
  await expect(page).toHaveURL('/services');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await waitForHydration(page);
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBeUndefined();
});

test('a form far down the page hydrates only when the visitor gets near it, and keeps what was typed before', async ({ page }) => {
  // Hold the island runtime back until the visitor has typed, as on a slow phone.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/hydrate-island-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
  const island = page.locator('[data-island="form"]');
  expect(await island.getAttribute('data-hydrated'), 'the home form is far below the first screen').toBeNull();

  const form = page.getByRole('form', { name: 'Get Your Free Consultation' });
  await form.getByLabel('Full Name').fill('Seán O’Brien');
  await form.getByLabel('Company Name').fill('Smith & Sons');
  release();
  await expect(island).toHaveAttribute('data-hydrated', '');
  await form.getByRole('button', { name: 'Get Started Now' }).click();
  // The values typed before hydration count: only the two empty fields are wrong.
  await expectFieldError(form.getByLabel('Business Email'), 'Please enter a valid email');
  await expectFieldError(form.getByLabel('Phone Number'), 'Please enter a valid phone number');
  await expect(form.getByText('Name must be at least 2 characters')).toHaveCount(0);
  await expect(form.getByText('Company name required')).toHaveCount(0);
  await expect(form.getByLabel('Full Name')).toHaveValue('Seán O’Brien');
});

test('the calculator waits for the visitor: it hydrates once they pause, and sends every key typed before and as it hydrated', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await page.goto('/calculator');
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
  const island = page.locator('[data-island="roi-calculator"]');
  // The page is up (the shell ran) and the calculator's numbers and fields are the prerendered HTML.
  await page.waitForTimeout(500);
  // Its code may be fetched ahead (the boot loader preloads it), but nothing of it has run.
  expect(await island.getAttribute('data-hydrated')).toBeNull();
  const form = page.locator('[data-island="roi-calculator"] form');
  await expect(form).toBeVisible();

  // The first tap and the keys typed without a pause go to the native field: the calculator does not
  // start under them.
  await form.getByLabel('Full Name').tap();
  for (const key of 'Ada Lovelace') {
    await page.keyboard.type(key);
    await page.waitForTimeout(60);
  }
  expect(await island.getAttribute('data-hydrated'), 'typing without a pause keeps the prerendered form').toBeNull();

  // On a slow phone (CPU slowed 20×) the visitor pauses, which starts the calculator, and goes on
  // typing in two more fields as it hydrates; once it has, they empty the second of them again. (Where
  // each key lands, before React reached the field or while it hydrated, depends on the machine: every
  // key must count either way. field-events-guard.test.ts holds the "while" case exactly.)
  const email = (await form.getByLabel('Business Email').boundingBox())!;
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 20 });
  await page.waitForTimeout(FORM_PAUSE_MS + 50);
  await page.touchscreen.tap(email.x + 20, email.y + email.height / 2);
  await page.keyboard.type('ada@example.com', { delay: 40 });
  await form.getByLabel('Biggest Challenge').tap();
  await page.keyboard.type('Calls', { delay: 40 });
  await expect(island).toHaveAttribute('data-hydrated', '', { timeout: 30_000 });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await form.getByLabel('Biggest Challenge').fill('');

  // Every key counts, as sent: what the form sends is exactly what the fields show.
  const journey = LEAD_FORM_PAGES.find((candidate) => candidate.form === 'ROI')!;
  for (const [label, wire, value, control] of journey.fields) {
    if (['name', 'email', 'challenge'].includes(wire)) continue;
    const field = form.getByLabel(label, { exact: true });
    if (control === 'select') await field.selectOption(value);
    else await field.fill(value);
  }
  const sent = page.waitForRequest((request) => request.url().endsWith('/api/leads') && request.method() === 'POST');
  await form.getByRole('button', { name: journey.button }).click();
  const body = (await sent).postDataJSON() as Record<string, unknown>;
  expect(body).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.com', challenge: '' });
  await context.close();
});

test('a form typed into before the page script ran hydrates at the visitor’s pause, keeping what was typed', async ({ page }) => {
  // The page shell is held back, as on a slow phone where the visitor is quicker than the script.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/shell-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/calculator');
  const form = page.locator('[data-island="roi-calculator"] form');
  await form.getByLabel('Full Name').click();
  await page.keyboard.type('Ada Lovelace');
  release();
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
  await expect(page.locator('[data-island="roi-calculator"]')).toHaveAttribute('data-hydrated', '');
  await expect(form.getByLabel('Full Name')).toHaveValue('Ada Lovelace');
});

test('until an island hydrates, no script of ours listens to touches: a tap is the browser’s to answer', async ({ browser }) => {
  // While any element, the document or the window has a touch or pointer listener, the browser hands
  // every touch (a scroll's too) to the main thread as it lands, before the tap itself is answered.
  // A phone on the calculator, the home page (a lead form) and an article, each started and waiting.
  const { context, page, cdp, scriptUrls } = await phoneNamingScripts(browser);
  for (const route of ['/calculator', '/', '/blog/what-is-ai-consulting']) {
    scriptUrls.clear();
    await page.goto(route);
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    // The shell has started the beacon and loaded the field-speed code (web-vitals) by now.
    await expect.poll(() => [...scriptUrls.values()].some((url) => /\/assets\/vitals-[\w-]+\.js$/.test(url))).toBe(true);
    // …and run it: its module is evaluated in a task after it is parsed.
    await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)));
    const ours = await listenersOfOurs(page, cdp, scriptUrls);
    expect(ours, `${route}: the shell listens for clicks and keys`).toEqual(expect.arrayContaining(['click', 'keydown', 'focusin']));
    expect(
      ours.filter((type) => /touch|pointer/.test(type)),
      route,
    ).toEqual([]);
    expect(await page.locator('[data-island][data-hydrated]').count(), `${route}: nothing hydrated yet`).toBe(0);
  }
  await context.close();
});

test('once a form hydrates, React listens on it to no touch, pointer, hover, scroll or transition event', async ({ browser }) => {
  // React would listen on its root for every event type it knows; the island's blocks handle none of
  // these, and a touch listener alone makes every touch on the page wait for the main thread.
  const { context, page, cdp, scriptUrls } = await phoneNamingScripts(browser);
  await page.goto('/calculator');
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
  // Brought near, the form hydrates once the visitor pauses.
  await page.locator('[data-island] form').scrollIntoViewIfNeeded();
  await expect(page.locator('[data-island][data-hydrated] form')).toBeVisible();
  // On the island and everything in it, where React listens (the shell's own mouse listeners for
  // link prefetching are on the document).
  const ours = await listenersOfOurs(page, cdp, scriptUrls, ["document.querySelector('[data-island][data-hydrated]:has(form)')"]);
  // React's own listeners are there: what the form's fields and buttons need.
  expect(ours).toEqual(expect.arrayContaining(['input', 'change', 'keydown', 'focusin', 'submit']));
  expect(ours.filter((type) => /touch|pointer|mousemove|mouseover|mouseout|wheel|scroll|transition|animation/.test(type))).toEqual([]);
  // Nor anywhere else on the page (the shell's own mouse listeners for link prefetching are deliberate).
  const onThePage = await listenersOfOurs(page, cdp, scriptUrls);
  expect(onThePage.filter((type) => /touch|pointer|wheel/.test(type))).toEqual([]);
  // And React answers taps and keys in it: a tapped send with a field typed into and the others empty
  // reports the empty ones and keeps the typed one.
  const form = page.locator('[data-island][data-hydrated] form');
  const revenue = form.getByLabel('Annual Revenue', { exact: true });
  await revenue.tap();
  await page.keyboard.type('2000000');
  await form.getByRole('button', { name: 'Get My ROI Analysis & Book Session' }).tap();
  await expectFieldError(form.getByLabel('Full Name', { exact: true }), 'Name must be at least 2 characters');
  await expect(revenue).toHaveValue('2000000');
  await expect(revenue).not.toHaveAttribute('aria-invalid', 'true');
  await context.close();
});

/** A phone's page, and the address of each script it parses: which script added a listener (the test tool adds some of its own to every page). */
async function phoneNamingScripts(browser: Browser) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const scriptUrls = new Map<string, string>();
  cdp.on('Debugger.scriptParsed', ({ scriptId, url }) => scriptUrls.set(scriptId, url));
  await cdp.send('Debugger.enable');
  return { context, page, cdp, scriptUrls };
}

/** The types of the listeners our origin's scripts added to each target (the window and the document by default) and every element in it. */
async function listenersOfOurs(
  page: Page,
  cdp: CDPSession,
  scriptUrls: Map<string, string>,
  targets: string[] = ['window', 'document'],
): Promise<string[]> {
  const origin = new URL(page.url()).origin;
  const ours: string[] = [];
  for (const expression of targets) {
    const { result } = await cdp.send('Runtime.evaluate', { expression });
    const found = await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId!, depth: -1, pierce: true });
    for (const listener of found.listeners) if (scriptUrls.get(listener.scriptId)?.startsWith(origin)) ours.push(listener.type);
  }
  return ours;
}
