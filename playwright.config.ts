import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './scripts/chromium.ts';

// Browser journeys against the built site served by our own server (build once: `npm run build`).
const PORT = Number(process.env.E2E_PORT ?? 4399);
export const BASE_URL = `http://127.0.0.1:${PORT}`;
// The CRM the relay under test forwards leads to (tests/e2e/crm-receiver-process.ts).
const CRM_RECEIVER_PORT = PORT - 1;
export const CRM_RECEIVER_URL = `http://127.0.0.1:${CRM_RECEIVER_PORT}`;

export default defineConfig({
  testDir: 'tests/e2e',
  globalSetup: './tests/e2e/global-setup.ts',
  fullyParallel: true,
  workers: process.env.CI ? 2 : 2,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: BASE_URL,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_FLAGS,
    },
  },
  projects: [
    { name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined }, testIgnore: /startup-work\.spec\.ts/ },
    // Timing budgets measure the CPU, so they run after every other browser test, alone
    // (`npx playwright test --project startup-work --no-deps` runs them by themselves).
    // Playwright's own trace records the page with a script of its own: never while measuring.
    { name: 'startup-work', testMatch: /startup-work\.spec\.ts/, dependencies: ['chromium'], use: { trace: 'off' } },
  ],
  webServer: [
    {
      command: 'node tests/e2e/crm-receiver-process.ts',
      url: `${CRM_RECEIVER_URL}/healthz`,
      reuseExistingServer: false,
      timeout: 30_000,
      env: { CRM_RECEIVER_PORT: String(CRM_RECEIVER_PORT) },
    },
    {
      command: 'node server/main.ts',
      url: `${BASE_URL}/healthz`,
      reuseExistingServer: false,
      timeout: 30_000,
      env: {
        PORT: String(PORT),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        LEADS_DB_FILE: `.tmp/e2e-leads-${PORT}.sqlite`,
        ANALYTICS_DB_FILE: `.tmp/e2e-analytics-${PORT}.sqlite`,
        CRM_WEBHOOK_URL: `${CRM_RECEIVER_URL}/crm`,
        // The receiver may start after the relay: its first attempts are retried at once.
        CRM_RETRY_DELAYS_MS: '200,500,1000,2000,5000',
        ...(process.env.DIST_DIR ? { DIST_DIR: process.env.DIST_DIR } : {}),
      },
    },
  ],
});
