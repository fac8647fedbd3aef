// `npm run studio:user -- add <name>`: creates a studio account entry (`name:hash`) from a password
// typed twice (hidden when typed in a terminal; one line from standard input for scripts).
import { createInterface } from 'node:readline';
import { hashPassword, MIN_PASSWORD_LENGTH } from '../../server/accounts/passwords.ts';

export type CommandIo = {
  readPassword(prompt: string): Promise<string>;
  out(text: string): void;
  err(text: string): void;
  interactive: boolean;
};

export async function runStudioUserCommand(args: readonly string[], io: CommandIo): Promise<number> {
  const [command, name] = args;
  if (command !== 'add' || !name) {
    io.err('Usage: npm run studio:user -- add <name>\n');
    return 2;
  }
  if (!/^[A-Za-z0-9._@-]{1,64}$/.test(name)) {
    io.err(`"${name}" is not a valid name: use letters, digits, dot, dash, underscore and @ (at most 64).\n`);
    return 1;
  }
  const password = await io.readPassword(`Password for ${name} (at least ${MIN_PASSWORD_LENGTH} characters): `);
  if (io.interactive && password !== (await io.readPassword('The same password again: '))) {
    io.err('The two passwords differ: nothing was created. Run the command again.\n');
    return 1;
  }
  if (password.length < MIN_PASSWORD_LENGTH) {
    io.err(`The password is too short: use at least ${MIN_PASSWORD_LENGTH} characters. Nothing was created.\n`);
    return 1;
  }
  io.out(`${name}:${await hashPassword(password)}\n`);
  io.err('Add this line to STUDIO_USERS (entries separated by commas) or to the file STUDIO_USERS_FILE names, then restart the studio.\n');
  return 0;
}

function terminalIo(): CommandIo {
  const interactive = process.stdin.isTTY === true;
  let lines: AsyncIterator<string> | undefined;
  return {
    interactive,
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    async readPassword(prompt) {
      if (!interactive) {
        lines ??= createInterface({ input: process.stdin })[Symbol.asyncIterator]();
        return ((await lines.next()).value as string | undefined) ?? '';
      }
      process.stderr.write(prompt);
      process.stdin.setRawMode(true);
      process.stdin.resume();
      return new Promise((resolve) => {
        let typed = '';
        const onData = (chunk: Buffer) => {
          for (const char of chunk.toString('utf8')) {
            if (char === '\r' || char === '\n') {
              process.stdin.setRawMode(false);
              process.stdin.pause();
              process.stdin.off('data', onData);
              process.stderr.write('\n');
              resolve(typed);
              return;
            }
            if (char === '\u0003') process.exit(130);
            typed = char === '\u007f' ? typed.slice(0, -1) : typed + char;
          }
        };
        process.stdin.on('data', onData);
      });
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = await runStudioUserCommand(process.argv.slice(2), terminalIo());
