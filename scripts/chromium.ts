// The one Chromium every browser run here uses: Debian's (Playwright cannot download its own on these
// machines), with the flags that keep it quiet and alike from run to run (no sandbox as root, no GPU,
// no QUIC, and none of its background network traffic).
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
