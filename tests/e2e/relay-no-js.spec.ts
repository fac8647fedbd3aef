// Forms posted without JavaScript reach the real lead relay (server/routes/leads.ts): success is a
// 303 to /thankyou, validation errors are a plain page listing each field's message with a link back.
import { expect, test } from '@playwright/test';

test.use({ javaScriptEnabled: false });

const FORM_NAME = 'Send Us a Message';

test('a valid contact form post lands on /thankyou', async ({ page }) => {
  await page.goto('/contact');
  const form = page.getByRole('form', { name: FORM_NAME });
  await form.getByLabel('Full Name').fill("Seán O'Brien");
  await form.getByLabel('Email', { exact: true }).fill('sean.nojs@smithandsons.example');
  await form.getByLabel('Phone', { exact: true }).fill('512-555-0147');
  await form.getByLabel('Company', { exact: true }).fill('Smith & Sons');
  await form.getByLabel('Service Interest').selectOption('AI Consulting');
  await form.getByLabel('Message', { exact: true }).fill('We miss calls after hours & want an AI receptionist.');
  const [response] = await Promise.all([
    page.waitForResponse((answer) => answer.url().endsWith('/api/leads') && answer.request().method() === 'POST'),
    form.getByRole('button', { name: 'Send Message' }).click(),
  ]);
  expect(response.status()).toBe(303);
  await expect(page).toHaveURL(/\/thankyou$/);
});

test('an invalid post answers a page with each field’s message and a link back to the form', async ({ page }) => {
  await page.goto('/contact');
  const form = page.getByRole('form', { name: FORM_NAME });
  // The browser's own constraints would stop a too-short message; the server's check is what is tested.
  await form.evaluate((element) => element.setAttribute('novalidate', ''));
  await form.getByLabel('Full Name').fill('Ada Lovelace');
  await form.getByLabel('Email', { exact: true }).fill('ada@analytical.example');
  await form.getByLabel('Phone', { exact: true }).fill('512-555-0147');
  await form.getByLabel('Service Interest').selectOption('AI Consulting');
  await form.getByLabel('Message', { exact: true }).fill('Too short');
  await form.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByRole('heading', { name: 'Please check the form fields and try again.' })).toBeVisible();
  await expect(page.getByRole('listitem')).toHaveText(['Message: Message must be at least 10 characters']);
  await page.getByRole('link', { name: 'Back to the form' }).click();
  await expect(page).toHaveURL(/\/contact$/);
});
