// `npm run studio`: builds the studio's browser app, then serves the studio for this checkout on
// STUDIO_HOST:STUDIO_PORT (default http://127.0.0.1:4322). Without STUDIO_USERS it refuses any address
// but loopback: anyone who can reach it could change the live site.
import { userInfo } from 'node:os';
import path from 'node:path';
import { buildStudioApp } from './build-app.ts';
import { readStudioSettings } from './server/auth/studio-settings.ts';
import { buildStudioApp as buildStudioServer } from './server/app.ts';

const root = path.resolve(import.meta.dirname, '..');

let settings;
try {
  settings = readStudioSettings(process.env);
} catch (error) {
  process.stderr.write(`The studio did not start: ${(error as Error).message}\n`);
  process.exit(1);
}

// STUDIO_APP_DIR names an app built beforehand (the browser tests build it once for every studio they start).
const prebuilt = process.env.STUDIO_APP_DIR;
const appDir = prebuilt ? path.resolve(prebuilt) : path.join(root, '.studio', 'app');
const started = performance.now();
if (!prebuilt) {
  process.stdout.write('Preparing the studio…\n');
  await buildStudioApp(root, appDir);
}

const app = buildStudioServer({
  root,
  appDir,
  distDir: path.resolve(root, process.env.DIST_DIR ?? 'dist'),
  ...(settings.users ? { users: settings.users } : {}),
  secureCookies: settings.secureCookies,
  trustProxy: settings.trustProxy,
  localEditor: userInfo().username || 'local editor',
  logLevel: process.env.LOG_LEVEL ?? 'warn',
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void app.close().then(() => process.exit(0));
  });
}
await app.listen({ host: settings.host, port: settings.port });
const shown = settings.host.includes(':') ? `[${settings.host}]` : settings.host;
process.stdout.write(
  `Content studio ready in ${((performance.now() - started) / 1000).toFixed(1)} s: http://${shown}:${settings.port}/` +
    `${settings.users ? ` (sign-in required; ${settings.users.size} account(s))` : ' (this computer only)'}\n`,
);
