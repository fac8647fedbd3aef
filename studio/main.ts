// `npm run studio`: builds the studio's browser app, then serves the studio for this checkout on
// STUDIO_HOST:STUDIO_PORT (default http://127.0.0.1:4322). It opens the lead store the site's server
// uses (DATABASE_URL, else LEADS_DB_FILE, from the environment or `.env`; migrations run as for the
// server): with accounts in it, people sign in with them; with none, it is one person's studio on
// this computer, and it refuses any address but loopback: anyone who can reach it could change the
// live site. With a git remote (STUDIO_GIT_REMOTE, else the branch's upstream) each publish is pushed
// there; with STUDIO_LIVE_URL, the studio watches the deployed site until it serves each publish.
//
// One studio per site: it owns its checkout and runs the site's scheduled publishes, which are kept in
// the lead store, so two studios on one store would publish them twice. At start the studio takes the
// store's one-studio lock and holds it for its life (PostgreSQL: a session advisory lock; SQLite: a
// lock file beside the database); a second studio is refused with one sentence and exit code 1. The
// lock goes with the process, so after a crash a studio, here or on another host, can start at once.
import type { AccountStore } from '../back-office/accounts/account-store.ts';
import type { SessionStore } from '../back-office/sessions/session-store.ts';
import type { SignInLimitStore } from '../back-office/sign-in/sign-in-limit-store.ts';
import type { StudioScheduleStore } from '../back-office/studio-schedule/studio-schedule-store.ts';
import type { DatabaseLifecycle } from '../server/store/database.ts';
import { userInfo } from 'node:os';
import path from 'node:path';
import { loadEnvFile } from '../back-office/env-file.ts';
import { describeListenFailure } from '../back-office/http/listen-failure.ts';
import { exitCodeOfStoreOpenFailure, openDatabase } from '../server/store/database.ts';
import { buildStudioApp } from './build-app.ts';
import { ADD_EDITOR_COMMAND, decideStudioUse } from './server/auth/studio-accounts.ts';
import { readStudioSettings } from './server/auth/studio-settings.ts';
import { resolveGitRemote } from './server/remote.ts';
import { buildStudioApp as buildStudioServer } from './server/app.ts';
import type { StudioOutbox } from './server/notices.ts';

const root = path.resolve(import.meta.dirname, '..');

/** How often the studio checks that it still holds the lead store's one-studio lock. */
const LOCK_CHECK_MS = 5_000;

function refuseToStart(reason: string): never {
  process.stderr.write(`The studio did not start: ${reason}\n`);
  process.exit(1);
}

let settings;
try {
  loadEnvFile();
  settings = readStudioSettings(process.env);
} catch (error) {
  refuseToStart((error as Error).message);
}

let remote;
try {
  remote = await resolveGitRemote(root, process.env.STUDIO_GIT_REMOTE);
} catch (error) {
  refuseToStart((error as Error).message);
}

let store: AccountStore & SessionStore & SignInLimitStore & StudioOutbox & StudioScheduleStore & DatabaseLifecycle;
try {
  store = await openDatabase(settings.leadStore);
} catch (error) {
  // A refused migration says it in the server's own sentence and ends with the server's code for it.
  const code = exitCodeOfStoreOpenFailure(error);
  if (code !== 1) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(code);
  }
  refuseToStart(`the lead store with the team's accounts could not be opened: ${(error as Error).message}`);
}
const storeSetting = settings.leadStore.kind === 'postgres' ? 'DATABASE_URL' : `LEADS_DB_FILE, ${settings.leadStore.file}`;
let sole: boolean;
try {
  sole = await store.holdStudioLock();
} catch (error) {
  await store.close();
  refuseToStart(`the lead store could not say whether another studio is running: ${(error as Error).message}`);
}
if (!sole) {
  await store.close();
  refuseToStart(
    `another studio is already running on this site's lead store (${storeSetting}), and a site has one studio: use that one, or stop it before starting this one.`,
  );
}
let use;
try {
  use = await decideStudioUse({ store, host: settings.host, oldAccounts: settings.oldAccounts, stateDir: path.join(root, '.studio') });
} catch (error) {
  await store.close();
  refuseToStart(`the team's accounts could not be read from the lead store: ${(error as Error).message}`);
}
if (use.importNotice) process.stderr.write(use.importNotice);
if (use.kind === 'refused') {
  await store.close();
  refuseToStart(use.reason);
}
// The store stays open for the studio's life, for its lock and its schedule, with or without accounts
// (accounts created later take effect at the next start).

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
  // The team's e-mails about reviews and failed scheduled publishes go into the lead store's outbox,
  // which the site's server sends; links in them lead to STUDIO_URL.
  ...(use.kind === 'team' ? { accounts: store, notices: { outbox: store, studioUrl: settings.url } } : {}),
  secureCookies: settings.secureCookies,
  trustProxy: settings.trustProxy,
  review: settings.review,
  timeZone: settings.timeZone,
  remote,
  ...(settings.live ? { live: settings.live } : {}),
  localEditor: userInfo().username || 'local editor',
  logLevel: process.env.LOG_LEVEL ?? 'warn',
  // Scheduled publishes live in the lead store, so a studio started on another host finds them.
  schedule: store,
});
// Set once the studio is stopping: the store closing then is no lost lock.
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    stopping = true;
    void app
      .close()
      .then(() => store.close())
      .then(() => process.exit(0));
  });
}
// A PostgreSQL connection lost (the database restarted) gives the lock up, and another studio could
// start: this one stops rather than run the schedule beside it.
const lockWatch = setInterval(() => {
  void store
    .studioLockHeld()
    .catch(() => true)
    .then((held) => {
      if (held || stopping) return;
      stopping = true;
      clearInterval(lockWatch);
      process.stderr.write(
        `The studio stopped: its connection to the lead store (${storeSetting}) ended, so it no longer knows it is the only studio; start it again.\n`,
      );
      void app
        .close()
        .then(() => store.close())
        .finally(() => process.exit(1));
    });
}, LOCK_CHECK_MS);
lockWatch.unref();
try {
  await app.listen({ host: settings.host, port: settings.port });
} catch (error) {
  refuseToStart(
    describeListenFailure(error, {
      host: settings.host,
      port: settings.port,
      hostSetting: 'STUDIO_HOST',
      portSetting: 'STUDIO_PORT',
      what: 'studio',
    }) ?? (error as Error).message.split('\n')[0]!,
  );
}
const shown = settings.host.includes(':') ? `[${settings.host}]` : settings.host;
const who =
  use.kind === 'local'
    ? 'this computer only'
    : use.editors > 0
      ? `sign-in required; ${use.editors} account(s) may edit the site`
      : `sign-in required, but no account may edit the site yet: create one with \`${ADD_EDITOR_COMMAND}\``;
const review = use.kind === 'team' && settings.review === 'required' ? '; an editor’s changes wait for an admin’s review' : '';
const delivery = [
  remote ? `publishes are pushed to ${remote.name}/${remote.branch}` : '',
  settings.live ? `the live site is watched for each publish for up to ${Math.round(settings.live.timeoutMs / 1000)} s` : '',
]
  .filter(Boolean)
  .join('; ');
process.stdout.write(
  `Content studio ready in ${((performance.now() - started) / 1000).toFixed(1)} s: http://${shown}:${settings.port}/ (${who}${review}; scheduled publishes in ${settings.timeZone})${delivery ? `; ${delivery}` : ''}\n`,
);
