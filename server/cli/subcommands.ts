// What every command-line tool of the server shares: `<tool> <command> [options]`, its usage text on
// `help` or a mistake in how it was written, and exit codes (0 done, 1 nothing done, 2 usage error),
// and who runs them: every change a command makes is written to the audit log with that actor.
import { userInfo } from 'node:os';
import { commandLineActor, type Acting } from '../../back-office/accounts/audit-trail.ts';
import { toTerminalCell } from './terminal-text.ts';

export type CliIo = {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly now: () => number;
  /** Who runs the command, as the audit log names them (`commandLineActor`). */
  readonly actor: string;
};

/** The actor and the moment of a change a command makes now. */
export function actingAt(io: Pick<CliIo, 'actor' | 'now'>): Acting {
  return { actor: io.actor, at: io.now() };
}

/**
 * The person at the terminal, by their system account: "command line (ana)". A process whose user
 * has no account entry (some containers) is named by USER or LOGNAME, else by its user id.
 */
export function terminalActor(): string {
  let name: string;
  try {
    name = userInfo().username;
  } catch {
    name = process.env.USER?.trim() || process.env.LOGNAME?.trim() || `uid ${process.getuid?.() ?? 'unknown'}`;
  }
  return commandLineActor(name);
}

/** A mistake in how the command was written: its message, then the usage text, exit code 2. */
export class UsageError extends Error {}

/** Runs the command `argv` names from `commands`; resolves to the process exit code. */
export async function runSubcommand(
  argv: readonly string[],
  commands: Readonly<Record<string, (args: readonly string[]) => Promise<number>>>,
  usage: string,
  io: Pick<CliIo, 'out' | 'err'>,
): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help') {
    io.out(usage);
    return command === undefined ? 2 : 0;
  }
  const run = Object.hasOwn(commands, command) ? commands[command] : undefined;
  if (run === undefined) {
    io.err(`Unknown command "${toTerminalCell(command)}".\n\n${usage}`);
    return 2;
  }
  try {
    return await run(rest);
  } catch (error) {
    // parseArgs reports unknown or malformed options with codes starting ERR_PARSE_ARGS.
    if (error instanceof UsageError || (error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`${(error as Error).message}\n\n${usage}`);
      return 2;
    }
    throw error;
  }
}
