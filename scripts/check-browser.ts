// Runs before the browser tests: without Chromium each of them would fail on its own with "executable
// doesn't exist"; this stops first, with one sentence saying what to install.
import { findChromium, missingChromiumMessage } from './chromium.ts';

if (!findChromium()) {
  process.stderr.write(`${missingChromiumMessage()}\n`);
  process.exit(1);
}
