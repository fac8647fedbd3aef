// The studio's old accounts: STUDIO_USERS (entries separated by commas or new lines) and
// STUDIO_USERS_FILE (one entry per line, # comments allowed), each `name:hash`. The studio now signs
// people in with the team's accounts in the lead store; at start it imports each old entry named by
// an e-mail address once, as an editor with the same password hash, and says what became of every
// entry and that the setting should go. A mistake in an entry never stops the studio: the entry is
// skipped and the message says why. Only a file that cannot be read does.
import type { AccountStore } from '../../../back-office/accounts/account-store.ts';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isEmailAddress, normalizeEmail } from '../../../back-office/accounts/email.ts';

export const OLD_ACCOUNT_SETTINGS = ['STUDIO_USERS', 'STUDIO_USERS_FILE'] as const;
export type OldAccountSetting = (typeof OLD_ACCOUNT_SETTINGS)[number];

/** One old entry: its name as written and its password hash (empty when the entry had none). */
export type OldEntry = { readonly name: string; readonly hash: string };

export type OldAccounts = { readonly settings: readonly OldAccountSetting[]; readonly entries: readonly OldEntry[] };

const ADD_COMMAND = '`npm run users -- add <email> --role editor`';
const PASSWORD_HASH = /^scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/;
/** Where in the studio's state folder the addresses imported once are listed, so none is imported twice. */
const IMPORTED_FILE = 'imported-accounts.json';

export const SKIP_REASONS = {
  notEmail: `not an e-mail address, so it cannot become an account: create one with ${ADD_COMMAND}`,
  noHash: `has no valid password hash: create the account with ${ADD_COMMAND}`,
  twice: 'appears twice: the first entry was used',
  exists: 'already has an account, kept as it is',
  removed: 'was imported before and has since been removed: not imported again',
} as const;

/** The old settings as they are written, or undefined when neither is set. */
export function readOldAccounts(
  env: NodeJS.ProcessEnv,
  readFile: (file: string) => string = (file) => readFileSync(file, 'utf8'),
): OldAccounts | undefined {
  const inline = env.STUDIO_USERS?.trim();
  const file = env.STUDIO_USERS_FILE?.trim();
  if (!inline && !file) return undefined;
  const lines: string[] = inline ? inline.split(/[,\n]/) : [];
  if (file) {
    let text: string;
    try {
      text = readFile(file);
    } catch {
      throw new Error(
        `STUDIO_USERS_FILE: ${file} cannot be read. Remove the setting (accounts are now managed with \`npm run users\`) or make the file readable once so its accounts can be imported.`,
      );
    }
    lines.push(...text.split('\n').filter((line) => !line.trim().startsWith('#')));
  }
  const entries = lines
    .map((line) => line.trim())
    .filter(Boolean)
    .map((entry) => {
      const separator = entry.indexOf(':');
      return separator === -1
        ? { name: entry, hash: '' }
        : { name: entry.slice(0, separator).trim(), hash: entry.slice(separator + 1).trim() };
    });
  return { settings: OLD_ACCOUNT_SETTINGS.filter((name) => env[name]?.trim()), entries };
}

export type ImportReport = {
  readonly settings: readonly OldAccountSetting[];
  /** The addresses imported as editors. */
  readonly imported: readonly string[];
  readonly skipped: readonly { readonly name: string; readonly reason: string }[];
};

/**
 * Imports every old entry named by an e-mail address as an `editor` account with its hash, unless
 * the address has an account or was imported once before (an account an admin removed stays removed).
 */
export async function importOldAccounts(old: OldAccounts, store: AccountStore, stateDir: string, now: number): Promise<ImportReport> {
  const recordFile = path.join(stateDir, IMPORTED_FILE);
  const importedBefore = new Set(readImportedBefore(recordFile));
  const imported: string[] = [];
  const skipped: { name: string; reason: string }[] = [];
  const seen = new Set<string>();
  for (const { name, hash } of old.entries) {
    const email = normalizeEmail(name);
    const shown = name.slice(0, 254);
    if (!isEmailAddress(email)) skipped.push({ name: shown, reason: SKIP_REASONS.notEmail });
    else if (seen.has(email)) skipped.push({ name: email, reason: SKIP_REASONS.twice });
    else if (!PASSWORD_HASH.test(hash)) skipped.push({ name: email, reason: SKIP_REASONS.noHash });
    else if (importedBefore.has(email)) {
      const reason = (await store.findAccount(email)) ? SKIP_REASONS.exists : SKIP_REASONS.removed;
      skipped.push({ name: email, reason });
    } else {
      const created = await store.createAccount({ email, role: 'editor', passwordHash: hash, now });
      if (created.kind === 'created') imported.push(email);
      else skipped.push({ name: email, reason: SKIP_REASONS.exists });
    }
    seen.add(email);
  }
  if (imported.length > 0) {
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(recordFile, `${JSON.stringify([...importedBefore, ...imported], null, 2)}\n`);
  }
  return { settings: old.settings, imported, skipped };
}

function readImportedBefore(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}

/** The one message the studio prints about the import, every start while an old setting is set. */
export function describeImport(report: ImportReport): string {
  const names = report.settings.join(' and ');
  const lines = [
    `${names} ${report.settings.length > 1 ? 'are' : 'is'} no longer read: the studio signs people in with the team's accounts in the lead store (\`npm run users\`).`,
    report.imported.length > 0
      ? `Imported ${report.imported.length} account(s) as editors, with their passwords: ${report.imported.join(', ')}.`
      : 'Imported no account.',
  ];
  if (report.skipped.length > 0) {
    lines.push(`Skipped ${report.skipped.length}:`, ...report.skipped.map(({ name, reason }) => `  - ${JSON.stringify(name)}: ${reason}`));
  }
  lines.push(`Remove ${names} from the studio's settings.`);
  return `${lines.join('\n')}\n`;
}
