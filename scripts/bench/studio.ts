// `npm run bench -- studio`: how fast the content studio answers, on a copy of this checkout.
//   - keystroke to updated preview: typing into the home page's hero heading in Chromium, the time
//     from each key going down to the preview frame showing the new heading on screen (the next
//     frame painted after its text changed) (p50, p95);
//   - publish: from POST /api/publish (one changed page) to the studio's answer (checked, written,
//     built, switched, committed: the publish answers at once and the bench reads its progress until
//     it is done, as the publish screen does), and to the site's own server (running on the same
//     checkout) answering with the new page; first with the full build (the bench removes the live
//     build's record of what it was made from, incremental.json, before each of those publishes),
//     then as a publish runs (incremental: scripts/build/incremental.ts);
//   - restoring an earlier version of the page, which must be an incremental build too.
// Needs the site built (`npm run build`: the copy starts from it) and Chromium at /usr/bin/chromium.
import { readFileSync, realpathSync, rmSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { buildStudioApp } from '../../studio/build-app.ts';
import { REPO, STUDIO_APP_DIR, startSite, startStudio, type RunningSite, type RunningStudio } from '../../studio/testing/running-studio.ts';
import { BUILD_STATE_FILE } from '../../content-model/load/build-files.ts';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../chromium.ts';

const KEYSTROKES = 60;
const FULL_PUBLISHES = 4;
const INCREMENTAL_PUBLISHES = 12;
const RESTORES = 3;

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * Runs in the studio's page (as text: this file is checked without the browser's types): resolves
 * with the ms from the next key going down to the preview frame painting a heading that reads `text`.
 */
const WATCH_PREVIEW = `(text) => new Promise((resolve, reject) => {
  const frame = document.querySelector('iframe[title="Preview of the page"]');
  const body = frame && frame.contentDocument && frame.contentDocument.body;
  if (!body) return reject(new Error('The preview frame is not there'));
  let down = 0;
  const shows = () => [...body.querySelectorAll('h1')].some((heading) => heading.textContent === text);
  const check = () => {
    if (down === 0 || !shows()) return;
    observer.disconnect();
    window.removeEventListener('keydown', onKey, true);
    // On screen: the frame's next paint after the change.
    frame.contentWindow.requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - down), 0));
  };
  const onKey = () => {
    down = performance.now();
    check();
  };
  const observer = new MutationObserver(check);
  observer.observe(body, { subtree: true, childList: true, characterData: true });
  window.addEventListener('keydown', onKey, true);
  setTimeout(() => reject(new Error('The preview did not show "' + text + '" within 5 s')), 5000);
})`;

/** Types one key into the focused field; the ms until the preview shows `expected`. */
async function timeKeystroke(page: Page, key: string, expected: string): Promise<number> {
  // Kept in the page, not awaited here: it settles only once the key is typed.
  await page.evaluate(`window.__keystroke = (${WATCH_PREVIEW})(${JSON.stringify(expected)}); undefined`);
  await page.keyboard.type(key);
  return (await page.evaluate('window.__keystroke')) as number;
}

/**
 * Runs in the studio's page: starts a publish (or a restore) with `request` and reads its run until
 * it is done, as the publish screen does; resolves with the answer.
 */
const RUN_TO_END = `async ([url, body]) => {
  const session = await (await fetch('/api/session')).json();
  const started = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrfToken },
    body: JSON.stringify(body),
  });
  let answer = await started.json();
  if (!answer.run) return { ok: false, message: answer.message || 'the studio answered ' + started.status };
  let run = answer.run;
  while (!run.done) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    run = (await (await fetch('/api/publish-runs/' + run.id)).json()).run;
  }
  return run.answer;
}`;

async function runToEnd(page: Page, url: string, body: object): Promise<{ ok: boolean; message?: string }> {
  return (await page.evaluate(`(${RUN_TO_END})(${JSON.stringify([url, body])})`)) as { ok: boolean; message?: string };
}

/** Waits until the studio has `text` in a draft (typing is saved a moment after it pauses). */
async function draftHolds(page: Page, text: string): Promise<void> {
  const started = Date.now();
  while (!JSON.stringify(await page.evaluate(async () => (await fetch('/api/changes')).json())).includes(text)) {
    if (Date.now() - started > 10_000) throw new Error(`The draft did not hold "${text}" within 10 s.`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Publishes the drafts through the studio's API; the ms to its answer and to the site serving `text` on `route`. */
async function timePublish(page: Page, site: RunningSite, route: string, text: string): Promise<{ answered: number; served: number }> {
  // The changes as the publish screen shows them, sent back with each text's fingerprint.
  const shown = (await page.evaluate(async () => (await fetch('/api/changes')).json())) as {
    files: { path: string; fingerprint: string }[];
  };
  const started = Date.now();
  const answer = await runToEnd(page, '/api/publish', {
    files: shown.files.map(({ path: file, fingerprint }) => ({ path: file, fingerprint })),
  });
  if (!answer.ok) throw new Error(`Publishing failed: ${answer.message}`);
  const answered = Date.now() - started;
  while (!(await site.get(route)).text.includes(text)) {
    if (Date.now() - started > 60_000) throw new Error('The running site did not serve the published page within 60 s.');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { answered, served: Date.now() - started };
}

/** Makes the next publish take the full build: the live build no longer says what it was made from. */
function forgetBuildRecord(studio: RunningStudio) {
  rmSync(path.join(realpathSync(path.join(studio.root, 'dist')), BUILD_STATE_FILE), { force: true });
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
    const openHeading = async () => {
      await page.goto(`${studio.url}/?file=content/pages/home.yaml`);
      await page.getByRole('button', { name: /^1\. / }).click();
      const heading = page.getByLabel(/^Heading/).first();
      await heading.click();
      await page.frameLocator('iframe[title="Preview of the page"]').locator('h1').first().waitFor({ state: 'attached' });
      return heading;
    };
    const heading = await openHeading();
    await heading.fill('');
    await page.waitForTimeout(500);
    const samples: number[] = [];
    let typed = '';
    for (let i = 0; i < KEYSTROKES; i++) {
      const key = String.fromCharCode(97 + (i % 26));
      typed += key;
      samples.push(await timeKeystroke(page, key, typed));
      // A person types about five keys a second.
      await page.waitForTimeout(200);
    }

    const runs: { kind: 'full' | 'incremental'; answered: number; served: number }[] = [];
    for (let i = 0; i < FULL_PUBLISHES + INCREMENTAL_PUBLISHES; i++) {
      const kind = i < FULL_PUBLISHES ? 'full' : 'incremental';
      const text = `Benchmark headline ${i}`;
      const field = await openHeading();
      await field.fill(text);
      await draftHolds(page, text);
      if (kind === 'full') forgetBuildRecord(studio);
      runs.push({ kind, ...(await timePublish(page, site, '/', text)) });
    }
    // The studio logs each build: "Site build (<files>): incremental, …, in <n> ms."
    const builds = () => [...studio.output().matchAll(/Site build \([^)]*\): (incremental|full)[^\n]* in (\d+) ms\./g)];
    const incrementalBuilds = builds()
      .filter((match) => match[1] === 'incremental')
      .map((match) => Number(match[2]));
    if (incrementalBuilds.length !== INCREMENTAL_PUBLISHES)
      throw new Error(
        `Expected ${INCREMENTAL_PUBLISHES} incremental builds, the studio ran ${incrementalBuilds.length}:\n${studio.output()}`,
      );

    // Restoring the page as the first publish left it: a publish like the others, built incrementally.
    const restores: number[] = [];
    for (let i = 0; i < RESTORES; i++) {
      const history = (await page.evaluate(async () => (await fetch('/api/history?path=content/pages/home.yaml')).json())) as {
        versions: { id: string }[];
      };
      const version = history.versions.at(-1 - i)!.id;
      const shown = (await page.evaluate(
        async (id) => (await fetch(`/api/history/version?version=${id}&path=content/pages/home.yaml`)).json(),
        version,
      )) as { liveVersion: string | null };
      const started = Date.now();
      const answer = await runToEnd(page, '/api/history/restore', {
        version,
        path: 'content/pages/home.yaml',
        liveVersion: shown.liveVersion,
      });
      if (!answer.ok) throw new Error(`Restoring failed: ${answer.message}`);
      restores.push(Date.now() - started);
      const last = builds().at(-1);
      if (last?.[1] !== 'incremental') throw new Error(`Restoring a version ran the full build:\n${last?.[0] ?? studio.output()}`);
    }

    const ms = (value: number) => `${Math.round(value)} ms`;
    const row = (measure: string, values: number[], target = '') =>
      `| ${measure} | ${values.length} | ${ms(percentile(values, 50))} | ${ms(percentile(values, 95))} | ${ms(Math.max(...values))} | ${target} |`;
    const of = (kind: string, key: 'answered' | 'served') => runs.filter((run) => run.kind === kind).map((run) => run[key]);
    return [
      `Content studio on this machine (${cpuSummary()}; home page, one changed page per publish)`,
      '',
      '| Measure | Runs | p50 | p95 | max | Target |',
      '|---|--:|--:|--:|--:|---|',
      row('Keystroke to the preview showing it', samples, 'p95 under 50 ms'),
      row("Publish, full build: the studio's answer", of('full', 'answered')),
      row('Publish, full build: to the page served by the running site', of('full', 'served')),
      row("Publish, incremental: the studio's answer", of('incremental', 'answered')),
      row('Publish, incremental: to the page served by the running site', of('incremental', 'served'), 'p95 under 2 s'),
      row('Publish, incremental: the build alone (as the studio logs it)', incrementalBuilds),
      row("Restore an earlier version of the page: the studio's answer", restores, 'p95 under 2 s'),
    ].join('\n');
  } finally {
    await browser.close();
    await site.stop();
    await studio.stop();
  }
}

function cpuSummary(): string {
  const model =
    readFileSync('/proc/cpuinfo', 'utf8')
      .match(/model name\s*:\s*(.+)/)?.[1]
      ?.trim() ?? 'unknown CPU';
  return `${navigator.hardwareConcurrency} cores, ${model}`;
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await runStudioBench());
