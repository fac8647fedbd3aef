import { defineConfig } from 'vitest/config';

// Unit tests sit beside the code they test; browser journeys live in tests/e2e (Playwright).
export default defineConfig({
  test: {
    include: [
      '{back-office,brand-pictures,content-model,lead,renderer,blocks,forms,ui,scripts,server,schema,studio,console}/**/*.test.{ts,tsx}',
    ],
    environment: 'node',
    // Vitest runs one file at a time on a 2-core machine by default (cores − 1). Most of these tests
    // wait on servers, databases, child processes and timers rather than compute, so two at once
    // finish sooner without starving each other.
    maxWorkers: 2,
    testTimeout: 20_000,
  },
});
