// Where the studio listens and who may use it. It refuses any address but loopback unless accounts
// are configured: without sign-in, anyone who reaches it could change the live site.
import { readTrustProxy, type TrustProxy } from '../../../server/trust-proxy.ts';
import { isLoopback, LOOPBACK_ADDRESS } from './loopback.ts';
import { readStudioUsers } from './users.ts';

export type StudioSettings = {
  host: string;
  port: number;
  users?: Map<string, string>;
  secureCookies: boolean;
  /** Read as the site's server reads it: behind a proxy, sign-in limits count each person's address. */
  trustProxy: TrustProxy;
};

export const DEFAULT_STUDIO_HOST = LOOPBACK_ADDRESS;
export const DEFAULT_STUDIO_PORT = 4322;

export function readStudioSettings(env: NodeJS.ProcessEnv, readFile?: (file: string) => string): StudioSettings {
  const host = env.STUDIO_HOST?.trim() || DEFAULT_STUDIO_HOST;
  const portText = env.STUDIO_PORT?.trim() || String(DEFAULT_STUDIO_PORT);
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port < 1 || port > 65535)
    throw new Error(`STUDIO_PORT must be a port number from 1 to 65535, not "${portText}".`);
  const users = readStudioUsers(env, readFile);
  if (!users && !isLoopback(host)) {
    throw new Error(
      `STUDIO_HOST is ${host}, but without sign-in the studio only listens on this computer. Set STUDIO_USERS (create entries with \`npm run studio:user -- add <name>\`) or listen on ${LOOPBACK_ADDRESS}.`,
    );
  }
  const secureText = env.STUDIO_SECURE_COOKIES?.trim().toLowerCase();
  if (secureText && secureText !== 'true' && secureText !== 'false')
    throw new Error(`STUDIO_SECURE_COOKIES must be true or false, not "${env.STUDIO_SECURE_COOKIES}".`);
  const trustText = env.TRUST_PROXY?.trim();
  let trustProxy: TrustProxy = false;
  if (trustText) {
    const read = readTrustProxy(trustText, 'TRUST_PROXY');
    if ('error' in read) throw new Error(`${read.error}.`);
    trustProxy = read.value;
  }
  return { host, port, ...(users ? { users } : {}), secureCookies: secureText === 'true', trustProxy };
}
