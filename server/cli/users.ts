import { loadConfig } from '../config.ts';
import { exitCodeOfStoreOpenFailure, openDatabase } from '../store/database.ts';
import { terminalPasswordReader } from './password-prompt.ts';
import { readSiteHoursFile } from '../sales/site-hours.ts';
import { readBusinessHours } from '../sales/business-hours.ts';
import { terminalActor } from './subcommands.ts';
import { runUsersCommand } from './users-command.ts';

// `npm run users -- …`: the back office's accounts, in the store the server is configured with
// (DATABASE_URL or LEADS_DB_FILE, from the environment or `.env`). Safe while the server runs.
// Every change it makes is written to the audit log as done by "command line (<system user>)".

const configResult = loadConfig();
if (!configResult.success) {
  process.stderr.write(`Invalid configuration:\n${configResult.errors.map((error) => `  - ${error}`).join('\n')}\n`);
  process.exit(1);
}

// A store that cannot be opened is told in one sentence (where, and why), without a stack trace.
// A refused migration (a newer database, a failed migration, another process migrating) ends with
// the server's exit code for it (server/exit-codes.ts).
const store = await openDatabase(configResult.data.leadStore).catch((error: unknown) => {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(exitCodeOfStoreOpenFailure(error));
});
try {
  const passwords = terminalPasswordReader();
  // A removed or demoted person's leads go to whoever works now, by the site's business hours; on a
  // machine without the site's build (accounts kept apart from the site), every hour counts.
  const siteHours = await readSiteHoursFile(configResult.data.distDir).catch(() => readBusinessHours({}));
  process.exitCode = await runUsersCommand(process.argv.slice(2), store, {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    now: Date.now,
    actor: terminalActor(),
    interactive: passwords.interactive,
    readPassword: (prompt) => passwords.readPassword(prompt),
    siteHours,
  });
} finally {
  await store.close();
}
