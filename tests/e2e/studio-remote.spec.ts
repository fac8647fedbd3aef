// The content studio publishing to a git remote, as an editor sees it: a publish reaches the remote
// and the studio says when the live site serves it; a change someone else pushed to another page in
// between goes along; a change pushed to the same page is shown beside the editor's, who chooses, and
// nothing is lost. The studio runs on a copy of this checkout whose branch tracks a bare repository
// (studio/testing/running-studio.ts); the "live site" is a small server here whose /build.json names
// whichever commit the test has deployed.
import { createServer, type Server } from 'node:http';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { freePort, startStudio, type RunningStudio } from '../../studio/testing/running-studio.ts';
import { axe } from './axe.ts';

test.describe.configure({ mode: 'serial' });
// Each publish builds the whole site (several seconds on two cores).
test.setTimeout(150_000);

let studio: RunningStudio;
let liveSite: Server;
/** What the live site serves: the commit last deployed, and when it was built. */
const deployed = { commit: '', builtAt: '' };

function deploy(commit: string) {
  deployed.commit = commit;
  deployed.builtAt = new Date().toISOString();
}

test.beforeAll(async () => {
  const port = await freePort();
  liveSite = createServer((request, response) => {
    if (request.url?.startsWith('/build.json')) {
      response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache' });
      response.end(JSON.stringify(deployed));
    } else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => liveSite.listen(port, '127.0.0.1', resolve));
  studio = await startStudio({ remote: true, env: { STUDIO_LIVE_URL: `http://127.0.0.1:${port}`, STUDIO_LIVE_TIMEOUT: '5m' } });
  deploy(studio.remote!.head());
});
test.afterAll(async () => {
  await studio?.stop();
  await new Promise((resolve) => liveSite?.close(resolve));
});

const FILE_OPENED = /^(No unpublished changes|Draft saved|Editing…)$/;

async function setTitle(page: Page, pageName: string, title: string) {
  await page.goto(studio.url);
  await page
    .getByRole('navigation', { name: 'Content' })
    .getByRole('link', { name: new RegExp(`^${pageName}\\b`) })
    .first()
    .click();
  await expect(page.getByRole('status').filter({ hasText: FILE_OPENED })).toBeVisible();
  // A page's search title waits closed under "Page settings".
  await page.locator('summary', { hasText: 'Page settings' }).click();
  await page.getByLabel(/^Search title/).fill(title);
  await expect(page.getByText('Draft saved', { exact: true })).toBeVisible({ timeout: 10_000 });
}

async function reviewAndPublish(page: Page) {
  await page.getByRole('button', { name: /Review and publish/ }).click();
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
}

const titleIn = (text: string) => /^title: (.*)$/m.exec(text)?.[1];

test('a publish is pushed to the remote, and the studio says when the live site serves it', async ({ page }) => {
  await setTitle(page, 'Services', 'AI Services That Pay Off | Premier AI Consulting');
  await reviewAndPublish(page);
  await expect(page.getByText(/^Published: /)).toBeVisible({ timeout: 60_000 });
  const status = page.getByRole('status', { name: 'The live site' });
  await expect(status).toContainText("Sent to the team's copy of the site");
  await expect(status).toContainText('Waiting for the live site…');

  const pushed = studio.remote!.head();
  expect(pushed).toBe(studio.git('rev-parse', 'HEAD').trim());
  expect(titleIn(studio.remote!.show('content/pages/services.yaml'))).toBe('AI Services That Pay Off | Premier AI Consulting');
  expect(studio.remote!.git('log', '-1', '--format=%s', 'main')).toMatch(/^Publish /);
  // The build made before the commit names the commit all the same.
  expect((JSON.parse(studio.read('dist/client/build.json')) as { commit: string }).commit).toBe(pushed);

  // The deploy arrives: the live site now serves the pushed commit.
  deploy(pushed);
  await expect(status).toContainText(/Live since \d{1,2}:\d\d/, { timeout: 20_000 });
  await expect(page.getByRole('region', { name: 'Recent publishes' }).getByRole('listitem').first()).toContainText(
    /Sent to the team's copy of the site\. Live since \d{1,2}:\d\d/,
  );
  expect((await axe(page).analyze()).violations).toEqual([]);
});

test('someone pushes a change to another page in between: the publish goes through, and the remote has both', async ({ page }) => {
  const clone = studio.remote!.clone();
  clone.write(
    'content/pages/faqs.yaml',
    clone.read('content/pages/faqs.yaml').replace(/^title: .*$/m, 'title: Questions, Answered | Premier AI Consulting'),
  );
  const theirs = clone.commitAndPush('Retitle the FAQ page');

  await setTitle(page, 'Contact', 'Talk to Us | Premier AI Consulting');
  await reviewAndPublish(page);
  await expect(page.getByText(/^Published: /)).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('status', { name: 'The live site' })).toContainText("Sent to the team's copy of the site");

  expect(studio.remote!.git('rev-parse', 'main^').trim()).toBe(theirs);
  expect(titleIn(studio.remote!.show('content/pages/contact.yaml'))).toBe('Talk to Us | Premier AI Consulting');
  expect(titleIn(studio.remote!.show('content/pages/faqs.yaml'))).toBe('Questions, Answered | Premier AI Consulting');
  expect(titleIn(studio.read('content/pages/faqs.yaml'))).toBe('Questions, Answered | Premier AI Consulting');
});

test('someone pushes a change to the same page: the editor is told which, sees both versions and chooses; nothing is lost', async ({
  page,
}) => {
  const about = 'content/pages/about.yaml';
  await setTitle(page, 'About', 'About Our Studio Team | Premier AI Consulting');
  const clone = studio.remote!.clone();
  clone.write(about, clone.read(about).replace(/^title: .*$/m, "title: About Ana's Team | Premier AI Consulting"));
  const theirs = clone.commitAndPush('Retitle the About page', 'Ana');

  await reviewAndPublish(page);
  const refusal = page.getByRole('alert');
  await expect(refusal).toContainText(`Nothing was published: ${about} was changed in the repository by Ana ("Retitle the About page")`);
  expect(studio.remote!.head()).toBe(theirs);

  // The link opens the page with both versions and the choice.
  await refusal.getByRole('link', { name: 'About', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('"About" changed since your draft was started');
  const both = page.getByRole('region', { name: 'Both versions' });
  await expect(both).toContainText("title: About Ana's Team | Premier AI Consulting");
  await expect(both).toContainText('title: About Our Studio Team | Premier AI Consulting');
  // The preview is the site's own page, checked by the site's journeys.
  expect((await axe(page).exclude('iframe').analyze()).violations).toEqual([]);
  await page.getByRole('button', { name: 'Keep both (my version becomes a copy)' }).click();
  await expect(page).toHaveURL(/file=content%2Fpages%2Fabout-copy\.yaml/);

  // Theirs is live in the checkout and on the remote; the editor's is the copy's draft.
  expect(titleIn(studio.read(about))).toBe("About Ana's Team | Premier AI Consulting");
  expect(titleIn(studio.remote!.show(about))).toBe("About Ana's Team | Premier AI Consulting");
  const drafts = path.join(studio.root, '.studio', 'drafts');
  expect(readdirSync(drafts)).toContain('content__pages__about-copy.yaml.json');
  const copy = JSON.parse(readFileSync(path.join(drafts, 'content__pages__about-copy.yaml.json'), 'utf8')) as { text: string };
  expect(titleIn(copy.text)).toBe('About Our Studio Team | Premier AI Consulting');
});
