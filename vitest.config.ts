import { defineConfig } from 'vitest/config';

// Unit tests sit beside the code they test; browser journeys live in tests/e2e (Playwright).
export default defineConfig({
  test: {
    include: ['{brand-pictures,content-model,lead,renderer,blocks,forms,ui,scripts,server,schema,studio,console}/**/*.test.{ts,tsx}'],
    environment: 'node',
    testTimeout: 20_000,
  },
});
