// The studio's accounts: STUDIO_USERS (entries separated by commas or new lines) or STUDIO_USERS_FILE
// (one entry per line, # comments allowed), each `name:hash` as `npm run studio:user -- add <name>` prints.
import { readFileSync } from 'node:fs';

const NAME = /^[A-Za-z0-9._@-]{1,64}$/;

export function readStudioUsers(
  env: NodeJS.ProcessEnv,
  readFile: (file: string) => string = (file) => readFileSync(file, 'utf8'),
): Map<string, string> | undefined {
  const inline = env.STUDIO_USERS?.trim();
  const file = env.STUDIO_USERS_FILE?.trim();
  if (!inline && !file) return undefined;
  const users = new Map<string, string>();
  const add = (entry: string, where: string) => {
    const separator = entry.indexOf(':');
    const name = separator === -1 ? entry : entry.slice(0, separator);
    const hash = separator === -1 ? '' : entry.slice(separator + 1);
    if (!NAME.test(name))
      throw new Error(`${where}: "${name.slice(0, 64)}" is not a valid name (letters, digits, dot, dash, underscore and @, at most 64).`);
    if (!/^scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/.test(hash)) {
      throw new Error(
        `${where}: the entry for "${name}" has no valid password hash; create one with \`npm run studio:user -- add ${name}\`.`,
      );
    }
    if (users.has(name)) throw new Error(`${where}: "${name}" appears twice.`);
    users.set(name, hash);
  };
  if (inline) {
    inline
      .split(/[,\n]/)
      .map((entry) => entry.trim())
      .filter(Boolean)
      .forEach((entry, index) => add(entry, `STUDIO_USERS entry ${index + 1}`));
  }
  if (file) {
    let text: string;
    try {
      text = readFile(file);
    } catch {
      throw new Error(`STUDIO_USERS_FILE: ${file} cannot be read.`);
    }
    text.split('\n').forEach((line, index) => {
      const entry = line.trim();
      if (entry && !entry.startsWith('#')) add(entry, `${file} line ${index + 1}`);
    });
  }
  if (users.size === 0) throw new Error('STUDIO_USERS is set but holds no account.');
  return users;
}
