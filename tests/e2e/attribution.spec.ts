// A visit's UTM tags are captured on its first page view, whatever page that is, and reach the lead
// sent later from another page reached by a client-side navigation. They are kept in memory only:
// nothing is written to the visitor's device while they browse.
import { expect, test } from '@playwright/test';
import { startLeadReceiver } from './lead-receiver.ts';
import { isSameDocument, markDocument, waitForHydration } from './support.ts';

test('UTM tags from a landing on /about reach a lead sent from the home page after a client-side navigation', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const receiver = await startLeadReceiver(page);
  await page.goto('/about?utm_source=newsletter&utm_medium=email&utm_campaign=fall-launch&gclid=abc123');
  await waitForHydration(page);
  await markDocument(page);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home', exact: true }).click();
  await expect(page).toHaveURL('/');
  await waitForHydration(page);
  expect(await isSameDocument(page)).toBe(true);
  expect(await page.evaluate(() => [document.cookie, localStorage.length, sessionStorage.length])).toEqual(['', 0, 0]);

  const form = page.getByRole('form', { name: 'Get Your Free Consultation' });
  await form.getByLabel('Full Name').fill('Dana Reyes');
  await form.getByLabel('Business Email').fill('dana@reyes.example');
  await form.getByLabel('Phone Number').fill('+1 512 555 0148');
  await form.getByLabel('Company Name').fill('Reyes Dental');
  await form.getByRole('button', { name: 'Get Started Now' }).click();

  await expect.poll(() => receiver.leads.length).toBe(1);
  const lead = receiver.leads[0]!.body;
  expect(lead).toMatchObject({
    utm_source: 'newsletter',
    utm_medium: 'email',
    utm_campaign: 'fall-launch',
    gclid: 'abc123',
    source: 'Homepage Simple Lead Form',
  });
  expect(String(lead.landing_page)).toContain('/about?utm_source=newsletter');
  expect(String(lead.page_url)).toMatch(/\/$/);
});
