import { loadConfig } from '../config.ts';
import { loadRoiParameters } from '../leads/roi-parameters.ts';
import { exitCodeOfStoreOpenFailure, openDatabase } from '../store/database.ts';
import { runLeadsCommand } from './leads-command.ts';
import { terminalActor } from './subcommands.ts';

// `npm run leads -- …`: the operator's view of the inbox, on the store the server is configured with
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
  process.exitCode = await runLeadsCommand(
    process.argv.slice(2),
    store,
    {
      out: (text) => process.stdout.write(text),
      err: (text) => process.stderr.write(text),
      now: Date.now,
      actor: terminalActor(),
    },
    { loadRoiParameters: () => loadRoiParameters(configResult.data.distDir) },
  );
} finally {
  await store.close();
}
