// The main path, end to end, for each of the four forms: a visitor fills the form in Chromium, the
// browser sends it to the real lead relay (nothing stubbed), the relay stores it and forwards it to
// the CRM (a receiver run beside the server, tests/e2e/crm-receiver-process.ts), and the journey
// checks what the CRM received: the values, the form's `source`, the relay's figures and the visit.
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { CRM_RECEIVER_URL } from '../../playwright.config.ts';
import { LEAD_FORM_PAGES, openAndFill, valuesWithEmail } from './lead-forms.ts';
import { waitForHydration } from './support.ts';
import { MIN_FILL_TIME_MS } from '../../server/leads/spam.ts';

const HUMAN_FILL_TIME_MS = 5_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const UTM_QUERY = 'utm_source=relay-journey&utm_campaign=winter&gclid=GCLID-7';
const LONG_USER_AGENT = `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) ${'Journey/1.0 '.repeat(20)}`;

/** What the CRM receives besides the values as typed, per form: what the relay adds or computes. */
const CRM_EXTRAS: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  home: {},
  // Computed by the relay with the build's numbers: 2,000,000 × 0.15 = 300,000 and
  // 15 h × 52 × (60,000 / 2,080) × 10 = 225,000; (525,000 − 50,000) / 50,000 = 950 %.
  ROI: {
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
  contact: { user_agent: LONG_USER_AGENT.slice(0, 200), referrer: 'direct' },
  landing: {},
};

/** Whatever the CRM has received for this address so far. */
async function crmDeliveriesFor(email: string): Promise<Array<{ headers: Record<string, string>; body: Record<string, unknown> }>> {
  const response = await fetch(`${CRM_RECEIVER_URL}/received`);
  const all = (await response.json()) as Array<{ headers: Record<string, string>; body: Record<string, unknown> }>;
  return all.filter((delivery) => delivery.body.email === email);
}

test.use({ userAgent: LONG_USER_AGENT });

for (const journey of LEAD_FORM_PAGES) {
  test(`${journey.form} form: the CRM receives what the visitor typed, with the relay's payload`, async ({ page, baseURL }) => {
    const email = `journey-${randomUUID().slice(0, 8)}@relay-test.example`;
    const values = valuesWithEmail(journey, email);
    // The page's clock runs as usual, and is moved on to a person's pace of typing (the last test
    // sends a form filled at once).
    await page.clock.install();
    const form = await openAndFill(page, journey, values, `?${UTM_QUERY}`);
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
      ...CRM_EXTRAS[journey.form],
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

// A phone's autofill fills every field at once, and people press the button straight away: sent
// faster than anyone types, such a lead is still a lead. Too fast is one weak spam signal, and one
// alone never keeps a lead from the CRM.
test('home form filled at once, as autofill does, and sent straight away (too fast to type): the CRM receives it', async ({ page }) => {
  const journey = LEAD_FORM_PAGES.find((candidate) => candidate.form === 'home')!;
  const email = `autofill-${randomUUID().slice(0, 8)}@relay-test.example`;
  const values = valuesWithEmail(journey, email).map(([, wire, value]) => [wire, value] as const);
  await page.goto(journey.path);
  await waitForHydration(page);
  const sent = page.waitForRequest((request) => request.url().endsWith('/api/leads') && request.method() === 'POST');
  // In the page, in one go, as autofill does: every value set with input events, then the button pressed.
  await page.evaluate(
    async ({ source, fields }) => {
      const form = [...document.forms].find((candidate) => candidate.querySelector(`input[name="source"][value="${source}"]`) !== null)!;
      const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      for (const [name, value] of fields) {
        const input = form.elements.namedItem(name) as HTMLInputElement;
        setValue.call(input, value);
        input.dispatchEvent(new Event('input', { bubbles: true }));
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
      form.querySelector<HTMLButtonElement>('button[type="submit"]')!.click();
    },
    { source: journey.source, fields: values },
  );
  const body = (await sent).postDataJSON() as { form_shown_at: number; submitted_at: string };
  // Timed from when the form came near the screen, which includes its wait for the visitor's pause.
  expect(Date.parse(body.submitted_at) - body.form_shown_at).toBeLessThan(MIN_FILL_TIME_MS);
  await journey.confirm(page);
  await expect.poll(async () => (await crmDeliveriesFor(email)).length, { timeout: 15_000 }).toBe(1);
  const [delivery] = await crmDeliveriesFor(email);
  expect(delivery!.body).toMatchObject({ email, name: "Seán O'Brien", source: journey.source });
});
