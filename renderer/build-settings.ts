// The public build-time settings (SITE_URL, BOOKING_URL, PUBLIC_LEAD_ENDPOINT): one set of rules,
// used by the build (scripts/build.ts) and by the server (server/config.ts), so
// a value the build accepts is never one the server refuses, or the other way round.
import type { PublicSettings } from './public-settings.ts';

export const DEFAULT_SITE_URL = 'http://127.0.0.1:4321';
export const DEFAULT_LEAD_ENDPOINT = '/api/leads';

/** Reads one trimmed, non-empty setting: its value, or a sentence naming the setting and what it must be. */
export type SettingReader<T> = (raw: string, name: string) => { value: T } | { error: string };

const quote = (raw: string) => JSON.stringify(raw);

function parseHttpUrl(raw: string): URL | undefined {
  if (!URL.canParse(raw)) return undefined;
  const url = new URL(raw);
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' ? url : undefined;
}

export const isHttpUrl = (raw: string): boolean => parseHttpUrl(raw) !== undefined;

/** The public origin, without a trailing slash: pages live at its root, so a path would break every canonical link. */
export const readSiteOrigin: SettingReader<string> = (raw, name) => {
  const url = parseHttpUrl(raw);
  const isOrigin =
    url !== undefined && url.pathname === '/' && url.search === '' && url.hash === '' && url.username === '' && url.password === '';
  return isOrigin ? { value: url.origin } : { error: `${name} must be an origin such as https://example.com (no path), got ${quote(raw)}` };
};

/** Like content/site.yaml's bookingUrl: visitors leave for it, so only https. */
export const readHttpsUrl: SettingReader<string> = (raw, name) =>
  parseHttpUrl(raw)?.protocol === 'https:'
    ? { value: raw }
    : { error: `${name} must be an https:// URL such as https://cal.example.com/book, got ${quote(raw)}` };

/** A path on our own site (not `//host`, which browsers read as another site) or an http(s) URL. */
export const readLeadEndpoint: SettingReader<string> = (raw, name) =>
  (raw.startsWith('/') && !raw.startsWith('//') && !/\s/.test(raw)) || parseHttpUrl(raw)
    ? { value: raw }
    : { error: `${name} must be a path such as /api/leads, an http(s) URL, or empty for demo mode, got ${quote(raw)}` };

/** Every problem at once, in one error; the build stops on it. */
export function readPublicSettings(env: Record<string, string | undefined>): PublicSettings {
  const errors: string[] = [];
  function read(name: string, reader: SettingReader<string>): string | undefined {
    const raw = env[name]?.trim();
    if (raw === undefined || raw === '') return undefined;
    const result = reader(raw, name);
    if ('error' in result) errors.push(result.error);
    return 'value' in result ? result.value : undefined;
  }
  const siteUrl = read('SITE_URL', readSiteOrigin) ?? DEFAULT_SITE_URL;
  const bookingUrl = read('BOOKING_URL', readHttpsUrl);
  // Unlike the others, an empty PUBLIC_LEAD_ENDPOINT is meaningful: demo mode.
  const leadEndpoint =
    env.PUBLIC_LEAD_ENDPOINT === undefined ? DEFAULT_LEAD_ENDPOINT : (read('PUBLIC_LEAD_ENDPOINT', readLeadEndpoint) ?? '');
  if (errors.length > 0) throw new Error(errors.join('\n'));
  return Object.freeze({ siteUrl, bookingUrl, leadEndpoint });
}
