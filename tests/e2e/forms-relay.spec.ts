// The main path, end to end, for each of the four forms: a visitor fills the form in Chromium, the
// browser sends it to the real lead relay (nothing stubbed), the relay stores it and forwards it to
// the CRM (a receiver run beside the server, tests/e2e/crm-receiver-process.ts), and the journey
// checks what the CRM received: the values, the form's `source`, the relay's figures and the visit.
import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { CRM_RECEIVER_URL } from '../../playwright.config.ts';
import { waitForHydration } from './support.ts';

type FieldEntry = readonly [label: string, wireName: string, value: string, control: 'fill' | 'select'];
type Journey = {
  readonly form: string;
  readonly path: string;
  readonly heading: string;
  readonly button: string;
  readonly source: string;
  readonly fields: readonly FieldEntry[];
  /** What the visitor sees once the relay has taken the lead. */
  readonly confirm: (page: Page) => Promise<void>;
  /** What the CRM receives besides the values as typed. */
  readonly crmExtras: Readonly<Record<string, unknown>>;
};

const HUMAN_FILL_TIME_MS = 5_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const UTM_QUERY = 'utm_source=relay-journey&utm_campaign=winter&gclid=GCLID-7';
const LONG_USER_AGENT = `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) ${'Journey/1.0 '.repeat(20)}`;
const toast = (page: Page, title: string) => expect(page.locator('[data-sonner-toast]').filter({ hasText: title }).first()).toBeVisible();

const JOURNEYS: readonly Journey[] = [
  {
    form: 'home',
    path: '/',
    heading: 'Get Your Free Consultation',
    button: 'Get Started Now',
    source: 'Homepage Simple Lead Form',
    fields: [
      ['Full Name', 'name', "Seán O'Brien", 'fill'],
      ['Business Email', 'email', '', 'fill'],
      ['Phone Number', 'phone', '+1 (512) 555-0147', 'fill'],
      ['Company Name', 'company', 'Smith & Sons', 'fill'],
    ],
    confirm: (page) => toast(page, 'Success!'),
    crmExtras: {},
  },
  {
    form: 'ROI',
    path: '/calculator',
    heading: 'Get Your Personalized ROI Analysis',
    button: 'Get My ROI Analysis & Book Session',
    source: 'AI ROI Calculator + Lead Form',
    fields: [
      ['Full Name', 'name', 'Ada Lovelace', 'fill'],
      ['Business Email', 'email', '', 'fill'],
      ['Phone Number', 'phone', '(512) 555-0147', 'fill'],
      ['Company Name', 'company', 'Analytical Engines', 'fill'],
      ['Company Size', 'companySize', '11-50', 'select'],
      ['Annual Revenue', 'currentRevenue', '2000000', 'fill'],
      ['Industry', 'industry', 'technology', 'select'],
      ['Team Size', 'teamSize', '10', 'fill'],
      ['Average Salary', 'averageSalary', '60000', 'fill'],
      ['Manual Hours per Week', 'manualHours', '10-20', 'select'],
      ['Best Time to Contact', 'best_time', 'morning', 'select'],
      ['Biggest Challenge', 'challenge', 'Data: 3 systems & no "single" view', 'fill'],
    ],
    confirm: (page) => expect(page.getByRole('heading', { name: 'Success! Your ROI Analysis is Ready' })).toBeVisible(),
    // Computed by the relay with the build's numbers: 2,000,000 × 0.15 = 300,000 and
    // 15 h × 52 × (60,000 / 2,080) × 10 = 225,000; (525,000 − 50,000) / 50,000 = 950 %.
    crmExtras: {
      currentRevenue: '2M-5M',
      current_revenue_usd: 2_000_000,
      roi_revenue_increase: 300_000,
      roi_labor_savings: 225_000,
      roi_total_savings: 525_000,
      roi_percentage: 950,
      roi_hours_saved_weekly: 15,
      roi_uplift_percentage: 15,
      user_agent: LONG_USER_AGENT.slice(0, 200),
      referrer: 'direct',
    },
  },
  {
    form: 'contact',
    path: '/contact',
    heading: 'Send Us a Message',
    button: 'Send Message',
    source: 'Contact Page Form',
    fields: [
      ['Full Name', 'name', 'Grace Hopper', 'fill'],
      ['Email', 'email', '', 'fill'],
      ['Phone', 'phone', '512-555-0147', 'fill'],
      ['Company', 'company', 'Compilers & Co.', 'fill'],
      ['Service Interest', 'service_interest', 'Both Services', 'select'],
      ['Message', 'message', 'onboarding=2 weeks, 5 < 6 > 4: please call.', 'fill'],
    ],
    confirm: (page) => toast(page, 'Message sent successfully!'),
    crmExtras: { user_agent: LONG_USER_AGENT.slice(0, 200), referrer: 'direct' },
  },
  {
    form: 'landing',
    path: '/ai-transformation',
    heading: 'Claim Your Free 30-Minute Strategy Session',
    button: 'Claim My Free Strategy Session',
    source: 'AI Transformation Landing Page',
    fields: [
      ['Full Name', 'name', 'Katherine Johnson', 'fill'],
      ['Business Email', 'email', '', 'fill'],
      ['Phone Number', 'phone', '+1 512 555 0147', 'fill'],
      ['Company Name', 'company', 'Orbital Mechanics', 'fill'],
      ['Annual Revenue', 'revenue', '5m-10m', 'select'],
      ['Biggest Challenge', 'challenge', 'Scheduling eats our week.', 'fill'],
      ['Best Time to Call', 'bestTime', 'evening', 'select'],
    ],
    confirm: (page) => expect(page).toHaveURL(/\/thankyou$/),
    crmExtras: {},
  },
];

/** Whatever the CRM has received for this address so far. */
async function crmDeliveriesFor(email: string): Promise<Array<{ headers: Record<string, string>; body: Record<string, unknown> }>> {
  const response = await fetch(`${CRM_RECEIVER_URL}/received`);
  const all = (await response.json()) as Array<{ headers: Record<string, string>; body: Record<string, unknown> }>;
  return all.filter((delivery) => delivery.body.email === email);
}

test.use({ userAgent: LONG_USER_AGENT });

for (const journey of JOURNEYS) {
  test(`${journey.form} form: the CRM receives what the visitor typed, with the relay's payload`, async ({ page, baseURL }) => {
    const email = `journey-${randomUUID().slice(0, 8)}@relay-test.example`;
    const values = journey.fields.map(([label, wire, value, control]) => [label, wire, wire === 'email' ? email : value, control] as const);
    // The page's clock runs as usual, and can be moved on: a person takes longer than 2 s to fill a
    // form, and the relay keeps faster submissions as spam, unforwarded.
    await page.clock.install();
    await page.goto(`${journey.path}?${UTM_QUERY}`);
    await waitForHydration(page);
    const form = page.getByRole('form', { name: journey.heading });
    for (const [label, , value, control] of values) {
      const field = form.getByLabel(label, { exact: true });
      if (control === 'select') await field.selectOption(value);
      else await field.fill(value);
    }
    await page.clock.fastForward(HUMAN_FILL_TIME_MS);
    const answer = page.waitForResponse((response) => response.url().endsWith('/api/leads') && response.request().method() === 'POST');
    await form.getByRole('button', { name: journey.button }).click();
    const relayAnswer = await answer;
    expect(relayAnswer.status()).toBe(201);
    const { id } = (await relayAnswer.json()) as { id: string };
    expect(id).toMatch(UUID);
    await journey.confirm(page);

    await expect.poll(async () => (await crmDeliveriesFor(email)).length, { timeout: 15_000 }).toBe(1);
    const [delivery] = await crmDeliveriesFor(email);
    const expected: Record<string, unknown> = Object.fromEntries(values.map(([, wire, value]) => [wire, value]));
    expect(delivery!.body).toMatchObject({
      ...expected,
      ...journey.crmExtras,
      source: journey.source,
      lead_id: id,
      page_url: `${baseURL}${journey.path}?${UTM_QUERY}`,
      utm_source: 'relay-journey',
      utm_campaign: 'winter',
      gclid: 'GCLID-7',
      landing_page: `${baseURL}${journey.path}?${UTM_QUERY}`,
    });
    expect(Date.parse(String(delivery!.body.submitted_at))).not.toBeNaN();
    // The browser's spam signals stay with the relay.
    expect(delivery!.body).not.toHaveProperty('website');
    expect(delivery!.body).not.toHaveProperty('form_shown_at');
    expect(delivery!.headers['idempotency-key']).toBe(id);
  });
}
