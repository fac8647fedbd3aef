// The lead forms as part of the site: code loaded only where a form is, the block error boundary,
// the no-JavaScript post, the toast system's constants, and an accessibility scan of every form.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectToast, startLeadReceiver } from './lead-receiver.ts';
import { watchConsole, waitForHydration } from './support.ts';

type ManifestChunk = { file: string; imports?: string[]; isEntry?: boolean; isDynamicEntry?: boolean };
type Manifest = Record<string, ManifestChunk>;

const root = path.resolve(import.meta.dirname, '../..');
const distDir = path.resolve(root, process.env.DIST_DIR ?? 'dist');
const FORM_BLOCK = 'blocks/form/Block.tsx';
const ROI_BLOCK = 'blocks/roi-calculator/Block.tsx';
// The form engine and the lead domain; their lazy chunk (the forms' rules, loaded on submit) is lead code too.
const LEAD_CODE_DIRS = ['forms/', 'lead/'];

function readManifest(): Manifest {
  return JSON.parse(readFileSync(path.join(distDir, 'client/.vite/manifest.json'), 'utf8')) as Manifest;
}

/** Every chunk a module pulls in statically, itself included. */
function reach(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imported of manifest[key]?.imports ?? []) reach(manifest, imported, seen);
  return seen;
}

/** Files only the form and ROI blocks load: not the entry, and not any other block or page. */
function leadOnlyFiles(manifest: Manifest) {
  const shared = new Set<string>();
  for (const [key, chunk] of Object.entries(manifest)) {
    if (
      key === FORM_BLOCK ||
      key === ROI_BLOCK ||
      LEAD_CODE_DIRS.some((dir) => key.startsWith(dir)) ||
      !(chunk.isEntry || chunk.isDynamicEntry)
    )
      continue;
    for (const reached of reach(manifest, key)) shared.add(reached);
  }
  const only = (key: string) =>
    [...reach(manifest, key)].filter((reached) => !shared.has(reached)).map((reached) => manifest[reached]!.file);
  return { form: only(FORM_BLOCK), roi: only(ROI_BLOCK) };
}

/**
 * The browser's own constraint validation stopped a submission: the form is invalid and the browser
 * moved focus to its first invalid control, which it does only when it refuses to submit.
 */
async function expectRefusedByTheBrowser(form: Locator): Promise<void> {
  expect(await form.evaluate((element: HTMLFormElement) => element.checkValidity())).toBe(false);
  await expect(form.locator('input:invalid, select:invalid, textarea:invalid').first()).toBeFocused();
}

async function recordScripts(page: Page, address: string): Promise<string[]> {
  const scripts: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.endsWith('.js')) scripts.push(pathname.slice(1));
  });
  await page.goto(address);
  await waitForHydration(page);
  await page.waitForLoadState('networkidle');
  return scripts;
}

test.describe('code splitting over the build', () => {
  const manifest = readManifest();
  const lead = leadOnlyFiles(manifest);

  test('the manifest has form-only and ROI-only chunks (the schemas, immer and the engine live there)', () => {
    expect(lead.form).toContain(manifest[FORM_BLOCK]!.file);
    expect(lead.roi).toContain(manifest[ROI_BLOCK]!.file);
    const shared = lead.form.filter((file) => lead.roi.includes(file));
    expect(shared.length).toBeGreaterThan(0);
  });

  for (const address of ['/about', '/services', '/faqs', '/blog', '/thankyou']) {
    test(`${address} loads no form or ROI code`, async ({ page }) => {
      const scripts = await recordScripts(page, address);
      expect(scripts.length).toBeGreaterThan(0);
      expect(scripts.filter((file) => lead.form.includes(file) || lead.roi.includes(file))).toEqual([]);
    });
  }

  test('/contact loads the form block but not the ROI block', async ({ page }) => {
    const scripts = await recordScripts(page, '/contact');
    expect(scripts).toContain(manifest[FORM_BLOCK]!.file);
    expect(scripts).not.toContain(manifest[ROI_BLOCK]!.file);
  });

  test('/calculator loads the ROI block but not the form block', async ({ page }) => {
    const scripts = await recordScripts(page, '/calculator');
    expect(scripts).toContain(manifest[ROI_BLOCK]!.file);
    expect(scripts).not.toContain(manifest[FORM_BLOCK]!.file);
  });

  test('a failing block shows "Unexpected Application Error!" and its message; the rest of the page works', async ({ page }) => {
    await page.route(`**/${manifest[ROI_BLOCK]!.file}`, (route) =>
      route.fulfill({
        contentType: 'text/javascript',
        body: "export default function BrokenRoiCalculator() { throw new Error('ROI block failed on purpose'); }",
      }),
    );
    await page.goto('/calculator');
    await waitForHydration(page);
    const alert = page.getByRole('alert').filter({ hasText: 'Unexpected Application Error!' });
    await expect(alert).toBeVisible();
    await expect(alert).toContainText('ROI block failed on purpose');
    await expect(page.getByRole('heading', { name: "What You'll Get in Your Strategy Session" })).toBeVisible();
    await expect(page.getByRole('form', { name: 'Get Your Personalized ROI Analysis' })).toHaveCount(0);
  });
});

for (const address of ['/', '/contact?service=AI%20Consulting', '/ai-transformation', '/calculator']) {
  test(`${address} hydrates its form without console errors or warnings`, async ({ page }) => {
    const messages = watchConsole(page);
    await page.goto(address);
    await waitForHydration(page);
    await expect(page.locator('form[aria-labelledby]')).toHaveCount(1);
    await page.waitForLoadState('networkidle');
    // Missing static files and server headers are the shell's business (pages.spec.ts); this is about the forms.
    expect(messages.filter((message) => !/Failed to load resource|Permissions-Policy/.test(message))).toEqual([]);
  });
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the prerendered contact form posts its fields, source and honeypot to the lead endpoint', async ({ page }) => {
    const posts: { contentType: string; body: URLSearchParams }[] = [];
    await page.route('**/api/leads', async (route) => {
      const request = route.request();
      posts.push({ contentType: (await request.allHeaders())['content-type'] ?? '', body: new URLSearchParams(request.postData() ?? '') });
      await route.fulfill({ status: 200, contentType: 'text/html', body: '<p>Thanks</p>' });
    });
    await page.goto('/contact');
    const form = page.getByRole('form', { name: 'Send Us a Message' });

    // The browser refuses the empty form itself: no request, and focus on the first field to fix.
    await form.getByRole('button', { name: 'Send Message' }).click();
    await expectRefusedByTheBrowser(form);
    expect(posts).toHaveLength(0);

    await form.getByLabel('Full Name').fill("Seán O'Brien");
    await form.getByLabel('Email', { exact: true }).fill('sean@smithandsons.example');
    await form.getByLabel('Phone', { exact: true }).fill('512-555-0147');
    await form.getByLabel('Company', { exact: true }).fill('Smith & Sons');
    await form.getByLabel('Service Interest').selectOption('General Inquiry');
    await form.getByLabel('Message', { exact: true }).fill('Please call me about AI voice agents.');
    await form.getByRole('button', { name: 'Send Message' }).click();
    await expect(page.getByText('Thanks')).toBeVisible();

    expect(posts).toHaveLength(1);
    expect(posts[0]!.contentType).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(posts[0]!.body)).toEqual({
      source: 'Contact Page Form',
      name: "Seán O'Brien",
      email: 'sean@smithandsons.example',
      phone: '512-555-0147',
      company: 'Smith & Sons',
      service_interest: 'General Inquiry',
      message: 'Please call me about AI voice agents.',
      website: '',
      // Which wording of the call-back box the page showed; unticked, so no call-back is asked for.
      callback_consent_version: expect.stringMatching(/\S/),
    });
  });

  test('native constraints hold back an invalid ROI form', async ({ page }) => {
    let posted = 0;
    await page.route('**/api/leads', async (route) => {
      posted += 1;
      await route.fulfill({ status: 200, body: 'ok' });
    });
    await page.goto('/calculator');
    const form = page.getByRole('form', { name: 'Get Your Personalized ROI Analysis' });
    await form.getByLabel('Phone Number').fill('call me maybe');
    await form.getByRole('button', { name: 'Get My ROI Analysis & Book Session' }).click();
    await expectRefusedByTheBrowser(form);
    expect(posted).toBe(0);
    expect(await form.getByLabel('Phone Number').evaluate((input: HTMLInputElement) => input.validity.patternMismatch)).toBe(true);
  });
});

test('toasts: their constants, at most three visible, each gone after about four seconds', async ({ page }) => {
  await startLeadReceiver(page);
  await page.goto('/contact');
  await waitForHydration(page);
  // Measured in the page: from the toast's appearance to its removal.
  const lifetimeMs = page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let shownAt = 0;
        const observer = new MutationObserver(() => {
          const toast = document.querySelector('[data-sonner-toast]');
          if (toast && !shownAt) shownAt = performance.now();
          if (!toast && shownAt) {
            observer.disconnect();
            resolve(performance.now() - shownAt);
          }
        });
        observer.observe(document.body, { childList: true, subtree: true });
      }),
  );
  const submit = page.getByRole('button', { name: 'Send Message' });
  await submit.click();
  await expectToast(page, 'Validation Error', 'Please check the form fields and try again.');

  const toaster = page.locator('[data-sonner-toaster]');
  const style = (name: string) => toaster.evaluate((element, property) => (element as HTMLElement).style.getPropertyValue(property), name);
  expect(await style('--width')).toBe('356px');
  expect(await style('--gap')).toBe('14px');
  expect(await style('--offset-bottom')).toBe('32px');
  expect(await style('--offset-right')).toBe('32px');

  const lifetime = await lifetimeMs;
  expect(lifetime).toBeGreaterThan(3900);
  expect(lifetime).toBeLessThan(6000);

  for (let press = 0; press < 4; press += 1) await submit.click();
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(4);
  await expect(page.locator('[data-sonner-toast][data-visible="true"]')).toHaveCount(3);
});

test.describe('accessibility (axe, WCAG 2.2 AA)', () => {
  // Each form idle is audited with its whole page, at both widths, by a11y.spec.ts (a superset of
  // these rules), and so is the contact form with its errors showing ('a form showing its errors,
  // and the toast'); here, the other forms with their errors showing.
  const FORMS = [
    { address: '/', form: 'Get Your Free Consultation', button: 'Get Started Now' },
    { address: '/ai-transformation', form: 'Claim Your Free 30-Minute Strategy Session', button: 'Claim My Free Strategy Session' },
    { address: '/calculator', form: 'Get Your Personalized ROI Analysis', button: 'Get My ROI Analysis & Book Session' },
  ];

  for (const { address, form, button } of FORMS) {
    test(`${form}: no violations with every error showing`, async ({ page }) => {
      await page.goto(address);
      await waitForHydration(page);
      const scan = async () => {
        const results = await new AxeBuilder({ page })
          .include(`section[aria-labelledby]:has(form)`)
          .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
          .analyze();
        return results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
      };
      await page.getByRole('form', { name: form }).getByRole('button', { name: button }).click();
      await expect(page.getByRole('form', { name: form }).locator('[aria-invalid="true"]').first()).toBeVisible();
      expect(await scan()).toEqual([]);
    });
  }

  test('the ROI result screen has no violations', async ({ page }) => {
    await startLeadReceiver(page, 201);
    await page.goto('/calculator');
    await waitForHydration(page);
    const form = page.getByRole('form', { name: 'Get Your Personalized ROI Analysis' });
    await form.getByLabel('Full Name').fill('Ann Lee');
    await form.getByLabel('Business Email').fill('ann@example.com');
    await form.getByLabel('Phone Number').fill('5125550147');
    await form.getByLabel('Company Name').fill('Lee Co');
    await form.getByLabel('Company Size').selectOption('1-10');
    await form.getByLabel('Annual Revenue').fill('500000');
    await form.getByLabel('Industry').selectOption('retail');
    await form.getByLabel('Team Size').fill('3');
    await form.getByLabel('Average Salary').fill('45000');
    await form.getByLabel('Manual Hours per Week').selectOption('<5');
    await form.getByRole('button', { name: 'Get My ROI Analysis & Book Session' }).click();
    await expect(page.getByRole('heading', { name: 'Success! Your ROI Analysis is Ready' })).toBeVisible();
    const results = await new AxeBuilder({ page })
      .include('section:has(h3[tabindex="-1"])')
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
      .analyze();
    expect(results.violations.map((violation) => violation.id)).toEqual([]);
  });
});
