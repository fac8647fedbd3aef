// axe-core as every accessibility check in the browser runs it: its default rules plus the rules of
// the WCAG 2.2 AA tag set that it leaves out by default, in one run.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
// The WCAG tag set's rules that axe leaves out of its default run. One run with these switched on
// covers both sets (a11y.spec.ts checks it still does when axe changes), at half the time of two.
export const RULES_BEYOND_DEFAULTS = ['target-size'];

// Legacy mode: one axe.run() in the page. The default runs axe.runPartial() in each frame and then
// axe.finishRun() in a blank page it opens and loads axe into again, which is worth it only for
// cross-origin frames (legacy mode skips those); our pages have none, and the run takes half the
// time (a11y.spec.ts checks both give the same audit).
export function axe(page: Page) {
  return new AxeBuilder({ page })
    .setLegacyMode()
    .options({ rules: Object.fromEntries(RULES_BEYOND_DEFAULTS.map((id) => [id, { enabled: true }])) });
}

export async function axeViolations(page: Page) {
  const { violations } = await axe(page).analyze();
  return violations.map(
    (v) =>
      `${v.impact} ${v.id}: ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')} ${n.failureSummary?.split('\n')[1] ?? ''}`).join('\n')}`,
  );
}
