// Scheduling in the team's time zone, as a marketer in Austin would: a studio whose STUDIO_TIME_ZONE
// is America/Chicago names that zone beside the picker, says the chosen moment back in the words the
// schedule uses, and once scheduled shows the change as scheduled (when, by whom, Cancel) with
// Publish not offered for it; cancelled, it is offered again; published, the result says since when
// it is live and links the page at its address on the site.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { startStudio, type RunningStudio } from '../../studio/testing/running-studio.ts';
import { instantOf, localText, momentInZoneWords } from '../../studio/time-words.ts';

test.describe.configure({ mode: 'serial' });
test.use({ locale: 'en-US', timezoneId: 'Europe/Berlin' });

const ZONE = 'America/Chicago';
const SITE = 'https://www.example.com';
const HOME = 'content/pages/home.yaml';
const SHOTS = process.env.STUDIO_SHOTS_DIR;

let studio: RunningStudio;
test.beforeAll(async () => {
  studio = await startStudio({ env: { STUDIO_TIME_ZONE: ZONE, SITE_URL: SITE } });
});
test.afterAll(async () => {
  test.setTimeout(60_000);
  await studio?.stop();
});

async function axeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).exclude('iframe').analyze();
  return results.violations.map((violation) => `${violation.id}: ${violation.nodes[0]?.target}`);
}

/** Screenshots for a person to look at (STUDIO_SHOTS_DIR), at a phone's width and a desktop's. */
async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 844 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 844 });
}

test('a change scheduled in Chicago time is shown as scheduled and not offered again; cancelled, it is; published, it links the live page', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.goto(`${studio.url}/?file=${encodeURIComponent(HOME)}`);
  await expect(page.getByRole('status').filter({ hasText: /^No unpublished changes$/ })).toBeVisible();
  await page.getByRole('button', { name: /^1\. / }).first().click();
  await page
    .getByLabel(/^Heading/)
    .first()
    .fill('Voice agents that answer every call');
  await expect(page.getByText('Draft saved', { exact: true })).toBeVisible({ timeout: 10_000 });
  await page.getByRole('button', { name: /Review and publish/ }).click();

  // The picker works in the team's zone and names it, whatever the browser's own zone (Berlin here).
  await expect(page.getByText('Times are Chicago time (America/Chicago).')).toBeVisible();
  const tomorrow = localText(Date.now() + 24 * 60 * 60 * 1000, ZONE).slice(0, 10);
  const at = `${tomorrow}T09:00`;
  const words = momentInZoneWords(instantOf(at, ZONE), { timeZone: ZONE, language: 'en-US' });
  expect(words).toMatch(/, 9:00 AM \(America\/Chicago\)$/);
  await page.getByLabel('Publish at').fill(at);
  // Said back in the words the schedule uses, before it is confirmed.
  await expect(page.getByText(`Goes live ${words}.`)).toBeVisible();
  await shoot(page, 'schedule-picker');
  await page.getByRole('button', { name: 'Schedule publish' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Scheduled: Home — ${words}.` })).toBeVisible();

  // Shown as scheduled, when and by whom, and not offered for publishing again.
  const scheduled = page.getByRole('region', { name: 'Scheduled to go live' });
  await expect(scheduled).toContainText(new RegExp(`Home: ${words.replace(/[()]/g, '\\$&')}, scheduled by .+`));
  await expect(page.getByText('There are no other unpublished changes.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Publish', exact: true })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Schedule publish' })).toBeDisabled();
  expect(await axeViolations(page)).toEqual([]);
  await shoot(page, 'schedule-scheduled');

  // Cancelled, it is offered again.
  await scheduled.getByRole('button', { name: `Cancel the scheduled publish of Home at ${words}` }).click();
  await expect(scheduled).toHaveCount(0);
  await expect(page.getByText(/^Scheduled: Home —/)).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 2, name: /^Home/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Publish', exact: true })).toBeEnabled();

  // Published: live since when, and the page at its address on the site.
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(page.getByText(/^Published: Home\. Live since \d{1,2}:\d\d (AM|PM)\.$/)).toBeVisible({ timeout: 90_000 });
  const live = page.getByRole('link', { name: /^View on the live site: Home/ }).first();
  await expect(live).toHaveAttribute('href', `${SITE}/`);
  await expect(page.getByRole('region', { name: 'Recent publishes' })).toContainText(/Home published by .+/);
  expect(await axeViolations(page)).toEqual([]);
  await shoot(page, 'schedule-published');
  expect(studio.read(HOME)).toContain('Voice agents that answer every call');
  expect(studio.git('log', '-1', '--format=%s').trim()).toBe('Publish Home');

  // The history in words, the time in Chicago's.
  await page.getByRole('button', { name: 'History', exact: true }).click();
  const first = page.getByRole('list', { name: 'Publishes' }).getByRole('listitem').first();
  await expect(first.getByRole('heading', { level: 2 })).toContainText(
    /^Home published by .+, \w{3}, \w{3} \d{1,2}, \d{1,2}:\d\d (AM|PM)$/,
  );
  await shoot(page, 'schedule-history');
});
