// People hear what concerns them: with the team's accounts and STUDIO_REVIEW=required, an editor asks
// for a review in the studio; the site's server, started beside it on the same lead store with an
// SMTP server, e-mails the admin; the link in that e-mail, opened by an admin who is signed out,
// leads through the sign-in to the request, opened with its decisions.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startSmtpReceiver, type SmtpReceiver } from '../../server/testing/smtp-receiver.ts';
import { REPO, startSite, startStudio, type RunningSite, type RunningStudio } from '../../studio/testing/running-studio.ts';

test.describe.configure({ mode: 'serial' });

const PASSWORD = 'correct horse battery staple';
const EDITOR = 'maria@example.com';
const ADMIN = 'ana@example.com';
/** What the journey saw, kept for a person to look at: the e-mail and the screens its link opens. */
const SEEN = path.join(REPO, '.tmp', 'studio-notify');

let smtp: SmtpReceiver;
let studio: RunningStudio;
let site: RunningSite;
test.beforeAll(async () => {
  test.setTimeout(90_000);
  smtp = await startSmtpReceiver();
  studio = await startStudio({
    accounts: [
      { email: EDITOR, role: 'editor', password: PASSWORD },
      { email: ADMIN, role: 'admin', password: PASSWORD },
    ],
    // STUDIO_URL is left to its default: where the studio listens.
    env: { STUDIO_REVIEW: 'required', STUDIO_TIME_ZONE: 'America/Chicago' },
  });
  site = await startSite(studio.root, { SMTP_URL: smtp.url, NOTIFY_TO: 'sales@example.com' });
  mkdirSync(SEEN, { recursive: true });
});
test.afterAll(async () => {
  test.setTimeout(60_000);
  await site?.stop();
  await studio?.stop();
  await smtp?.close();
});

async function signInHere(page: Page, email: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // Signed in: the sign-in form is gone and the header's one always-shown action is there (on a phone,
  // who is signed in sits behind More).
  await expect(page.getByRole('button', { name: 'Sign in' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Review and publish/ })).toBeVisible();
}

test('a review request reaches the admin by e-mail, and its link opens the request after signing in', async ({ browser }) => {
  test.setTimeout(150_000);
  const maria = await (await browser.newContext()).newPage();
  await maria.goto(studio.url);
  await signInHere(maria, EDITOR);
  await maria.getByRole('navigation', { name: 'Content' }).getByRole('link', { name: /^Home/ }).first().click();
  await expect(maria.getByRole('status').filter({ hasText: /^(No unpublished changes|Draft saved|Editing…)$/ })).toBeVisible();
  await maria.getByRole('button', { name: /^1\. / }).click();
  await maria
    .getByLabel(/^Heading/)
    .first()
    .fill('Spring is here');
  await expect(maria.getByText('Draft saved', { exact: true })).toBeVisible({ timeout: 10_000 });
  await maria.getByRole('button', { name: /Review and publish/ }).click();
  await maria.getByLabel('Note for the reviewer (optional)').fill('A spring headline for the home page');
  await maria.getByRole('button', { name: 'Ask for review' }).click();
  await expect(maria.getByText('Asked for review: an admin will publish your changes or send them back with a comment.')).toBeVisible();

  // The site's notifier looks every few seconds.
  await smtp.waitForMails(1, 30_000);
  const [mail] = smtp.mails;
  const text = mail!.text.replace(/\r\n/g, '\n');
  writeFileSync(path.join(SEEN, 'review-asked.txt'), `To: ${mail!.to.join(', ')}\nSubject: ${mail!.subject}\n\n${text}`);
  expect(mail!.to).toEqual([ADMIN]);
  expect(mail!.subject).toBe(`Review asked for: Home, by ${EDITOR}`);
  expect(text).toContain('Their note:\n> A spring headline for the home page');
  const link = /^(http:\/\/\S+\?review=[\w-]+)$/m.exec(text)?.[1];
  expect(link, text).toMatch(new RegExp(`^${studio.url.replace(/[.]/g, '\\.')}/\\?review=`));

  // The admin, signed out, follows the link: the sign-in first, then the request itself.
  for (const width of [390, 1280]) {
    const ana = await (await browser.newContext({ viewport: { width, height: 844 } })).newPage();
    await ana.goto(link!);
    await expect(ana.getByRole('button', { name: 'Sign in' })).toBeVisible();
    await ana.screenshot({ path: path.join(SEEN, `sign-in-${width}.png`), fullPage: false });
    await signInHere(ana, ADMIN);
    await expect(ana.getByRole('heading', { name: 'Review requests', level: 1 })).toBeVisible();
    const request = ana.getByRole('article', { name: 'Home' });
    await expect(request.getByText(`Asked for by ${EDITOR}`, { exact: false })).toBeVisible();
    await expect(request.getByLabel('Note from the editor')).toHaveText('A spring headline for the home page');
    await expect(request.getByRole('button', { name: 'Approve and publish', exact: true })).toBeVisible();
    await ana.screenshot({ path: path.join(SEEN, `review-${width}.png`), fullPage: false });
    await ana.context().close();
  }
});

test("the editor hears that the request was sent back, and the e-mail's link shows the reviewer's comment", async ({ browser }) => {
  test.setTimeout(120_000);
  const ana = await (await browser.newContext()).newPage();
  await ana.goto(studio.url);
  await signInHere(ana, ADMIN);
  await ana.getByRole('button', { name: 'Review requests (1)' }).click();
  await ana.getByLabel(`Comment for ${EDITOR}`).fill('Name the season and the year, please.');
  await ana.getByRole('button', { name: 'Send back with comment' }).click();
  await expect(ana.getByText(`Sent back to ${EDITOR} with your comment.`)).toBeVisible();

  await smtp.waitForMails(2, 30_000);
  const mail = smtp.mails[1]!;
  const text = mail.text.replace(/\r\n/g, '\n');
  writeFileSync(path.join(SEEN, 'sent-back.txt'), `To: ${mail.to.join(', ')}\nSubject: ${mail.subject}\n\n${text}`);
  expect(mail.to).toEqual([EDITOR]);
  expect(mail.subject).toBe('Your changes to Home were sent back');
  expect(text).toContain(`${ADMIN} sent back your changes to Home`);
  expect(text).toContain('Their comment:\n> Name the season and the year, please.');
  const link = /^(http:\/\/\S+\?publish)$/m.exec(text)?.[1];
  expect(link, text).toBe(`${studio.url}/?publish`);

  const maria = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  await maria.goto(link!);
  await signInHere(maria, EDITOR);
  await expect(maria.getByRole('heading', { level: 1, name: /publish/i })).toBeVisible();
  await expect(maria.getByRole('note', { name: 'Review comment' })).toContainText('Name the season and the year, please.');
  await expect(maria.getByRole('button', { name: 'Ask for review' })).toBeVisible();
  await maria.screenshot({ path: path.join(SEEN, 'sent-back-390.png'), fullPage: true });
});
