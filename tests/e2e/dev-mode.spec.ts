import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';

// `npm run dev`: a content mistake shows in the page with the build's message, and the page
// recovers by itself once the file is fixed. Runs Vite's dev server on a copy of the content.
const root = path.resolve(import.meta.dirname, '../..');
const DEV_PORT = 5199;
let contentDir: string;
let vite: ChildProcess;

test.beforeAll(async () => {
  contentDir = mkdtempSync(path.join(tmpdir(), 'dev-content-'));
  cpSync(path.join(root, 'content'), contentDir, { recursive: true });
  vite = spawn(path.join(root, 'node_modules/.bin/vite'), ['--port', String(DEV_PORT), '--strictPort'], {
    cwd: root,
    env: { ...process.env, CONTENT_DIR: contentDir },
    stdio: 'ignore',
  });
  await expect.poll(async () => (await fetch(`http://127.0.0.1:${DEV_PORT}/`).catch(() => null))?.status, { timeout: 30_000 }).toBe(200);
});

test.afterAll(() => {
  vite?.kill();
  rmSync(contentDir, { recursive: true, force: true });
});

test('a content mistake shows in the page, and the page recovers when it is fixed', async ({ page }) => {
  const file = path.join(contentDir, 'pages/about.yaml');
  const original = readFileSync(file, 'utf8');
  await page.goto(`http://127.0.0.1:${DEV_PORT}/about`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 20_000 });

  writeFileSync(file, original.replace('- type: hero', '- type: herro'));
  const overlay = page.locator('vite-error-overlay');
  await expect(overlay).toBeAttached({ timeout: 15_000 });
  await expect(overlay).toContainText(
    /pages\/about\.yaml:\d+:\d+ blocks\[0\] \(herro\) type: "herro" is not one of the choices here\. Did you mean "hero"\?/,
  );

  writeFileSync(file, original.replace(/heading: .*/, 'heading: Fixed And Live'));
  await expect(overlay).not.toBeAttached({ timeout: 15_000 });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Fixed And Live', { timeout: 15_000 });
});
