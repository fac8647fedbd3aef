// The studio run for a team: people sign in with their team account's e-mail address; a wrong
// password is refused in plain words, and so is an account whose role may not edit the site; the
// session cookie cannot be read by script or sent by another site; signing out ends it, and signing
// out everywhere ends the person's sessions on every browser.
import { expect, test, type Page } from '@playwright/test';
import { startStudio, type RunningStudio } from '../../studio/testing/running-studio.ts';

const PASSWORD = 'correct horse battery staple';
const EDITOR = 'maria@example.com';
let studio: RunningStudio;
test.beforeAll(async () => {
  studio = await startStudio({
    accounts: [
      { email: EDITOR, role: 'editor', password: PASSWORD },
      { email: 'sam@example.com', role: 'sales', password: PASSWORD },
    ],
  });
});
test.afterAll(async () => studio?.stop());

test('sign in with the keyboard: a wrong password is refused beside the field, the right one opens the studio', async ({
  page,
  context,
}) => {
  await page.goto(studio.url);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in to the content studio');
  await page.getByLabel('Email').fill(EDITOR);
  await page.getByLabel('Password').fill('not the password');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert')).toHaveText('That e-mail address and password do not match.');
  await expect(page.getByLabel('Password')).toHaveAttribute('aria-invalid', 'true');
  // The API stays closed without a session.
  expect((await page.request.get(`${studio.url}/api/entries`)).status()).toBe(401);

  await page.getByLabel('Password').fill(PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page.getByText(`Editing as ${EDITOR}`)).toBeVisible();
  const [cookie] = await context.cookies(studio.url);
  expect(cookie).toMatchObject({ name: 'studio_session', httpOnly: true, sameSite: 'Strict' });
  expect(await page.evaluate(() => document.cookie)).toBe('');

  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in to the content studio');
  expect((await page.request.get(`${studio.url}/api/entries`)).status()).toBe(401);
});

test('an account that may not edit the site is told so, and stays signed out', async ({ page, context }) => {
  await page.goto(studio.url);
  await page.getByLabel('Email').fill('sam@example.com');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('This account cannot edit the site: ask an admin to give it the editor role.');
  expect(await context.cookies(studio.url)).toEqual([]);
  expect((await page.request.get(`${studio.url}/api/entries`)).status()).toBe(401);
});

test('sign out everywhere: a session left open on another computer ends too', async ({ page, browser }) => {
  const signIn = async (where: Page) => {
    await where.goto(studio.url);
    await where.getByLabel('Email').fill(EDITOR);
    await where.getByLabel('Password').fill(PASSWORD);
    await where.getByRole('button', { name: 'Sign in' }).click();
    await expect(where.getByText(`Editing as ${EDITOR}`)).toBeVisible();
  };
  const otherComputer = await browser.newContext();
  const forgotten = await otherComputer.newPage();
  await signIn(forgotten);
  await signIn(page);

  await page.getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in to the content studio');
  expect((await forgotten.request.get(`${studio.url}/api/entries`)).status()).toBe(401);
  await otherComputer.close();
});
