import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBareBrowser, type BareBrowser } from './bare-browser.ts';

// A field on a page of its own.
const PAGE = `data:text/html,${encodeURIComponent(`<!doctype html><meta name=viewport content="width=device-width">
<input id=field style="position:absolute;left:20px;top:40px;width:200px;height:40px">`)}`;
const MARK = 'window.__initScriptRan = true';

describe('the bare browser the bench times a first interaction in', () => {
  let browser: BareBrowser;
  beforeAll(async () => {
    browser = await launchBareBrowser();
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('opens a phone-sized touch page, taps a field and types into it, as two interactions Event Timing counts', async () => {
    const page = await browser.newPage({
      cpuSlowdown: 1,
      viewport: { width: 412, height: 823 },
      deviceScaleFactor: 1.75,
      initScript: MARK,
    });
    try {
      await page.goto(PAGE);
      expect(await page.evaluate('innerWidth')).toBe(412);
      expect(await page.evaluate('window.__initScriptRan')).toBe(true);
      expect(await page.evaluate("matchMedia('(pointer: coarse)').matches")).toBe(true);
      await page.tap(120, 60);
      await page.type('7');
      await page.wait(300);
      expect(await page.evaluate('document.activeElement.id + ":" + field.value')).toBe('field:7');
      // Event Timing counts the tap and the key (its entries show only those over 16 ms).
      expect(await page.evaluate('performance.interactionCount')).toBe(2);
    } finally {
      await page.close();
    }
  });

  it('says which expression failed when the page throws', async () => {
    const page = await browser.newPage({ cpuSlowdown: 1, viewport: { width: 412, height: 823 }, deviceScaleFactor: 1, initScript: '' });
    try {
      await expect(page.evaluate('missing.thing')).rejects.toThrow(/could not evaluate missing\.thing/);
    } finally {
      await page.close();
    }
  });
});
