// The one Chromium every browser run here uses, with the flags that keep it quiet and alike from run
// to run (no sandbox as root, no GPU, no QUIC, and none of its background network traffic). Found in
// this order: CHROMIUM_PATH; the system's (Debian and Ubuntu put it at /usr/bin/chromium); the one
// Playwright downloads with `npx playwright install chromium` (macOS, Windows, any machine that can
// download it).
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';

export const SYSTEM_CHROMIUM = '/usr/bin/chromium';

/** Where Chromium is, or undefined when this machine has none. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.CHROMIUM_PATH) return existsSync(env.CHROMIUM_PATH) ? env.CHROMIUM_PATH : undefined;
  if (existsSync(SYSTEM_CHROMIUM)) return SYSTEM_CHROMIUM;
  try {
    const downloaded = chromium.executablePath();
    return downloaded && existsSync(downloaded) ? downloaded : undefined;
  } catch {
    return undefined;
  }
}

/** What to do when there is none, in one sentence. */
export function missingChromiumMessage(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CHROMIUM_PATH) return `CHROMIUM_PATH names ${env.CHROMIUM_PATH}, which does not exist: point it at a Chromium or Chrome program.`;
  return (
    'The browser tests need Chromium, which this machine does not have: install it with `sudo apt-get install chromium` ' +
    '(Debian, Ubuntu) or `npx playwright install chromium` (macOS, Windows, or any machine that can download it), ' +
    'or set CHROMIUM_PATH to a Chromium or Chrome program.'
  );
}

export const CHROMIUM_PATH = findChromium() ?? SYSTEM_CHROMIUM;

export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
