// Accessibility, WCAG 2.2 AA: axe-core finds nothing (any impact) on every route at 390 and 1280 px,
// with its default rules (what someone auditing the site runs) and every rule of the WCAG tag set,
// plus what axe cannot judge: the skip link, visible focus, heading order, the mobile menu by
// keyboard, reduced motion and a countdown that does not talk every second.
import AxeBuilder from '@axe-core/playwright';
import { axe, AXE_TAGS, axeViolations, RULES_BEYOND_DEFAULTS } from './axe.ts';
import { expect, test, type Page } from '@playwright/test';
import { ROUTES, waitForHydration } from './support.ts';

const WIDTHS = [390, 1280] as const;
const [NARROW, WIDE] = WIDTHS;
test('one axe run covers its default rules and the WCAG tag set', async ({ page }) => {
  await page.goto('/contact');
  await waitForHydration(page);
  const ruleIds = (result: Awaited<ReturnType<AxeBuilder['analyze']>>) =>
    new Set([...result.passes, ...result.violations, ...result.incomplete, ...result.inapplicable].map((rule) => rule.id));
  const ours = ruleIds(await axe(page).analyze());
  const byDefault = ruleIds(await new AxeBuilder({ page }).analyze());
  const byTags = ruleIds(await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze());
  expect([...byDefault, ...byTags].filter((id) => !ours.has(id))).toEqual([]);
  // Ours runs in legacy mode (one axe.run() in the page): the same audit as the frame-by-frame run.
  const framewise = await new AxeBuilder({ page })
    .options({ rules: Object.fromEntries(RULES_BEYOND_DEFAULTS.map((id) => [id, { enabled: true }])) })
    .analyze();
  expect(await axePrint(page)).toEqual(printOf(framewise));
});

/**
 * Resizes the loaded page and waits until the transitions the new width starts (a menu that folds
 * away, a card that changes shape) have run their course, so the page is what the new width shows
 * at rest.
 */
async function resizeTo(page: Page, width: number) {
  await page.setViewportSize({ width, height: 900 });
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}

/** Every rule axe ran and the elements it judged, per outcome: two equal prints are the same audit. */
function printOf(result: Awaited<ReturnType<AxeBuilder['analyze']>>) {
  const outcomes = { passes: result.passes, violations: result.violations, incomplete: result.incomplete };
  return [
    ...Object.entries(outcomes).flatMap(([outcome, rules]) =>
      rules.map((rule) => `${outcome} ${rule.id}: ${rule.nodes.map((node) => node.target.join(' ')).join(', ')}`),
    ),
    ...result.inapplicable.map((rule) => `inapplicable ${rule.id}`),
  ].sort();
}

async function axePrint(page: Page) {
  return printOf(await axe(page).analyze());
}

// The site's layout answers to the width by CSS media queries alone (no script reads the width), so
// a page loaded narrow and then widened is the page a first load at the wide width gives. The route
// tests below rely on that to audit both widths from one load; this test keeps them honest, on the
// routes with the most that changes with the width: the header and its menu, the forms and the ROI
// calculator.
for (const path of ['/', '/calculator']) {
  test(`${path}: loaded at ${NARROW} px and widened to ${WIDE} px, axe judges what a first load at ${WIDE} px shows`, async ({ page }) => {
    await page.setViewportSize({ width: WIDE, height: 900 });
    await page.goto(path);
    await waitForHydration(page);
    const firstLoad = await axePrint(page);

    await page.setViewportSize({ width: NARROW, height: 900 });
    await page.goto(path);
    await waitForHydration(page);
    await resizeTo(page, WIDE);
    expect(await axePrint(page)).toEqual(firstLoad);
  });
}

// One load per route: axe at each width (widening the loaded page, see above), and the heading outline.
for (const path of [...ROUTES.map((r) => r.path), '/no/such/page']) {
  test(`${path}: no axe violations at ${WIDTHS.join(' and ')} px; one h1 first, no heading level skipped`, async ({ page }) => {
    await page.setViewportSize({ width: NARROW, height: 900 });
    await page.goto(path);
    await waitForHydration(page);
    for (const width of WIDTHS) {
      await resizeTo(page, width);
      expect(await axeViolations(page), `axe at ${width} px`).toEqual([]);
    }

    const levels = await page.locator('h1, h2, h3, h4, h5, h6').evaluateAll((all) => all.map((h) => Number(h.tagName[1])));
    expect(levels[0], `${path} starts with its h1`).toBe(1);
    expect(
      levels.filter((l) => l === 1),
      `${path} has one h1`,
    ).toHaveLength(1);
    levels.forEach((level, index) => {
      if (index > 0)
        expect(level, `${path}: heading ${index + 1} (h${level}) follows an h${levels[index - 1]}`).toBeLessThanOrEqual(
          levels[index - 1]! + 1,
        );
    });
  });
}

test.describe('axe in states a first load does not show', () => {
  test('the open mobile menu', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    await waitForHydration(page);
    await page.getByRole('button', { name: 'Toggle menu' }).click();
    await expect(page.getByRole('button', { name: 'Toggle menu' })).toHaveAttribute('aria-expanded', 'true');
    expect(await axeViolations(page)).toEqual([]);
  });

  test('a form showing its errors, and the toast', async ({ page }) => {
    await page.goto('/contact');
    await waitForHydration(page);
    await page.getByRole('button', { name: 'Send Message' }).click();
    await expect(page.locator('[data-sonner-toast]').first()).toBeVisible();
    await expect(page.locator('[aria-invalid="true"]').first()).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
  });

  test('every FAQ answer open', async ({ page }) => {
    await page.goto('/faqs');
    await waitForHydration(page);
    await page.locator('main details').evaluateAll((all) => all.forEach((d) => ((d as HTMLDetailsElement).open = true)));
    expect(await axeViolations(page)).toEqual([]);
  });
});

test('the skip link is the first stop, becomes visible on focus and moves focus to the main content', async ({ page }) => {
  await page.goto('/services');
  await waitForHydration(page);
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to main content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('main#main')).toBeFocused();
  // The next Tab continues inside the main content, past the header.
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.closest('main') !== null)).toBe(true);
});

test.describe('visible focus', () => {
  for (const width of WIDTHS) {
    test(`every stop in the Tab order of the home page and the contact page shows a focus indicator at ${width} px`, async ({ page }) => {
      test.slow();
      await page.setViewportSize({ width, height: 900 });
      for (const path of ['/', '/contact']) {
        await page.goto(path);
        await waitForHydration(page);
        const seen = new Set<string>();
        for (let press = 0; press < 80; press++) {
          await page.keyboard.press('Tab');
          const focus = await page.evaluate(() => {
            const element = document.activeElement as HTMLElement | null;
            if (!element || element === document.body) return null;
            const style = getComputedStyle(element);
            const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
            // A ring may be drawn by the element or by a pseudo-element spanning its card.
            const ring = [style, getComputedStyle(element, '::after'), getComputedStyle(element, '::before')].some(
              (s) => s.boxShadow !== 'none',
            );
            const label = `${element.tagName.toLowerCase()} "${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 40)}" ${element.getAttribute('href') ?? element.getAttribute('name') ?? ''}`;
            return { label, visible: outline || ring, matchesFocusVisible: element.matches(':focus-visible') };
          });
          if (!focus || seen.has(focus.label)) break;
          seen.add(focus.label);
          expect(focus.matchesFocusVisible, `${path}: ${focus.label} takes keyboard focus`).toBe(true);
          expect(focus.visible, `${path}: ${focus.label} shows where focus is`).toBe(true);
        }
        expect(seen.size, `${path} has a Tab order`).toBeGreaterThan(10);
      }
    });
  }
});

test('the mobile menu works by keyboard alone: open, move through, close with Escape', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await waitForHydration(page);
  const toggle = page.getByRole('button', { name: 'Toggle menu' });
  for (let press = 0; press < 10 && !(await toggle.evaluate((e) => e === document.activeElement)); press++)
    await page.keyboard.press('Tab');
  await expect(toggle).toBeFocused();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await page.keyboard.press('Tab');
  await expect(nav.getByRole('link').first()).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(toggle).toBeFocused();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL('/about');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
});

test.describe('reduced motion', () => {
  const motionOf = (page: Page) =>
    page.evaluate(() => {
      const seconds = (value: string) =>
        Math.max(...value.split(',').map((part) => (part.trim().endsWith('ms') ? parseFloat(part) / 1000 : parseFloat(part))));
      let longestS = 0;
      for (const element of document.querySelectorAll('*')) {
        const style = getComputedStyle(element);
        longestS = Math.max(longestS, seconds(style.transitionDuration), seconds(style.animationDuration));
      }
      return { longestS, scrollBehavior: getComputedStyle(document.documentElement).scrollBehavior };
    });

  test('with prefers-reduced-motion: reduce, nothing animates and scrolling jumps', async ({ page }) => {
    test.slow();
    await page.goto('/');
    await waitForHydration(page);
    const normal = await motionOf(page);
    expect(normal.longestS, 'the site does animate when motion is welcome').toBeGreaterThan(0.05);

    await page.emulateMedia({ reducedMotion: 'reduce' });
    for (const path of ['/', '/voice-ai', '/faqs', '/thankyou', '/calculator']) {
      await page.goto(path);
      await waitForHydration(page);
      const reduced = await motionOf(page);
      expect(reduced.longestS, `${path}: longest transition or animation`).toBeLessThanOrEqual(0.001);
      expect(reduced.scrollBehavior).toBe('auto');
    }
  });
});

test('the thank-you countdown ticks without being announced every second', async ({ page }) => {
  await page.clock.install();
  await page.goto('/thankyou');
  await waitForHydration(page);
  const timer = page.getByRole('timer');
  await expect(timer).toHaveCount(1);
  const before = await timer.textContent();
  await page.clock.runFor(3000);
  await expect(timer).not.toHaveText(before!);
  // role="timer" is aria-live="off" by default; nothing may turn the ticking digits into a live region.
  const live = await timer.evaluate((element) => {
    const regions: string[] = [];
    for (let node: Element | null = element; node; node = node.parentElement) {
      const value = node.getAttribute('aria-live');
      const role = node.getAttribute('role');
      if ((value && value !== 'off') || (role && ['status', 'alert', 'log', 'marquee'].includes(role)))
        regions.push(`${node.tagName} aria-live=${value} role=${role}`);
    }
    for (const child of element.querySelectorAll('[aria-live], [role="status"], [role="alert"], [role="log"]')) {
      if (child.getAttribute('aria-live') !== 'off') regions.push(`inner ${child.tagName}`);
    }
    return regions;
  });
  expect(live).toEqual([]);
});

test.describe('every form works by keyboard alone', () => {
  for (const path of ['/', '/calculator', '/contact', '/ai-transformation']) {
    test(`${path}: Tab reaches each field in order, and Enter on the button submits`, async ({ page }) => {
      test.slow();
      await page.goto(path);
      await waitForHydration(page);
      const form = page.locator('main form').first();
      const controls = form.locator(
        'input:not([type="hidden"]):not([tabindex="-1"]):visible, select:visible, textarea:visible, button:visible',
      );
      const count = await controls.count();
      expect(count, `${path} has form controls`).toBeGreaterThan(3);
      for (let press = 0; press < 150 && !(await controls.first().evaluate((e) => e === document.activeElement)); press++)
        await page.keyboard.press('Tab');
      await expect(controls.first()).toBeFocused();
      for (let index = 1; index < count; index++) {
        await page.keyboard.press('Tab');
        await expect(controls.nth(index), `${path}: control ${index + 1} of ${count} is the next Tab stop`).toBeFocused();
      }
      // The last stop is the submit button: Enter sends, and with empty fields the form answers with its validation toast.
      await page.keyboard.press('Enter');
      await expect(page.locator('[data-sonner-toast]').first()).toBeVisible();
      await expect(form.locator('[aria-invalid="true"]').first()).toBeFocused();
    });
  }
});
