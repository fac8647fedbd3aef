// `npm run bench -- studio`: how fast the content studio answers, on a copy of this checkout.
//   - keystroke to updated preview: typing into the home page's hero heading, the time from each
//     key's input event to the preview frame having drawn the page with it (p50, p95);
//   - publish: from pressing Publish (one changed page) to the studio's answer (checked, written,
//     built, switched, committed), and to the site's own server (running on the same checkout)
//     answering with the new page.
// Needs the site built (`npm run build`: the copy starts from it) and Chromium at /usr/bin/chromium.
import { chromium } from 'playwright-core';
import { buildStudioApp } from '../../studio/build-app.ts';
import { REPO, STUDIO_APP_DIR, startSite, startStudio } from '../../studio/testing/running-studio.ts';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../chromium.ts';

const KEYSTROKES = 60;

/** What the studio's preview pane records (studio/app/PreviewPane.tsx), as seen from page.evaluate. */
type Timed = { __studioPreview?: { samples: number[] } };
const PUBLISHES = 3;

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export async function runStudioBench(): Promise<string> {
  await buildStudioApp(REPO, STUDIO_APP_DIR);
  const studio = await startStudio();
  const site = await startSite(studio.root);
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_FLAGS,
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`${studio.url}/?file=content/pages/home.yaml`);
    await page.getByRole('button', { name: /^1\. / }).click();
    const heading = page.getByLabel(/^Heading/).first();
    await heading.click();
    await page.waitForFunction(() => (globalThis as Timed).__studioPreview !== undefined);
    await page.evaluate(() => ((globalThis as Timed).__studioPreview!.samples.length = 0));
    for (let i = 0; i < KEYSTROKES; i++) {
      await page.keyboard.type(String.fromCharCode(97 + (i % 26)));
      // A person types about five keys a second.
      await page.waitForTimeout(200);
    }
    await page
      .waitForFunction((count) => ((globalThis as Timed).__studioPreview?.samples.length ?? 0) >= count, KEYSTROKES, { timeout: 10_000 })
      .catch(() => undefined);
    const samples = await page.evaluate(() => (globalThis as Timed).__studioPreview!.samples);

    const publishTimes: number[] = [];
    const servedTimes: number[] = [];
    for (let i = 0; i < PUBLISHES; i++) {
      await heading.fill(`Benchmark headline ${i}`);
      await page.getByText('Draft saved', { exact: true }).waitFor({ timeout: 10_000 });
      const started = Date.now();
      const answer = await page.evaluate(async () => {
        const session = (await (await fetch('/api/session')).json()) as { csrfToken: string };
        const response = await fetch('/api/publish', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrfToken },
          body: '{}',
        });
        return (await response.json()) as { ok: boolean; message?: string };
      });
      if (!answer.ok) throw new Error(`Publishing failed: ${answer.message}`);
      publishTimes.push(Date.now() - started);
      while (!(await site.get('/')).text.includes(`Benchmark headline ${i}`)) {
        if (Date.now() - started > 60_000) throw new Error('The running site did not serve the published page within 60 s.');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      servedTimes.push(Date.now() - started);
      await page.reload();
      await page.getByRole('button', { name: /^1\. / }).click();
    }

    const ms = (value: number) => `${Math.round(value)} ms`;
    return [
      `Content studio on this machine (home page; ${samples.length} keystrokes, ${PUBLISHES} publishes of one changed page)`,
      '',
      '| Measure | p50 | p95 | max | Target |',
      '|---|--:|--:|--:|---|',
      `| Keystroke to updated preview | ${ms(percentile(samples, 50))} | ${ms(percentile(samples, 95))} | ${ms(Math.max(...samples))} | p95 under 100 ms |`,
      `| Publish: the studio's answer (check, write, build, switch, commit) | ${ms(percentile(publishTimes, 50))} | ${ms(percentile(publishTimes, 95))} | ${ms(Math.max(...publishTimes))} | |`,
      `| Publish to the page served by the running site | ${ms(percentile(servedTimes, 50))} | ${ms(percentile(servedTimes, 95))} | ${ms(Math.max(...servedTimes))} | under 10 s |`,
    ].join('\n');
  } finally {
    await browser.close();
    await site.stop();
    await studio.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await runStudioBench());
