// Every back-office process (the site's server, its CLI tools, the studio) reads the same `.env`, the
// same way: real environment variables win, as process.loadEnvFile never overrides them.
import { existsSync } from 'node:fs';
import path from 'node:path';

/** Reads `.env` from `cwd` into process.env if it exists; real environment variables win. */
export function loadEnvFile(cwd: string = process.cwd()): void {
  const envFile = path.join(cwd, '.env');
  if (existsSync(envFile)) process.loadEnvFile(envFile);
}
