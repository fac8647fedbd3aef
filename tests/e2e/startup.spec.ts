// How a prerendered page becomes an app, on every route: the browser paints the page before it requests any script, and hydration leaves the
// page's styles and head alone (no <style> moved or added, no rule inserted, no meta rewritten).
import { expect, test } from '@playwright/test';
import { bootModules, NO_PAINT_FALLBACK_MS } from '../../renderer/boot-loader.ts';
import { ROUTES, waitForHydration } from './support.ts';

for (const route of ROUTES) {
  test(`${route.path}: paints before any script loads, and hydrates without restyling`, async ({ page, request }) => {
    const html = await (await request.get(route.path)).text();
    // No script starts with the HTML: no external <script> and no modulepreload; the boot loader lists them.
    expect(html).not.toMatch(/<script[^>]*\ssrc=/);
    expect(html).not.toContain('rel="modulepreload"');
    expect(bootModules(html).length).toBeGreaterThan(0);

    // From the end of parsing (the app cannot have started yet), record every change to <head> and to
    // <html>'s attributes, except the scripts the boot loader adds.
    await page.addInitScript(() => {
      const changes: string[] = [];
      (window as unknown as { headChanges: string[] }).headChanges = changes;
      const describe = (node: Node) =>
        node instanceof Element
          ? `<${node.tagName.toLowerCase()}${[...node.attributes].map((a) => ` ${a.name}`).join('')}>`
          : node.nodeName;
      const startedByLoader = (node: Node) =>
        (node instanceof HTMLScriptElement && node.src !== '') || (node instanceof HTMLLinkElement && node.rel === 'modulepreload');
      document.addEventListener('DOMContentLoaded', () => {
        const observer = new MutationObserver((records) => {
          for (const record of records) {
            if (record.type === 'attributes') changes.push(`${record.attributeName} on ${describe(record.target)}`);
            else if (record.type === 'characterData') changes.push(`text of ${describe(record.target.parentNode!)}`);
            for (const node of record.addedNodes) if (!startedByLoader(node)) changes.push(`added ${describe(node)}`);
            for (const node of record.removedNodes) changes.push(`removed ${describe(node)}`);
          }
        });
        observer.observe(document.head, { subtree: true, childList: true, attributes: true, characterData: true });
        observer.observe(document.documentElement, { attributes: true });
      });
    });
    await page.goto(route.path);
    await waitForHydration(page);

    const timing = await page.evaluate(() => ({
      firstPaint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
      loaded: (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.loadEventEnd ?? Number.NaN,
      scripts: performance
        .getEntriesByType('resource')
        .filter((entry) => new URL(entry.name).pathname.endsWith('.js'))
        .map((entry) => ({ url: new URL(entry.name).pathname, start: entry.startTime })),
    }));
    expect(timing.firstPaint).toBeGreaterThan(0);
    expect(timing.scripts.length).toBeGreaterThan(0);
    // The loader waits for the first contentful paint; when the browser has not reported one a second
    // after the load event (a starved machine, a background tab), it starts anyway, as documented.
    const startsAt = Math.min(timing.firstPaint, timing.loaded + NO_PAINT_FALLBACK_MS);
    for (const script of timing.scripts)
      expect(script.start, `${script.url} was requested before the first paint`).toBeGreaterThanOrEqual(startsAt);

    const changes = await page.evaluate(() => (window as unknown as { headChanges: string[] }).headChanges);
    expect(changes, 'hydration changed <head> or <html>').toEqual(['data-hydrated on <html lang data-hydrated>']);
    expect(await page.locator('style[data-emotion]').count(), 'emotion inserted rules while hydrating').toBe(0);
  });
}
