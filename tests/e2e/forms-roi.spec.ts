// The ROI calculator (/calculator): the form, the result screen and its chart, against the built site.
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
import { BOOKING_URL, waitForHydration } from './support.ts';

const FORM_NAME = 'Get Your Personalized ROI Analysis';
const BUTTON = 'Get My ROI Analysis & Book Session';
const RESULT_HEADING = 'Success! Your ROI Analysis is Ready';
// Nothing is booked when the form is sent: the toast says what happens next (booking.spec.ts books).
const SUCCESS = ['Success!', 'Our team will call you within 24 hours — or pick a time now.'] as const;

const CONTACT = { name: "Seán O'Brien", email: 'sean@smithandsons.example', phone: '(512) 555-0147', company: 'Smith & Sons' };
const BUSINESS = {
  companySize: '11-50',
  currentRevenue: '2000000',
  industry: 'technology',
  teamSize: '10',
  averageSalary: '60000',
  manualHours: '10-20',
};

// The ROI maths by hand for technology, $2,000,000 revenue, $60,000 salary, 10 people, 10-20 hours:
const UPLIFT_RATE = 0.15;
const WEEKLY_HOURS_SAVED = 15;
const HOURLY_WAGE_USD = 60_000 / (52 * 40);
const REVENUE_INCREASE_USD = 2_000_000 * UPLIFT_RATE; // 300,000
const LABOR_SAVINGS_USD = WEEKLY_HOURS_SAVED * 52 * HOURLY_WAGE_USD * 10; // 225,000
const TOTAL_SAVINGS_USD = REVENUE_INCREASE_USD + LABOR_SAVINGS_USD; // 525,000
const ROI_PERCENT = Math.max(0, ((TOTAL_SAVINGS_USD - 50_000) / 50_000) * 100); // 950
const usd = (amount: number) => `$${Math.round(amount).toLocaleString('en-US')}`;

async function openForm(page: Page, path = '/calculator') {
  await page.goto(path);
  await waitForHydration(page);
  const form = page.getByRole('form', { name: FORM_NAME });
  const field = (label: string) => form.getByLabel(label, { exact: true });
  return {
    form,
    name: field('Full Name'),
    email: field('Business Email'),
    phone: field('Phone Number'),
    company: field('Company Name'),
    companySize: field('Company Size'),
    currentRevenue: field('Annual Revenue'),
    industry: field('Industry'),
    teamSize: field('Team Size'),
    averageSalary: field('Average Salary'),
    manualHours: field('Manual Hours per Week'),
    bestTime: field('Best Time to Contact'),
    challenge: field('Biggest Challenge'),
    submit: form.getByRole('button', { name: BUTTON }),
  };
}

type Fields = Awaited<ReturnType<typeof openForm>>;

async function fillValid(fields: Fields) {
  await fields.name.fill(CONTACT.name);
  await fields.email.fill(CONTACT.email);
  await fields.phone.fill(CONTACT.phone);
  await fields.company.fill(CONTACT.company);
  await fields.companySize.selectOption(BUSINESS.companySize);
  await fields.currentRevenue.fill(BUSINESS.currentRevenue);
  await fields.industry.selectOption(BUSINESS.industry);
  await fields.teamSize.fill(BUSINESS.teamSize);
  await fields.averageSalary.fill(BUSINESS.averageSalary);
  await fields.manualHours.selectOption(BUSINESS.manualHours);
}

test("the number inputs' attributes and the three groups", async ({ page }) => {
  const fields = await openForm(page);
  for (const amount of [fields.currentRevenue, fields.averageSalary]) {
    await expect(amount).toHaveAttribute('type', 'number');
    await expect(amount).toHaveAttribute('min', '0');
    await expect(amount).toHaveAttribute('step', '1000');
  }
  await expect(fields.teamSize).toHaveAttribute('type', 'number');
  await expect(fields.teamSize).toHaveAttribute('min', '1');
  for (const group of ['Contact Information', 'Business Information', 'Additional Information']) {
    await expect(fields.form.getByRole('group', { name: group })).toBeVisible();
  }
});

test('validation: every required field says what it needs; optional ones stay quiet; cleared on edit', async ({ page }) => {
  const receiver = await startLeadReceiver(page);
  const fields = await openForm(page);
  await fields.submit.click();

  await expectToast(page, 'Validation Error', 'Please check the form and correct any errors.');
  const expected: [keyof Fields, string][] = [
    ['name', 'Name must be at least 2 characters'],
    ['email', 'Please enter a valid business email address'],
    ['phone', 'Please enter a valid phone number'],
    ['company', 'Company name required'],
    ['companySize', 'Please select company size'],
    ['currentRevenue', 'Please enter annual revenue'],
    ['industry', 'Please select industry'],
    ['teamSize', 'Please enter team size'],
    ['averageSalary', 'Please enter average salary'],
    ['manualHours', 'Please select manual hours per week'],
  ];
  for (const [key, message] of expected) await expectFieldError(fields[key] as Fields['name'], message);
  await expectNoFieldError(fields.bestTime);
  await expectNoFieldError(fields.challenge);
  await expect(fields.name).toBeFocused();

  await fields.teamSize.fill('0');
  await expectNoFieldError(fields.teamSize);
  await expectFieldError(fields.averageSalary, 'Please enter average salary');
  expect(receiver.leads).toHaveLength(0);
});

test.describe('with a long user agent', () => {
  const userAgent = `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) ${'RoiTest/2.0 '.repeat(25)}`;
  test.use({ userAgent });

  test('success: the result screen with its figures and the chart; the exact request to the relay and its headers', async ({
    page,
    baseURL,
  }) => {
    const startedAtMs = Date.now();
    const receiver = await startLeadReceiver(page, 201);
    receiver.hold();
    const fields = await openForm(page, `/calculator?${UTM_QUERY}`);
    await fillValid(fields);
    await fields.bestTime.selectOption('morning');
    await fields.challenge.fill('Quoting takes our team 3 days & loses deals.');
    await fields.submit.click();
    await expect(fields.form.getByRole('button', { name: 'Calculating Your ROI...' })).toBeDisabled();
    receiver.release();

    const heading = page.getByRole('heading', { name: RESULT_HEADING });
    await expect(heading).toBeVisible();
    await expect(heading).toBeFocused();
    await expectToast(page, ...SUCCESS, 'success');
    await expect(fields.form).toHaveCount(0);

    const result = page.locator('section', { has: heading });
    const figure = (term: string) => result.locator('dt', { hasText: new RegExp(`^${term}$`) }).locator('xpath=following-sibling::dd');
    await expect(figure('Total Annual Savings')).toHaveText(usd(TOTAL_SAVINGS_USD));
    await expect(figure('Return on Investment')).toHaveText(`${ROI_PERCENT.toFixed(0)}%`);
    await expect(figure('Weekly Hours Saved')).toContainText(String(WEEKLY_HOURS_SAVED));
    await expect(figure('Additional Revenue')).toContainText(usd(REVENUE_INCREASE_USD));
    await expect(figure('Labor Cost Savings')).toContainText(usd(LABOR_SAVINGS_USD));
    await expect(figure('Implementation Timeline')).toHaveText('7-90 days depending on project');
    expect([usd(TOTAL_SAVINGS_USD), `${ROI_PERCENT}%`]).toEqual(['$525,000', '950%']);

    const chart = result.getByRole('img', { name: 'Where your savings come from', exact: true });
    await expect(chart).toBeVisible();
    await expect(chart).toHaveAccessibleDescription(
      'Revenue increase $300,000, labor cost savings $225,000, compared with an investment of $50,000. Total annual savings of $525,000 are 10.5 times the investment.',
    );
    await expect(chart.locator('[data-bar]')).toHaveCount(3);
    await expect(chart.locator('[data-bar="labor"] rect[data-width-percent]')).toHaveAttribute('data-width-percent', '75.00');

    // The result screen offers a time in the page, and the same calendar in a new tab, prefilled.
    await expect(result.getByRole('button', { name: 'Pick a time now' })).toBeVisible();
    await expect(result.getByRole('link', { name: /Book Appointment Now/ })).toHaveCount(0);
    const booking = result.getByRole('link', { name: /Open the calendar in a new tab/ });
    await expect(booking).toHaveAttribute('target', '_blank');
    const bookingUrl = new URL((await booking.getAttribute('href'))!);
    expect(`${bookingUrl.origin}${bookingUrl.pathname}`).toBe(BOOKING_URL);
    expect(Object.fromEntries(bookingUrl.searchParams)).toEqual({ name: CONTACT.name, email: CONTACT.email, 'metadata[leadId]': 'lead-1' });

    expect(receiver.leads).toHaveLength(1);
    const [lead] = receiver.leads;
    expect(lead!.body).toEqual({
      ...UTM_FIELDS,
      landing_page: `${baseURL}/calculator?${UTM_QUERY}`,
      ...CONTACT,
      companySize: '11-50',
      // The amount as typed: the relay turns it into the bracket and computes every figure itself.
      currentRevenue: '2000000',
      industry: 'technology',
      teamSize: '10',
      averageSalary: '60000',
      manualHours: '10-20',
      challenge: 'Quoting takes our team 3 days & loses deals.',
      best_time: 'morning',
      submitted_at: expect.any(String),
      source: 'AI ROI Calculator + Lead Form',
      page_url: `${baseURL}/calculator?${UTM_QUERY}`,
      user_agent: userAgent,
      referrer: '',
      website: '',
      form_shown_at: expect.any(Number),
    });
    expectSubmissionTimes(lead!.body, startedAtMs);
    expect(lead!.headers['content-type']).toBe('application/json');
    expect(lead!.headers['x-requested-with']).toBe('XMLHttpRequest');
    expect(lead!.headers['idempotency-key']).toMatch(UUID);
  });
});

test("the result screen's style rules are in the page already: showing it adds none (a slow phone would restyle the whole page)", async ({
  page,
}) => {
  await startLeadReceiver(page, 201);
  const fields = await openForm(page);
  await fillValid(fields);
  // The rules emotion adds in the browser, and which: those the prerendered page did not hold.
  const addedRules = () =>
    page.evaluate(() =>
      [...document.querySelectorAll<HTMLStyleElement>('style[data-emotion]:not([data-prerendered-styles])')].flatMap((style) =>
        [...(style.sheet?.cssRules ?? [])].map((rule) => rule.cssText.slice(0, 80)),
      ),
    );
  const before = await addedRules();
  await fields.submit.click();
  await expect(page.getByRole('heading', { name: RESULT_HEADING })).toBeFocused();
  // The last part of the screen to appear.
  await expect(page.getByRole('button', { name: 'Calculate Another ROI' })).toBeVisible();
  expect(await addedRules()).toEqual(before);
});

test('Calculate Another ROI returns to an empty form with focus on its first field', async ({ page }) => {
  await startLeadReceiver(page, 201);
  const fields = await openForm(page);
  await fillValid(fields);
  await fields.submit.click();
  await page.getByRole('button', { name: 'Calculate Another ROI' }).click();

  const again = page.getByRole('form', { name: FORM_NAME });
  await expect(again).toBeVisible();
  await expect(again.getByLabel('Full Name')).toBeFocused();
  for (const label of ['Full Name', 'Company Name', 'Annual Revenue', 'Team Size', 'Average Salary', 'Industry', 'Manual Hours per Week']) {
    await expect(again.getByLabel(label, { exact: true })).toHaveValue('');
  }
});

test('rate limit: three attempts a minute count at check time; the fourth is refused and nothing is sent', async ({ page }) => {
  const receiver = await startLeadReceiver(page);
  const fields = await openForm(page);
  // The first press also downloads the validation rules, and presses while a submission is under
  // way are the same submission; once it is answered, every press is answered at once.
  await fields.submit.click();
  await expectToast(page, 'Validation Error', 'Please check the form and correct any errors.');
  for (let press = 1; press < 3; press += 1) await fields.submit.click();
  await fillValid(fields);
  await fields.submit.click();
  await expectToast(page, 'Too many attempts', /^Please wait \d{1,2} seconds before submitting again\.$/, 'default');
  expect(receiver.leads).toHaveLength(0);
  await expect(page.getByRole('heading', { name: RESULT_HEADING })).toHaveCount(0);
});

test('keyboard only: Tab through both columns, type and type-ahead, Enter; the result screen takes focus', async ({ page }) => {
  test.setTimeout(60_000);
  const receiver = await startLeadReceiver(page);
  const fields = await openForm(page);
  await tabUntilFocused(page, fields.name);
  const steps: [Fields['name'], string][] = [
    [fields.name, CONTACT.name],
    [fields.email, CONTACT.email],
    [fields.phone, CONTACT.phone],
    [fields.company, CONTACT.company],
    [fields.companySize, '11'],
    [fields.industry, 'Tech'],
    [fields.currentRevenue, BUSINESS.currentRevenue],
    [fields.averageSalary, BUSINESS.averageSalary],
    [fields.teamSize, BUSINESS.teamSize],
    [fields.manualHours, '10'],
  ];
  for (const [field, text] of steps) {
    await expect(field).toBeFocused();
    await page.keyboard.type(text);
    await page.keyboard.press('Tab');
  }
  await expect(fields.companySize).toHaveValue('11-50');
  await expect(fields.industry).toHaveValue('technology');
  await expect(fields.manualHours).toHaveValue('10-20');
  await expect(fields.bestTime).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(fields.challenge).toBeFocused();
  await page.keyboard.press('Tab');
  // The optional "call me back now" box comes between the last field and the button, unticked.
  await expect(page.getByRole('checkbox', { name: /call me back now/i })).toBeFocused();
  await expect(page.getByRole('checkbox', { name: /call me back now/i })).not.toBeChecked();
  await page.keyboard.press('Tab');
  await expect(fields.submit).toBeFocused();
  await page.keyboard.press('Enter');

  await expect(page.getByRole('heading', { name: RESULT_HEADING })).toBeFocused();
  expect(receiver.leads).toHaveLength(1);
  expect(receiver.leads[0]!.body).toMatchObject({ ...CONTACT, ...BUSINESS });
});
