import type { AccountStore } from '../../back-office/accounts/account-store.ts';
import type { AuditLog } from '../../back-office/accounts/audit-trail.ts';
import type { ReleaseStore } from '../sales/release.ts';
import { changeTeamRole, removeTeamAccount } from '../sales/release.ts';
import { readBusinessHours } from '../sales/business-hours.ts';
import type { WeeklyHours } from '../sales/working-time.ts';

/** What the users commands use: the accounts, the audit log their changes are written to, and the sales queue (a removed person's leads). */
type UsersCliStore = AccountStore & AuditLog & ReleaseStore;
import { parseArgs } from 'node:util';
import { isEmailAddress, normalizeEmail } from '../../back-office/accounts/email.ts';
import { addAccount, setAccountPassword } from '../../back-office/accounts/operations.ts';
import { hashPassword, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../back-office/accounts/passwords.ts';
import { isRole, ROLE_SUMMARIES, ROLES } from '../../back-office/roles.ts';
import type { Role } from '../../back-office/roles.ts';
import { actingAt, runSubcommand, UsageError, type CliIo } from './subcommands.ts';
import { formatTable, toTerminalCell } from './terminal-text.ts';

// `npm run users -- add <email> --role <role> | list | role <email> <role> | password <email> | remove <email>`:
// the back office's accounts, in the lead store. Like the leads command, it works on an open store
// and writes to `out`, so it is tested without a process; server/cli/users.ts opens the configured
// store and reads passwords from the terminal. Every check runs before the one write a command
// makes, so a mistake leaves the accounts as they were. The writes go through the operations the
// console uses (back-office/accounts/operations.ts), which write their audit entries with `io.actor`.

export const USAGE = `Usage: npm run users -- <command>

  add <email> --role <role>   create an account; asks for its password twice
                              (or reads the first line of standard input)
  list                        every account: e-mail, role, created, last sign-in
  role <email> <role>         give an account another role (open sessions get it at once)
  password <email>            set a new password; every session of the account ends
  remove <email>              delete an account; every session of it ends

The only admin is never demoted or removed: make another account admin first.

Roles:
${ROLES.map((role) => `  ${role.padEnd(8)} ${ROLE_SUMMARIES[role]}`).join('\n')}
`;

export type UsersCliIo = CliIo & {
  /** True when standard input is a terminal: the password is typed unseen and asked twice. */
  readonly interactive: boolean;
  /** One password: typed unseen after `prompt` in a terminal, else the next line of standard input. */
  readonly readPassword: (prompt: string) => Promise<string>;
  /**
   * The site's business hours (the build's), for handing a removed person's leads to whoever works
   * now; without them every hour counts.
   */
  readonly siteHours?: WeeklyHours;
};

/** Runs one command; resolves to the process exit code (0 done, 1 nothing done, 2 usage error). */
export function runUsersCommand(argv: readonly string[], store: UsersCliStore, io: UsersCliIo): Promise<number> {
  return runSubcommand(
    argv,
    {
      add: (args) => add(args, store, io),
      list: (args) => list(args, store, io),
      role: (args) => changeRole(args, store, io),
      password: (args) => changePassword(args, store, io),
      remove: (args) => remove(args, store, io),
    },
    USAGE,
    io,
  );
}

/** A mistake that is not in how the command was written: one sentence, exit code 1. */
class Refusal extends Error {}

function shown(email: string): string {
  return toTerminalCell(email);
}

/** The command's words after its name, exactly `count` of them (`shape` says what they are). */
function readWords(args: readonly string[], count: number, shape: string): string[] {
  const { positionals } = parseArgs({ args: [...args], allowPositionals: true });
  if (positionals.length !== count) throw new UsageError(`${shape}.`);
  return positionals;
}

function readEmail(raw: string): string {
  const email = normalizeEmail(raw);
  if (!isEmailAddress(email)) throw new UsageError(`"${toTerminalCell(raw)}" is not an e-mail address.`);
  return email;
}

function readRole(raw: string): Role {
  if (!isRole(raw)) throw new UsageError(`Unknown role "${toTerminalCell(raw)}": use ${ROLES.join(', ')}.`);
  return raw;
}

async function requireAccount(store: UsersCliStore, email: string): Promise<void> {
  if ((await store.findAccount(email)) === undefined) throw new Refusal(`No account for ${shown(email)}.`);
}

/** A new password: asked twice when typed, and checked before anything is stored. */
async function readNewPassword(email: string, io: UsersCliIo): Promise<string> {
  const password = await io.readPassword(`New password for ${shown(email)} (at least ${MIN_PASSWORD_LENGTH} characters): `);
  if (!io.interactive && password === '') {
    throw new Refusal('Standard input held no password: pipe the password as its first line.');
  }
  if (io.interactive && password !== (await io.readPassword('The same password again: '))) {
    throw new Refusal('The two passwords differ: nothing was changed.');
  }
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new Refusal(`The password is too short: use at least ${MIN_PASSWORD_LENGTH} characters (nothing was changed).`);
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    throw new Refusal(
      `The password is too long: use at most ${MAX_PASSWORD_LENGTH.toLocaleString('en')} characters (nothing was changed).`,
    );
  }
  return password;
}

/** Runs a command's work, turning a refusal into its sentence on standard error and exit code 1. */
async function refusable(io: UsersCliIo, work: () => Promise<string>): Promise<number> {
  try {
    io.out(`${await work()}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    io.err(`${error.message}\n`);
    return 1;
  }
}

async function add(args: readonly string[], store: UsersCliStore, io: UsersCliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args: [...args], options: { role: { type: 'string' } }, allowPositionals: true });
  if (positionals.length !== 1) throw new UsageError('add needs one e-mail address and --role <role>.');
  const email = readEmail(positionals[0]!);
  if (values.role === undefined) throw new UsageError(`add needs --role (${ROLES.join(', ')}).`);
  const role = readRole(values.role);
  return refusable(io, async () => {
    const exists = new Refusal(`An account for ${shown(email)} already exists: change it with \`role\` or \`password\`.`);
    // Asked before the password, so nobody types one for nothing.
    if ((await store.findAccount(email)) !== undefined) throw exists;
    const passwordHash = await hashPassword(await readNewPassword(email, io));
    const result = await addAccount(store, actingAt(io), { email, role, passwordHash });
    if (result.kind === 'exists') throw exists;
    return `Account ${shown(email)} created with the role ${role}.`;
  });
}

async function list(args: readonly string[], store: UsersCliStore, io: UsersCliIo): Promise<number> {
  readWords(args, 0, 'list takes nothing more');
  const accounts = await store.listAccounts();
  if (accounts.length === 0) {
    io.out('No accounts yet: create the first with `npm run users -- add you@example.com --role admin`.\n');
    return 0;
  }
  const time = (at: number | undefined) => (at === undefined ? '-' : new Date(at).toISOString());
  const rows = accounts.map((account) => [account.email, account.role, time(account.createdAt), time(account.lastSignInAt)]);
  io.out(formatTable([['EMAIL', 'ROLE', 'CREATED', 'LAST SIGN-IN'], ...rows]));
  io.out(`\n${accounts.length} account(s).\n`);
  return 0;
}

// The team always keeps someone who can manage the accounts: the store refuses, in the same
// transaction as the change, to demote or remove the only admin (back-office/accounts/operations.ts asks it to;
// a console admin acting at the same moment cannot slip in between). An operator who means to hand
// the role on adds another admin first.
function lastAdmin(email: string): Refusal {
  return new Refusal(
    `${shown(email)} is the only admin, so nothing was changed: make another account admin first ` +
      '(npm run users -- role <email> admin), so someone can still manage the accounts.',
  );
}

async function changeRole(args: readonly string[], store: UsersCliStore, io: UsersCliIo): Promise<number> {
  const [rawEmail, rawRole] = readWords(args, 2, 'role needs an e-mail address and a role');
  const email = readEmail(rawEmail!);
  const role = readRole(rawRole!);
  return refusable(io, async () => {
    const result = await changeTeamRole(store, actingAt(io), email, role, io.siteHours ?? readBusinessHours({}));
    if (result.kind === 'no-account') throw new Refusal(`No account for ${shown(email)}.`);
    if (result.kind === 'last-admin') throw lastAdmin(email);
    return result.previousRole === role
      ? `${shown(email)} already had the role ${role}.`
      : `${shown(email)} now has the role ${role}; their sessions have ended, so they sign in again.`;
  });
}

async function changePassword(args: readonly string[], store: UsersCliStore, io: UsersCliIo): Promise<number> {
  const email = readEmail(readWords(args, 1, 'password needs one e-mail address')[0]!);
  return refusable(io, async () => {
    await requireAccount(store, email);
    const passwordHash = await hashPassword(await readNewPassword(email, io));
    if (!(await setAccountPassword(store, actingAt(io), email, passwordHash))) throw new Refusal(`No account for ${shown(email)}.`);
    return `The password of ${shown(email)} is changed, and every session it had has ended.`;
  });
}

async function remove(args: readonly string[], store: UsersCliStore, io: UsersCliIo): Promise<number> {
  const email = readEmail(readWords(args, 1, 'remove needs one e-mail address')[0]!);
  return refusable(io, async () => {
    const result = await removeTeamAccount(store, actingAt(io), email, io.siteHours ?? readBusinessHours({}));
    if (result.kind === 'no-account') throw new Refusal(`No account for ${shown(email)}.`);
    if (result.kind === 'last-admin') throw lastAdmin(email);
    return `Account ${shown(email)} removed, and every session it had has ended.`;
  });
}
