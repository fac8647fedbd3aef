// Every spelling of a console path reaches the router as one canonical path, so the route that runs,
// and the access it declares, never depend on how the address was written: `/Console/API/leads`,
// `/console//api/leads`, `/console/%61pi/leads`, `/console/api/./leads`, `/console\api\leads` and
// `/console/x/../api/leads` all become `/console/api/leads` (or a path no route takes: a 404).
// Paths outside the console are left exactly as sent: the site resolves its own.

export const CONSOLE_PREFIX = '/console';
const API_SEGMENT = 'api';

/**
 * The one path the router sees: percent-escapes decoded once, backslashes read as slashes, empty and
 * `.` segments dropped, `..` resolved (never above the root), then each segment encoded again so that
 * nothing decodes a second time into another meaning (`%2561` stays the text `%61`). The query is
 * kept as sent; a path that cannot be decoded is left as it is, for the router to refuse.
 */
export function canonicalUrl(url: string): string {
  const split = url.search(/[?#]/);
  const rawPath = split === -1 ? url : url.slice(0, split);
  const rest = split === -1 ? '' : url.slice(split);
  const decoded = decodePath(rawPath);
  if (decoded === undefined) return url;
  const segments: string[] = [];
  for (const segment of decoded.split(/[/\\]/)) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return `/${segments.map(encodeURIComponent).join('/')}${rest}`;
}

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

function decodePath(path: string): string | undefined {
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}
