// "Call me back now" end to end: a visitor ticks the box under the contact form, the real relay
// stores the lead, and the CRM (tests/e2e/crm-receiver-process.ts) receives callback_requested true
// with the owner's wording from the site settings, word for word, its version, the page and the time;
// with and without JavaScript.
import { randomUUID } from 'node:crypto';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { CRM_RECEIVER_URL } from '../../playwright.config.ts';
import { LEAD_FORM_PAGES, openAndFill, valuesWithEmail } from './lead-forms.ts';
import { site } from './support.ts';

const CONTACT = LEAD_FORM_PAGES.find((journey) => journey.form === 'contact')!;
const WORDING = (site as unknown as { callbackConsent: { label: string; text: string; version: string } }).callbackConsent;
const HUMAN_FILL_TIME_MS = 5_000;

async function crmDeliveryFor(email: string): Promise<Record<string, unknown> | undefined> {
  const response = await fetch(`${CRM_RECEIVER_URL}/received`);
  const all = (await response.json()) as Array<{ body: Record<string, unknown> }>;
  return all.find((delivery) => delivery.body.email === email)?.body;
}

async function sendTicked(page: Page, form: Locator): Promise<void> {
  const box = form.getByRole('checkbox', { name: WORDING.label });
  await expect(box).not.toBeChecked();
  await expect(box).toHaveAccessibleDescription(new RegExp(`${WORDING.text.slice(0, 40).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  await box.check();
  const answer = page.waitForResponse((response) => response.url().endsWith('/api/leads') && response.request().method() === 'POST');
  await form.getByRole('button', { name: CONTACT.button }).click();
  expect((await answer).status()).toBeLessThan(400);
}

async function expectConsentAtCrm(email: string, baseURL: string | undefined, sentAfter: number): Promise<void> {
  await expect.poll(() => crmDeliveryFor(email), { timeout: 15_000 }).toBeDefined();
  const delivery = (await crmDeliveryFor(email))!;
  expect(delivery).toMatchObject({
    callback_requested: true,
    callback_consent_text: WORDING.text,
    callback_consent_version: WORDING.version,
    callback_consent_page: `${baseURL}/contact`,
  });
  expect(Date.parse(String(delivery.callback_consent_at))).toBeGreaterThanOrEqual(sentAfter - 1_000);
}

test('contact form: the visitor ticks "call me back now" and the CRM receives the agreement in the owner’s words', async ({
  page,
  baseURL,
}) => {
  const email = `callback-${randomUUID().slice(0, 8)}@relay-test.example`;
  await page.clock.install();
  const form = await openAndFill(page, CONTACT, valuesWithEmail(CONTACT, email));
  await page.clock.fastForward(HUMAN_FILL_TIME_MS);
  const sentAfter = Date.now();
  await sendTicked(page, form);
  await CONTACT.confirm(page);
  await expectConsentAtCrm(email, baseURL, sentAfter);
  // A successful send empties the form, the tick box included.
  await expect(form.getByRole('checkbox', { name: WORDING.label })).not.toBeChecked();
});

test('contact form left unticked: the CRM is told no call-back was asked for, and gets no agreement', async ({ page }) => {
  const email = `no-callback-${randomUUID().slice(0, 8)}@relay-test.example`;
  await page.clock.install();
  const form = await openAndFill(page, CONTACT, valuesWithEmail(CONTACT, email));
  await page.clock.fastForward(HUMAN_FILL_TIME_MS);
  await form.getByRole('button', { name: CONTACT.button }).click();
  await CONTACT.confirm(page);
  await expect.poll(() => crmDeliveryFor(email), { timeout: 15_000 }).toBeDefined();
  const delivery = (await crmDeliveryFor(email))!;
  expect(delivery.callback_requested).toBe(false);
  expect(Object.keys(delivery).filter((key) => key.startsWith('callback_consent'))).toEqual([]);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the prerendered contact form posts the ticked box, and the CRM receives the agreement', async ({ page, baseURL }) => {
    const email = `callback-nojs-${randomUUID().slice(0, 8)}@relay-test.example`;
    await page.goto('/contact');
    const form = page.getByRole('form', { name: CONTACT.heading });
    for (const [label, , value, control] of valuesWithEmail(CONTACT, email)) {
      const field = form.getByLabel(label, { exact: true });
      if (control === 'select') await field.selectOption(value);
      else await field.fill(value);
    }
    const sentAfter = Date.now();
    await sendTicked(page, form);
    await expect(page).toHaveURL(/\/thankyou$/);
    await expectConsentAtCrm(email, baseURL, sentAfter);
  });
});
