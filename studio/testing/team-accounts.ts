// The team's accounts for studio tests: a real SQLite lead store (server/testing/store-harness.ts)
// holding the accounts a test names, each with the same password.
import { hashPassword } from '../../back-office/accounts/passwords.ts';
import type { Role } from '../../back-office/roles.ts';
import type { Database } from '../../server/store/database.ts';
import { sqliteHarness } from '../../server/testing/store-harness.ts';

export const TEAM_PASSWORD = 'correct horse battery staple';

let teamHash: Promise<string> | undefined;
/** The hash of TEAM_PASSWORD, computed once per test file (each hash takes a noticeable moment). */
export function teamPasswordHash(): Promise<string> {
  teamHash ??= hashPassword(TEAM_PASSWORD);
  return teamHash;
}

export type TeamStore = {
  store: Database;
  /** Another connection to the same database, as `npm run users` would open while the studio runs. */
  openAgain(): Promise<Database>;
  remove(): Promise<void>;
};

/** A fresh store with one account per entry (e-mail → role), every one with TEAM_PASSWORD. */
export async function createTeamStore(accounts: Readonly<Record<string, Role>> = { 'maria@example.com': 'editor' }): Promise<TeamStore> {
  const database = await sqliteHarness.createDatabase();
  const store = await database.open();
  const passwordHash = await teamPasswordHash();
  for (const [email, role] of Object.entries(accounts)) await store.createAccount({ email, role, passwordHash, now: Date.now() });
  return { store, openAgain: () => database.open(), remove: () => database.remove() };
}
