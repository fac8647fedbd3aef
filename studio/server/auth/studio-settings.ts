// Where the studio listens, which lead store holds the team's accounts (the site server's own
// settings: DATABASE_URL, else LEADS_DB_FILE), and the old account settings still to import. Whether
// the studio may listen beyond this computer depends on the accounts in that store, so it is decided
// at start (studio-accounts.ts), once the store is open.
import { hostname } from 'node:os';
import { parseLeadStoreConfig, type LeadStoreConfig } from '../../../server/store/database.ts';
import { readTrustProxy, type TrustProxy } from '../../../back-office/http/trust-proxy.ts';
import { readReviewSetting, type ReviewSetting } from '../reviews.ts';
import { readTimeZone } from '../schedule.ts';
import { readLiveSettings, type LiveSettings } from '../live-status.ts';
import { LOOPBACK_ADDRESS } from './loopback.ts';
import { readOldAccounts, type OldAccounts } from './old-accounts.ts';

export type StudioSettings = {
  host: string;
  port: number;
  leadStore: LeadStoreConfig;
  /** STUDIO_USERS / STUDIO_USERS_FILE, still set: imported once at start, then no longer read. */
  oldAccounts?: OldAccounts;
  secureCookies: boolean;
  /** Read as the site's server reads it: behind a proxy, sign-in limits count each person's address. */
  trustProxy: TrustProxy;
  /** STUDIO_REVIEW: `required` makes an editor's changes wait for an admin (with accounts only). */
  review: ReviewSetting;
  /** STUDIO_TIME_ZONE, checked with Intl: the zone scheduled publishes are set and shown in. */
  timeZone: string;
  /** STUDIO_LIVE_URL and STUDIO_LIVE_TIMEOUT: the deployed site watched until it serves a publish. */
  live?: LiveSettings;
  /** STUDIO_URL: the studio's address as the team opens it, for the links in their e-mails (no trailing slash). */
  url: string;
};

export const DEFAULT_STUDIO_HOST = LOOPBACK_ADDRESS;
export const DEFAULT_STUDIO_PORT = 4322;

export function readStudioSettings(env: NodeJS.ProcessEnv, readFile?: (file: string) => string): StudioSettings {
  const host = env.STUDIO_HOST?.trim() || DEFAULT_STUDIO_HOST;
  const portText = env.STUDIO_PORT?.trim() || String(DEFAULT_STUDIO_PORT);
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port < 1 || port > 65535)
    throw new Error(`STUDIO_PORT must be a port number from 1 to 65535, not "${portText}".`);
  const leadStore = parseLeadStoreConfig(env);
  if (!leadStore.success) throw new Error(`${leadStore.errors.join('; ')}.`);
  const oldAccounts = readOldAccounts(env, readFile);
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
  const review = readReviewSetting(env.STUDIO_REVIEW);
  const timeZone = readTimeZone(env.STUDIO_TIME_ZONE);
  const live = readLiveSettings(env);
  const url = readStudioUrl(env.STUDIO_URL, host, port);
  return {
    host,
    port,
    leadStore: leadStore.data,
    ...(oldAccounts ? { oldAccounts } : {}),
    secureCookies: secureText === 'true',
    trustProxy,
    review,
    timeZone,
    ...(live ? { live } : {}),
    url,
  };
}

/**
 * STUDIO_URL: the address the team opens the studio at (behind a proxy, the proxy's), an http or
 * https origin. Unset: where it listens, STUDIO_HOST and STUDIO_PORT, with this computer's name for
 * an address that means "every network" (0.0.0.0, ::), which no browser can open.
 */
export function readStudioUrl(text: string | undefined, host: string, port: number): string {
  const value = text?.trim();
  if (!value) {
    const name = host === '0.0.0.0' || host === '::' || host === '[::]' ? hostname() : host;
    return `http://${name.includes(':') && !name.startsWith('[') ? `[${name}]` : name}:${port}`;
  }
  const refused = new Error(
    `STUDIO_URL must be the studio's address as the team opens it, such as https://studio.example.com, not "${value.slice(0, 80)}".`,
  );
  if (!URL.canParse(value)) throw refused;
  const url = new URL(value);
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || url.search || url.hash) throw refused;
  // The studio's app and its API live at the root of its address: a path would lead nowhere.
  if (url.pathname !== '/') throw refused;
  return url.origin;
}
