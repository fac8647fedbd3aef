import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { findChromium, missingChromiumMessage } from './chromium.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');

describe('finding Chromium for the browser tests', () => {
  it('uses CHROMIUM_PATH when it names a program that exists, and nothing when it names none', () => {
    expect(findChromium({ CHROMIUM_PATH: process.execPath })).toBe(process.execPath);
    expect(findChromium({ CHROMIUM_PATH: '/no/such/chromium' })).toBeUndefined();
  });

  it('stops before the browser tests with one sentence saying what to install', async () => {
    const failed = await run(process.execPath, ['scripts/check-browser.ts'], {
      cwd: root,
      env: { ...process.env, CHROMIUM_PATH: '/no/such/chromium' },
    }).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toBe(`${missingChromiumMessage({ CHROMIUM_PATH: '/no/such/chromium' })}\n`);
    expect(missingChromiumMessage({})).toContain('sudo apt-get install chromium');
    expect(missingChromiumMessage({})).toContain('npx playwright install chromium');
  });
});
