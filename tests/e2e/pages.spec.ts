import { expect, test } from '@playwright/test';
import { waitForHydration } from './support.ts';

test('home: hero, hero statistics, Proven Results and two testimonials', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByText('AI-Powered Business Solutions')).toBeVisible();
  for (const text of ['58+', 'Projects Delivered', '92%', 'Client Satisfaction', '$450K', 'Average ROI Generated'])
    await expect(page.getByText(text, { exact: true }).first()).toBeVisible();
  const results = page.getByRole('region', { name: 'Proven Results' });
  for (const text of [
    '35%',
    'Average Revenue Increase',
    '25%',
    'Cost Reduction',
    '24/7',
    'AI Monitoring',
    '90 Days',
    'Implementation Time',
  ])
    await expect(results.getByText(text, { exact: true })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Trusted by Industry Leaders' }).getByRole('blockquote')).toHaveCount(2);
  await expect(page.locator('a[href="/testimonials"]').first()).toBeAttached();
});

test('calculator page: three stat cards and the social-proof numbers', async ({ page }) => {
  await page.goto('/calculator');
  for (const text of ['90 Days', '2x-3x', '$250K+', '500+', '$180K', '220%', '25%'])
    await expect(page.getByText(text, { exact: true }).first()).toBeVisible();
  await expect(page.getByRole('heading', { name: "What You'll Get in Your Strategy Session" })).toBeVisible();
});

test('about: story, four values and a team of four', async ({ page }) => {
  await page.goto('/about');
  for (const value of ['Mission-Driven', 'Innovation First', 'Client-Centric', 'Excellence'])
    await expect(page.getByRole('heading', { name: value })).toBeVisible();
  await expect(page.getByText(/2019/).first()).toBeVisible();
  const portraits = page.locator('img[src^="/images/team/"]');
  await expect(portraits).toHaveCount(4);
  for (const img of await portraits.all()) {
    await expect(img).toHaveAttribute('width', /\d+/);
    await expect(img).toHaveAttribute('alt', /.+/);
  }
});

test('voice AI: four plans with their prices, SMB marked Most Popular, each linking to /contact', async ({ page }) => {
  await page.goto('/voice-ai');
  for (const [plan, price] of [
    ['Starter', '$299'],
    ['SMB', '$549'],
    ['Growth', '$999'],
    ['Enterprise', '$1,749'],
  ] as const) {
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: plan, exact: true }) });
    await expect(card).toContainText(price);
  }
  await expect(page.getByText('Most Popular')).toHaveCount(1);
  for (const text of ['2,500', '7,000', '15,000', '$0.45/min', '$0.14/min', '$0.12/min', '$0.06/min'])
    await expect(page.getByText(text).first()).toBeVisible();
  for (const text of ['Real Estate', 'Healthcare', 'E-commerce', 'Professional Services'])
    await expect(page.getByRole('heading', { name: text })).toBeVisible();
  for (const text of ['$0', '24/7', '99.9%']) await expect(page.getByText(text, { exact: true }).first()).toBeVisible();
});

test('FAQs: four categories of three, the first open, several open at once', async ({ page }) => {
  await page.goto('/faqs');
  await waitForHydration(page);
  for (const category of ['Getting Started', 'Technical', 'Business Value', 'Implementation'])
    await expect(page.getByRole('heading', { name: category })).toBeVisible();
  const items = page.locator('details');
  await expect(items).toHaveCount(12);
  await expect(items.nth(0)).toHaveAttribute('open', '');
  await expect(items.nth(1)).not.toHaveAttribute('open', '');
  await items.nth(1).locator('summary').click();
  await items.nth(5).locator('summary').click();
  await expect(items.nth(0)).toHaveAttribute('open', '');
  await expect(items.nth(1)).toHaveAttribute('open', '');
  await expect(items.nth(5)).toHaveAttribute('open', '');
  await items.nth(0).locator('summary').click();
  await expect(items.nth(0)).not.toHaveAttribute('open', '');
  await expect(page.locator('a', { hasText: 'Schedule Consultation' })).toHaveAttribute('target', '_blank');
});

test('testimonials: four stat tiles and four five-star testimonials', async ({ page }) => {
  await page.goto('/testimonials');
  for (const text of ['46', 'Happy Clients', '98%', 'Success Rate', '4.9/5', 'Average Rating', '$1.3M', 'Client Savings'])
    await expect(page.getByText(text, { exact: true }).first()).toBeVisible();
  await expect(page.getByRole('blockquote')).toHaveCount(4);
  await expect(page.getByText(/5 out of 5/)).toHaveCount(4);
  await expect(page.locator('a', { hasText: 'GET STARTED TODAY' })).toHaveAttribute('target', '_blank');
});

test('blog: display-only chips, the featured article and five more, each opening a real article', async ({ page }) => {
  await page.goto('/blog');
  await waitForHydration(page);
  for (const chip of ['All', 'Trends', 'Strategy', 'Technology', 'Ethics', 'Implementation', 'Data Science']) {
    await expect(page.getByText(chip, { exact: true }).first()).toBeVisible();
  }
  await expect(page.getByRole('button', { name: 'Trends' })).toHaveCount(0);
  const articleLinks = page.locator('main a[href^="/blog/"]');
  const hrefs = [...new Set(await articleLinks.evaluateAll((els) => els.map((e) => e.getAttribute('href'))))];
  expect(hrefs).toHaveLength(6);
  expect(hrefs[0]).toBe('/blog/what-is-ai-consulting');
  await expect(page.getByRole('link', { name: 'Read Article' })).toHaveAttribute('href', '/blog/what-is-ai-consulting');
  for (const href of hrefs) {
    const response = await page.request.get(href!);
    expect(response.status(), href!).toBe(200);
  }
  await page.locator(`main a[href="${hrefs[3]}"]`).first().click();
  await expect(page).toHaveURL(hrefs[3]!);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test('an article follows the block rules: h2/h3 headings, bullet lists, bold labels, paragraphs', async ({ page }) => {
  await page.goto('/blog/what-is-ai-consulting');
  const body = page.locator('main');
  await expect(body.locator('h2').first()).toBeVisible();
  await expect(body.locator('ul li').first()).toBeVisible();
  await expect(body.locator('p > strong').first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to Blog' }).first()).toHaveAttribute('href', '/blog');
  await expect(page.getByRole('link', { name: 'More Articles' })).toHaveAttribute('href', '/blog');
  expect(await page.locator('main').innerHTML()).not.toContain('## ');
});

test('contact: service cards lead to the contact form with the service chosen; mailto and tel links; hours', async ({ page }) => {
  await page.goto('/contact');
  await waitForHydration(page);
  await expect(page.locator('a[href^="mailto:"]').first()).toBeVisible();
  await expect(page.locator('a[href^="tel:"]').first()).toBeVisible();
  await expect(page.getByText('Mon-Fri 9AM-6PM EST').first()).toBeVisible();
  const voice = page.locator('main a[href*="service=AI%20Voice%20Services"]');
  await expect(voice).toHaveCount(1);
  await voice.click();
  await expect(page).toHaveURL(/\/contact\?service=AI%20Voice%20Services#contact-form$/);
  await expect(page.locator('#contact-form')).toBeInViewport();
});

for (const [path, title, sections] of [
  ['/disclaimer', 'Disclaimer', 8],
  ['/privacy-policy', 'Privacy Policy', 12],
  ['/terms-of-service', 'Terms of Service', 14],
] as const) {
  test(`${title}: ${sections} numbered sections, the Last Updated banner and legal, privacy and DPO addresses`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByText('Last Updated: January 15, 2024')).toBeVisible();
    await expect(page.locator('main h2').filter({ hasText: /^\s*\d+\./ })).toHaveCount(sections);
    for (const mailbox of ['legal@', 'privacy@', 'dpo@']) await expect(page.locator(`a[href^="mailto:${mailbox}"]`).first()).toBeVisible();
  });
}

test('landing page: hero, the three stats, benefits, case results and trust badges', async ({ page }) => {
  await page.goto('/ai-transformation');
  for (const text of ['2-3x', 'Average ROI', '90 Days', 'To Results', '$250K+', 'Avg. Revenue Impact'])
    await expect(page.getByText(text, { exact: true }).first()).toBeVisible();
});

test.describe('thank-you page', () => {
  test('the countdown starts at 23:47:32, ticks every second and restarts at zero; value list totals $8,750', async ({ page }) => {
    await page.clock.install();
    await page.goto('/thankyou');
    const timer = page.getByRole('timer');
    await expect(timer).toContainText(/23\D+47\D+32/);
    await waitForHydration(page);
    // From here on time moves only when the test says so.
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 2000));
    const shownSeconds = async () => {
      const [h, m, s] = ((await timer.textContent()) ?? '').match(/\d+/g)!.map(Number);
      return h! * 3600 + m! * 60 + s!;
    };
    const before = await shownSeconds();
    expect(before).toBeGreaterThan(23 * 3600 + 47 * 60);
    await page.clock.runFor(1000);
    await expect.poll(shownSeconds).toBe(before - 1);
    // Jump to zero, then one more second: the clock starts again at 23:47:32.
    await page.clock.fastForward((before - 1) * 1000);
    await expect(timer).toContainText(/00\D+00\D+00/);
    await page.clock.runFor(1000);
    await expect(timer).toContainText(/23\D+47\D+32/);
    await expect(timer).not.toHaveAttribute('aria-live', /polite|assertive/);
    await expect(page.getByText('$8,750').first()).toBeVisible();
    for (const amount of ['$2,500', '$2,000', '$1,500', '$1,750', '$1,000']) await expect(page.getByText(amount).first()).toBeVisible();
    await expect(page.locator('a[href^="tel:"]').first()).toBeVisible();
  });
});
