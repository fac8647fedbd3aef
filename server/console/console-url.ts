// Every spelling of a console path reaches the router as one canonical path, so the route that runs,
// and the access it declares, never depend on how the address was written: `/Console/API/leads`,
// `/console//api/leads`, `/console/%61pi/leads`, `/console/api/./leads`, `/console\api\leads` and
// `/console/x/../api/leads` all become `/console/api/leads` (or a path no route takes: a 404).
// Paths outside the console are left exactly as sent: the site resolves its own.

import { canonicalUrl, decodePath } from '../../back-office/http/request-url.ts';

export const CONSOLE_PREFIX = '/console';
const API_SEGMENT = 'api';

/**
 * What the server routes for a request URL. A path that is, or reads like, a console path becomes
 * canonical, with `console` and `api` in lower case (the rest keeps its case: an e-mail address or a
 * lead id in it is data); any other path is returned unchanged.
 */
export function rewriteConsoleUrl(url: string): string {
  const canonical = canonicalUrl(url);
  const looksLikeConsole = isConsolePath(canonical) || isConsolePath(decodePath(url.split(/[?#]/, 1)[0]!) ?? '');
  if (!looksLikeConsole) return url;
  if (!isConsolePath(canonical)) return canonical;
  const split = canonical.search(/[?#]/);
  const path = split === -1 ? canonical : canonical.slice(0, split);
  const rest = split === -1 ? '' : canonical.slice(split);
  const segments = path.split('/').slice(2);
  if (segments[0]?.toLowerCase() === API_SEGMENT) segments[0] = API_SEGMENT;
  return `${[CONSOLE_PREFIX, ...segments].join('/')}${rest}`;
}

function isConsolePath(path: string): boolean {
  return /^\/console(?:[/\\?#]|$)/i.test(path);
}

/**
 * Which part of the console a request URL names, if any: `api` for /console/api…, `app` for the rest
 * of /console. Read as leniently as the router's canonical path, and also when that path cannot be
 * made (a broken escape such as `%ZZ`): ASCII escapes decoded, backslashes read as slashes, dot
 * segments resolved, case ignored. So every answer the server gives to a console address, even one
 * Fastify refuses before routing, can be the console's own.
 */
export function consoleAreaOf(url: string): 'api' | 'app' | undefined {
  const path = url.split(/[?#]/, 1)[0] ?? '';
  const readable = path.replace(/%[0-7][0-9a-f]/gi, (escape) => String.fromCharCode(Number.parseInt(escape.slice(1), 16)));
  const segments: string[] = [];
  for (const segment of readable.split(/[/\\]/)) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment.toLowerCase());
  }
  if (segments[0] !== CONSOLE_PREFIX.slice(1)) return undefined;
  return segments[1] === API_SEGMENT ? 'api' : 'app';
}
