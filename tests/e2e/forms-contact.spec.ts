// The contact page form ('Send Us a Message'), against the built site.
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

const FORM_NAME = 'Send Us a Message';
const SUCCESS = ['Message sent successfully!', "Thank you for contacting us. We'll get back to you within 24 hours."] as const;
const VALUES = {
  name: "Seán O'Brien",
  email: 'sean@smithandsons.example',
  phone: '512-555-0147',
  company: 'Smith & Sons',
  service_interest: 'AI Consulting',
  message: 'We miss calls after hours & want an AI receptionist.',
};
// User_agent is cut to 200 characters.
const LONG_USER_AGENT = `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36 ${'LeadTest/1.0 '.repeat(20)}`;

async function openForm(page: Page, path = '/contact') {
  await page.goto(path);
  await waitForHydration(page);
  const form = page.getByRole('form', { name: FORM_NAME });
  return {
    form,
    name: form.getByLabel('Full Name'),
    email: form.getByLabel('Email', { exact: true }),
    phone: form.getByLabel('Phone', { exact: true }),
    company: form.getByLabel('Company', { exact: true }),
    service: form.getByLabel('Service Interest'),
    message: form.getByLabel('Message', { exact: true }),
    submit: form.getByRole('button', { name: 'Send Message' }),
  };
}

type Fields = Awaited<ReturnType<typeof openForm>>;

async function fillValid(fields: Fields) {
  await fields.name.fill(VALUES.name);
  await fields.email.fill(VALUES.email);
  await fields.phone.fill(VALUES.phone);
  await fields.company.fill(VALUES.company);
  await fields.service.selectOption(VALUES.service_interest);
  await fields.message.fill(VALUES.message);
}

test('validation: Required under each required field, the message bound, no error on the optional company', async ({ page }) => {
  const receiver = await startLeadReceiver(page);
  const fields = await openForm(page);
  await fields.submit.click();

  await expectToast(page, 'Validation Error', 'Please check the form fields and try again.');
  for (const field of [fields.name, fields.email, fields.phone, fields.service, fields.message]) await expectFieldError(field, 'Required');
  await expectNoFieldError(fields.company);
  await expect(fields.company).toHaveAccessibleDescription('Optional');
  await expect(fields.name).toBeFocused();

  await fields.name.fill('Ann');
  await expectNoFieldError(fields.name);
  await fields.message.fill('Too short');
  await fields.email.fill('ann@example');
  await fields.submit.click();
  await expectFieldError(fields.message, 'Message must be at least 10 characters');
  await expectFieldError(fields.email, 'Invalid email');
  await expect(fields.email).toBeFocused();
  expect(receiver.leads).toHaveLength(0);
});

test('?service= preselects the service, and follows client-side navigation', async ({ page }) => {
  const fields = await openForm(page, '/contact?service=AI%20Voice%20Services#contact-form');
  await expect(fields.service).toHaveValue('AI Voice Services');
  await markDocument(page);
  await page.locator('main a[href*="service=AI%20Consulting"]').click();
  await expect(page).toHaveURL(/\?service=AI%20Consulting#contact-form$/);
  await expect(fields.service).toHaveValue('AI Consulting');
  expect(await isSameDocument(page)).toBe(true);
});

test.describe('with a long user agent', () => {
  test.use({ userAgent: LONG_USER_AGENT });

  test('success: the exact request to the relay (values, the whole user agent, attribution) and headers; fields reset', async ({
    page,
    baseURL,
  }) => {
    const startedAtMs = Date.now();
    const receiver = await startLeadReceiver(page, 201);
    receiver.hold();
    const fields = await openForm(page, `/contact?${UTM_QUERY}`);
    await fillValid(fields);
    await fields.submit.click();
    await expect(fields.form.getByRole('button', { name: 'Sending...' })).toBeDisabled();
    receiver.release();

    await expectToast(page, ...SUCCESS, 'success');
    for (const field of [fields.name, fields.email, fields.phone, fields.company, fields.service, fields.message])
      await expect(field).toHaveValue('');

    expect(receiver.leads).toHaveLength(1);
    const [lead] = receiver.leads;
    expect(lead!.body).toEqual({
      ...UTM_FIELDS,
      landing_page: `${baseURL}/contact?${UTM_QUERY}`,
      ...VALUES,
      submitted_at: expect.any(String),
      source: 'Contact Page Form',
      page_url: `${baseURL}/contact?${UTM_QUERY}`,
      // The relay cuts it to 200 characters and writes 'direct' for no referrer (forms-relay.spec.ts).
      user_agent: LONG_USER_AGENT,
      referrer: '',
      website: '',
      form_shown_at: expect.any(Number),
    });
    expectSubmissionTimes(lead!.body, startedAtMs);
    expect(lead!.headers['content-type']).toBe('application/json');
    expect(lead!.headers['idempotency-key']).toMatch(UUID);
    // Only the home and ROI forms mark their requests as XMLHttpRequest.
    expect(lead!.headers['x-requested-with']).toBeUndefined();
  });
});

test('rate limit: two messages per 5 minutes, successes included; the third is refused and not sent', async ({ page }) => {
  const receiver = await startLeadReceiver(page, 201);
  const fields = await openForm(page);
  for (let message = 0; message < 2; message += 1) {
    await fillValid(fields);
    await fields.submit.click();
    await expect(fields.name).toHaveValue('');
  }
  await fillValid(fields);
  await fields.submit.click();
  await expectToast(page, 'Rate limit exceeded', /^Please wait (2\d\d|300) seconds before submitting again\.$/, 'destructive');
  expect(receiver.leads).toHaveLength(2);
  await expect(fields.message).toHaveValue(VALUES.message);
});

test('keyboard only: Tab, type (type-ahead in the select), Enter to send', async ({ page }) => {
  test.setTimeout(60_000);
  const receiver = await startLeadReceiver(page);
  const fields = await openForm(page);
  await tabUntilFocused(page, fields.name);
  for (const text of [VALUES.name, VALUES.email, VALUES.phone, VALUES.company]) {
    await page.keyboard.type(text);
    await page.keyboard.press('Tab');
  }
  await expect(fields.service).toBeFocused();
  await page.keyboard.type('AI Consulting');
  await expect(fields.service).toHaveValue('AI Consulting');
  await page.keyboard.press('Tab');
  await page.keyboard.type(VALUES.message);
  await page.keyboard.press('Tab');
  // The optional "call me back now" box comes between the last field and the button, unticked.
  await expect(page.getByRole('checkbox', { name: /call me back now/i })).toBeFocused();
  await expect(page.getByRole('checkbox', { name: /call me back now/i })).not.toBeChecked();
  await page.keyboard.press('Tab');
  await expect(fields.submit).toBeFocused();
  await page.keyboard.press('Enter');

  await expectToast(page, ...SUCCESS);
  expect(receiver.leads).toHaveLength(1);
  expect(receiver.leads[0]!.body).toMatchObject(VALUES);
});
