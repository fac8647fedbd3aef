// A budget on each route's startup work: the main-thread time our own scripts spend from the
// navigation until the visitor's first interaction (script evaluation and compilation, and the style
// and layout those scripts force), read from a Chromium performance trace (scripts/bench/startup-trace.ts).
// Measured unthrottled, then scaled to a reference host (Lighthouse's benchmark index of
// REFERENCE_INDEX, measured in the same browser before the routes), so a fast and a slow CI machine
// read alike. Lighthouse on a quiet machine is not needed to catch a regression: a change that makes
// any route start with more work than its budget fails `npm test`.
//
// It runs as a Playwright project of its own, after every other browser test, one page at a time, so
// no other test shares the CPU while it measures (playwright.config.ts).
import { pageFunctions } from 'lighthouse/core/lib/page-functions.js';
import { expect, test, type Browser } from '@playwright/test';
import { median } from '../../scripts/bench/lighthouse.ts';
import { traceStartup } from '../../scripts/bench/startup-trace.ts';
import { BASE_URL } from '../../playwright.config.ts';
import { ROUTES } from './support.ts';

/** The host the budgets are written for: Lighthouse's benchmark index of a desktop-class machine. */
const REFERENCE_INDEX = 1_000;

/**
 * Startup work per route on the reference host, in ms: about twice what each took when the budgets
 * were written (2026-11-28, after the startup work was split into idle tasks and the forms made to
 * wait for the visitor), as one run differs from the next by up to half on a shared machine. What
 * the budgets catch: React starting on a page without islands on screen, a form hydrating before
 * the visitor reaches it, or the shell growing by tens of milliseconds. Pages with islands on screen
 * at start (the thank-you page's countdown and booking) hydrate them; the others run the page shell.
 */
const BUDGET_MS: Record<string, number> = {
  // The longest page, with the most links and a form for the shell and the beacon to look at.
  '/': 260,
  '/calculator': 320,
  '/contact': 320,
  '/thankyou': 600,
  '/ai-transformation': 280,
};
/** Pages without a form or an island on screen at start: the page shell alone (menu, navigation, attribution, beacon, field speed). */
const SHELL_ONLY_BUDGET_MS = 160;

/** Loads measured per route; the median counts. */
const LOADS = 3;

// In order, in one worker; a route over its budget does not stop the others from being measured.
test.describe.configure({ mode: 'default' });

/**
 * Lighthouse's own benchmark, the one its "benchmark index" reports, run in this browser: measured
 * next to each route's loads, as this machine's speed drifts while the suite runs.
 */
async function benchmarkIndex(browser: Browser): Promise<number> {
  const page = await browser.newPage();
  try {
    await page.goto(`${BASE_URL}/healthz`);
    return await page.evaluate<number>(`(${pageFunctions.computeBenchmarkIndex.toString()})()`);
  } finally {
    await page.close();
  }
}

for (const route of ROUTES) {
  test(`${route.path}: our scripts' startup work stays within its budget`, async ({ browser }) => {
    test.setTimeout(90_000);
    const loads = [];
    const indexes = [await benchmarkIndex(browser)];
    for (let load = 0; load < LOADS; load++)
      loads.push(await traceStartup(browser, `${BASE_URL}${route.path}`, { cpuSlowdown: 1, samples: false, interact: false }));
    indexes.push(await benchmarkIndex(browser));
    const measuredMs = median(loads.map((trace) => trace.ourWorkMs));
    const hostIndex = Math.round(median(indexes));
    const scaledMs = Math.round(measuredMs * (hostIndex / REFERENCE_INDEX));
    const budgetMs = BUDGET_MS[route.path] ?? SHELL_ONLY_BUDGET_MS;
    test.info().annotations.push({
      type: 'startup work',
      description: `${Math.round(measuredMs)} ms here (benchmark index ${hostIndex}), ${scaledMs} ms on the reference host, budget ${budgetMs} ms`,
    });
    console.log(`${route.path}: ${test.info().annotations.at(-1)?.description}`);
    // Every route runs the page shell: no work at all means the trace was not read.
    expect(measuredMs, 'the trace held none of our scripts').toBeGreaterThan(0);
    expect(
      scaledMs,
      `${route.path} started with ${scaledMs} ms of our scripts' work on the reference host (budget ${budgetMs} ms)`,
    ).toBeLessThanOrEqual(budgetMs);
  });
}
