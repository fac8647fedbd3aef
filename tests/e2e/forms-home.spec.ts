// The home page's simple lead form ('Get Your Free Consultation'), against the built site.
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
import { waitForHydration } from './support.ts';

const FORM_NAME = 'Get Your Free Consultation';
const VALUES = { name: "Seán O'Brien", email: 'sean@smithandsons.example', phone: '+1 (512) 555-0147', company: 'Smith & Sons' };

async function openForm(page: Page, path = '/') {
  await page.goto(path);
  await waitForHydration(page);
  const form = page.getByRole('form', { name: FORM_NAME });
  return {
    form,
    name: form.getByLabel('Full Name'),
    email: form.getByLabel('Business Email'),
    phone: form.getByLabel('Phone Number'),
    company: form.getByLabel('Company Name'),
    submit: form.getByRole('button', { name: 'Get Started Now' }),
  };
}

async function fillValid(fields: Awaited<ReturnType<typeof openForm>>) {
  await fields.name.fill(VALUES.name);
  await fields.email.fill(VALUES.email);
  await fields.phone.fill(VALUES.phone);
  await fields.company.fill(VALUES.company);
}

test('validation: per-field messages tied to the fields, focus on the first, cleared on edit; nothing sent', async ({ page }) => {
  const receiver = await startLeadReceiver(page);
  const fields = await openForm(page);
  await fields.name.fill('A');
  await fields.submit.click();

  await expectToast(page, 'Validation Error', 'Please check the form fields and try again.');
  await expectFieldError(fields.name, 'Name must be at least 2 characters');
  await expectFieldError(fields.email, 'Please enter a valid email');
  await expectFieldError(fields.phone, 'Please enter a valid phone number');
  await expectFieldError(fields.company, 'Company name required');
  await expect(fields.name).toBeFocused();

  await fields.email.fill('sean@');
  await expectNoFieldError(fields.email);
  await expectFieldError(fields.name, 'Name must be at least 2 characters');
  await expect(fields.form.getByText('Please enter a valid email')).toHaveCount(0);
  expect(receiver.leads).toHaveLength(0);
});

test('a press shows at once that the form is at work, before its values are checked: then the messages, and the form is free again', async ({
  page,
}) => {
  await startLeadReceiver(page);
  const fields = await openForm(page);
  // Every change of the form's busy state, as assistive technology is told of it.
  await fields.form.evaluate((form) => {
    const seen: (string | null)[] = [];
    (window as unknown as { busyStates: typeof seen }).busyStates = seen;
    new MutationObserver(() => seen.push(form.getAttribute('aria-busy'))).observe(form, { attributeFilter: ['aria-busy'] });
  });
  await fields.name.fill('A');
  await fields.submit.click();

  await expectFieldError(fields.name, 'Name must be at least 2 characters');
  await expect(fields.form).not.toHaveAttribute('aria-busy');
  expect(await page.evaluate(() => (window as unknown as { busyStates: (string | null)[] }).busyStates)).toEqual(['true', null]);
  await expect(fields.submit).toBeEnabled();
});

test('success: the exact request to the relay (values as typed, the visit) and its headers, the fields clear, the success toast shows', async ({
  page,
  baseURL,
}) => {
  const startedAtMs = Date.now();
  const receiver = await startLeadReceiver(page, 201);
  receiver.hold();
  const fields = await openForm(page, `/?${UTM_QUERY}`);
  await fillValid(fields);
  await fields.submit.click();

  const sending = fields.form.getByRole('button', { name: 'Sending...' });
  await expect(sending).toBeDisabled();
  await expect(fields.form).toHaveAttribute('aria-busy', 'true');
  receiver.release();

  await expectToast(page, 'Success!', "We'll be in touch soon to discuss your AI strategy.", 'success');
  for (const field of [fields.name, fields.email, fields.phone, fields.company]) await expect(field).toHaveValue('');
  await expect(fields.submit).toBeEnabled();

  expect(receiver.leads).toHaveLength(1);
  const [lead] = receiver.leads;
  expect(lead!.method).toBe('POST');
  expect(lead!.body).toEqual({
    ...UTM_FIELDS,
    landing_page: `${baseURL}/?${UTM_QUERY}`,
    name: "Seán O'Brien",
    email: VALUES.email,
    phone: VALUES.phone,
    company: 'Smith & Sons',
    submitted_at: expect.any(String),
    source: 'Homepage Simple Lead Form',
    page_url: `${baseURL}/?${UTM_QUERY}`,
    user_agent: await page.evaluate(() => navigator.userAgent),
    referrer: '',
    website: '',
    form_shown_at: expect.any(Number),
  });
  expectSubmissionTimes(lead!.body, startedAtMs);
  expect(lead!.rawBody).toContain(`"name":"Seán O'Brien"`);
  expect(lead!.rawBody).toContain('"company":"Smith & Sons"');
  expect(lead!.headers['content-type']).toBe('application/json');
  expect(lead!.headers['x-requested-with']).toBe('XMLHttpRequest');
  expect(lead!.headers['idempotency-key']).toMatch(UUID);
});

test('rate limit: the fourth press within 10 minutes is refused before validation, and nothing is sent', async ({ page }) => {
  const receiver = await startLeadReceiver(page);
  const fields = await openForm(page);
  // The first press also downloads the validation rules, and presses while a submission is under
  // way are the same submission; once it is answered, every press is answered at once.
  await fields.submit.click();
  await expectToast(page, 'Validation Error', 'Please check the form fields and try again.');
  for (let press = 1; press < 3; press += 1) await fields.submit.click();

  await fillValid(fields);
  await fields.submit.click();
  await expectToast(page, 'Rate limit exceeded', /^Please wait (5\d\d|600) seconds before submitting again\.$/, 'destructive');
  expect(receiver.leads).toHaveLength(0);
  await expect(fields.name).toHaveValue(VALUES.name);
});

test('keyboard only: Tab to the form, type, Tab to the button, Space to send', async ({ page }) => {
  test.setTimeout(60_000);
  const receiver = await startLeadReceiver(page);
  const fields = await openForm(page);
  await tabUntilFocused(page, fields.name);
  await page.keyboard.type(VALUES.name);
  await page.keyboard.press('Tab');
  await expect(fields.email).toBeFocused();
  await page.keyboard.type(VALUES.email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(VALUES.phone);
  await page.keyboard.press('Tab');
  await page.keyboard.type(VALUES.company);
  await page.keyboard.press('Tab');
  // The optional "call me back now" box comes between the last field and the button, unticked.
  await expect(page.getByRole('checkbox', { name: /call me back now/i })).toBeFocused();
  await expect(page.getByRole('checkbox', { name: /call me back now/i })).not.toBeChecked();
  await page.keyboard.press('Tab');
  await expect(fields.submit).toBeFocused();
  await page.keyboard.press('Space');

  await expectToast(page, 'Success!', "We'll be in touch soon to discuss your AI strategy.");
  expect(receiver.leads).toHaveLength(1);
  expect(receiver.leads[0]!.body).toMatchObject({ ...VALUES, website: '' });
});

test('the "calculate your ROI first" link leads to /calculator', async ({ page }) => {
  const fields = await openForm(page);
  await expect(fields.form.getByRole('link', { name: 'calculate your ROI first' })).toHaveAttribute('href', '/calculator');
});

test('sent before the form has hydrated (autofill, then Go): it waits, then goes as the form sends it, timed from when it was on screen', async ({
  page,
}) => {
  const receiver = await startLeadReceiver(page, 201);
  // Hold the island runtime back, as a slow phone would still be starting it.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/hydrate-island-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/');
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
  const island = page.locator('[data-island="form"]');
  const form = page.getByRole('form', { name: FORM_NAME });
  await form.scrollIntoViewIfNeeded();
  // The shell noted when the form came near the screen, before anything of it ran.
  await expect(island).toHaveAttribute('data-form-shown-at', /^\d+$/);
  const shownAt = Number(await island.getAttribute('data-form-shown-at'));
  await form.getByLabel('Full Name').fill(VALUES.name);
  await form.getByLabel('Business Email').fill(VALUES.email);
  await form.getByLabel('Phone Number').fill(VALUES.phone);
  await form.getByLabel('Company Name').fill(VALUES.company);
  await form.getByRole('button', { name: 'Get Started Now' }).click();
  // Not sent by the browser as a plain post: the page stays, nothing has gone out yet.
  await page.waitForTimeout(300);
  expect(new URL(page.url()).pathname).toBe('/');
  expect(receiver.leads).toHaveLength(0);
  expect(await island.getAttribute('data-hydrated')).toBeNull();

  release();
  await expectToast(page, 'Success!', "We'll be in touch soon to discuss your AI strategy.", 'success');
  expect(receiver.leads).toHaveLength(1);
  expect(receiver.leads[0]!.body).toMatchObject({ name: VALUES.name, company: VALUES.company, form_shown_at: shownAt });
  expect(new URL(page.url()).pathname).toBe('/');
});
