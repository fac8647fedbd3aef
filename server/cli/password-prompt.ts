import { createInterface } from 'node:readline';

// Reading a password in a CLI. From a terminal it is typed unseen: raw mode, nothing echoed, the
// prompt on standard error so standard output stays the command's answer. When standard input is
// not a terminal (a script pipes the password in), its first line is the password and the rest is
// never read.

export type PasswordReader = {
  /** True when standard input is a terminal. */
  readonly interactive: boolean;
  readPassword(prompt: string): Promise<string>;
};

const CTRL_C = '\u0003';
const CTRL_D = '\u0004';
const BACKSPACE = '\u0008';
const DELETE = '\u007f';

export function terminalPasswordReader(
  input: NodeJS.ReadStream = process.stdin,
  prompts: NodeJS.WriteStream = process.stderr,
): PasswordReader {
  const interactive = input.isTTY === true;
  return {
    interactive,
    readPassword: (prompt) => (interactive ? readTyped(input, prompts, prompt) : readFirstLine(input)),
  };
}

async function readFirstLine(input: NodeJS.ReadStream): Promise<string> {
  const lines = createInterface({ input, crlfDelay: Infinity });
  try {
    for await (const line of lines) return line;
    return '';
  } finally {
    // Stops reading, so a producer that never closes its end (`yes secret | …`) cannot keep the command running.
    lines.close();
    input.pause();
  }
}

function readTyped(input: NodeJS.ReadStream, prompts: NodeJS.WriteStream, prompt: string): Promise<string> {
  prompts.write(prompt);
  input.setRawMode(true);
  input.resume();
  return new Promise((resolve) => {
    let typed = '';
    const finish = () => {
      input.setRawMode(false);
      input.pause();
      input.off('data', onData);
      prompts.write('\n');
    };
    const onData = (chunk: Buffer) => {
      for (const character of chunk.toString('utf8')) {
        if (character === '\r' || character === '\n' || character === CTRL_D) {
          finish();
          resolve(typed);
          return;
        }
        if (character === CTRL_C) {
          // Nothing has been written yet (every command asks before it stores), so stopping here leaves no trace.
          finish();
          process.exit(130);
        }
        typed = character === DELETE || character === BACKSPACE ? typed.slice(0, -1) : typed + character;
      }
    };
    input.on('data', onData);
  });
}
