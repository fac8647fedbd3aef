// The landing page's lead form (/ai-transformation), against the built site.
import { expect, test, type Page } from '@playwright/test';
import {
  UTM_FIELDS,
  UTM_QUERY,
  UUID,
  expectFieldError,
  expectNoFieldError,
  expectSubmissionTimes,
  expectToast,
  startLeadReceiver,
  tabUntilFocused,
} from './lead-receiver.ts';
import { isSameDocument, markDocument, waitForHydration } from './support.ts';

const FORM_NAME = 'Claim Your Free 30-Minute Strategy Session';
const SUCCESS = ['Success!', "We'll contact you within 24 hours to discuss your AI transformation."] as const;
const VALUES = {
  name: "Seán O'Brien",
  email: 'sean@smithandsons.example',
  phone: '+1 512 555 0147',
  company: 'Smith & Sons',
  revenue: '1m-5m',
  challenge: 'Our sales team spends 20 hours a week on data entry & follow-ups.',
  bestTime: 'afternoon',
};

async function openForm(page: Page, path = '/ai-transformation') {
  await page.goto(path);
  await waitForHydration(page);
  const form = page.getByRole('form', { name: FORM_NAME });
  return {
    form,
    name: form.getByLabel('Full Name'),
    email: form.getByLabel('Business Email'),
    phone: form.getByLabel('Phone Number'),
    company: form.getByLabel('Company Name'),
    revenue: form.getByLabel('Annual Revenue'),
    challenge: form.getByLabel('Biggest Challenge'),
    bestTime: form.getByLabel('Best Time to Call'),
    submit: form.getByRole('button', { name: 'Claim My Free Strategy Session' }),
  };
}

type Fields = Awaited<ReturnType<typeof openForm>>;

async function fillValid(fields: Fields) {
  await fields.name.fill(VALUES.name);
  await fields.email.fill(VALUES.email);
  await fields.phone.fill(VALUES.phone);
  await fields.company.fill(VALUES.company);
  await fields.revenue.selectOption(VALUES.revenue);
  await fields.bestTime.selectOption(VALUES.bestTime);
  await fields.challenge.fill(VALUES.challenge);
}

test("validation: the lead schema's messages under the fields; best time is optional; cleared on edit", async ({ page }) => {
  const receiver = await startLeadReceiver(page);
  const fields = await openForm(page);
  await fields.phone.fill('555 CALL ME');
  await fields.submit.click();

  await expectToast(page, 'Validation Error', 'Please check the form for errors.');
  await expectFieldError(fields.name, 'Name must be at least 2 characters');
  await expectFieldError(fields.email, 'Required');
  await expectFieldError(fields.phone, 'Please enter a valid phone number');
  await expectFieldError(fields.company, 'Company name required');
  await expectFieldError(fields.revenue, 'Please select your annual revenue');
  await expectFieldError(fields.challenge, 'Required');
  await expectNoFieldError(fields.bestTime);
  await expect(fields.name).toBeFocused();

  await fields.revenue.selectOption('under-1m');
  await expectNoFieldError(fields.revenue);
  await expectFieldError(fields.challenge, 'Required');
  expect(receiver.leads).toHaveLength(0);
});

test('success: the exact request to the relay and its headers, then client-side navigation to /thankyou with the toast still showing', async ({
  page,
  baseURL,
}) => {
  const startedAtMs = Date.now();
  const receiver = await startLeadReceiver(page, 201);
  receiver.hold();
  const fields = await openForm(page, `/ai-transformation?${UTM_QUERY}`);
  await markDocument(page);
  await fillValid(fields);
  await fields.submit.click();
  await expect(fields.form.getByRole('button', { name: 'Sending...' })).toBeDisabled();
  receiver.release();

  // Hovering pauses the toast's 4 s timer, so it is still there after the route has loaded.
  const toast = await expectToast(page, ...SUCCESS, 'success');
  await toast.hover();
  await expect(page).toHaveURL(`${baseURL}/thankyou`, { timeout: 15_000 });
  await expect(page.getByRole('form', { name: FORM_NAME })).toHaveCount(0);
  await expect(toast).toBeVisible();
  expect(await isSameDocument(page)).toBe(true);

  expect(receiver.leads).toHaveLength(1);
  const [lead] = receiver.leads;
  expect(lead!.body).toEqual({
    ...UTM_FIELDS,
    landing_page: `${baseURL}/ai-transformation?${UTM_QUERY}`,
    ...VALUES,
    submitted_at: expect.any(String),
    source: 'AI Transformation Landing Page',
    page_url: `${baseURL}/ai-transformation?${UTM_QUERY}`,
    user_agent: await page.evaluate(() => navigator.userAgent),
    referrer: '',
    website: '',
    form_shown_at: expect.any(Number),
  });
  expectSubmissionTimes(lead!.body, startedAtMs);
  expect(lead!.headers['content-type']).toBe('application/json');
  expect(lead!.headers['idempotency-key']).toMatch(UUID);
  expect(lead!.headers['x-requested-with']).toBeUndefined();
});

test('rate limit: after three failed sends within a minute the fourth is refused and not sent', async ({ page }) => {
  const receiver = await startLeadReceiver(page, 500);
  const fields = await openForm(page);
  await fillValid(fields);
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    await fields.submit.click();
    await expect.poll(() => receiver.leads.length).toBe(attempt);
    await expect(fields.submit).toBeEnabled();
  }
  await fields.submit.click();
  await expectToast(page, 'Too many attempts', 'Please wait a moment before submitting again.');
  expect(receiver.leads).toHaveLength(3);
});

test('keyboard only: Tab, type, type-ahead in the selects, Enter to send, lands on /thankyou', async ({ page, baseURL }) => {
  test.setTimeout(60_000);
  const receiver = await startLeadReceiver(page);
  const fields = await openForm(page);
  await tabUntilFocused(page, fields.name);
  for (const text of [VALUES.name, VALUES.email, VALUES.phone, VALUES.company]) {
    await page.keyboard.type(text);
    await page.keyboard.press('Tab');
  }
  await expect(fields.revenue).toBeFocused();
  await page.keyboard.type('$1M');
  await expect(fields.revenue).toHaveValue('1m-5m');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Afternoon');
  await expect(fields.bestTime).toHaveValue('afternoon');
  await page.keyboard.press('Tab');
  await expect(fields.challenge).toBeFocused();
  await page.keyboard.type(VALUES.challenge);
  await page.keyboard.press('Tab');
  // The optional "call me back now" box comes between the last field and the button, unticked.
  await expect(page.getByRole('checkbox', { name: /call me back now/i })).toBeFocused();
  await expect(page.getByRole('checkbox', { name: /call me back now/i })).not.toBeChecked();
  await page.keyboard.press('Tab');
  await expect(fields.submit).toBeFocused();
  await page.keyboard.press('Enter');

  await expect(page).toHaveURL(`${baseURL}/thankyou`, { timeout: 15_000 });
  expect(receiver.leads).toHaveLength(1);
  expect(receiver.leads[0]!.body).toMatchObject(VALUES);
});
