// Every spelling of a path reaches a router as one canonical path, so the route that runs, and the
// access it declares, never depend on how the address was written. The console and the studio both
// rewrite their requests with it before routing.

/**
 * The one URL the router sees for a request: percent-escapes decoded once, backslashes read as
 * slashes, empty and `.` segments dropped, `..` resolved (never above the root), then each segment
 * encoded again so that nothing decodes a second time into another meaning (`%2561` stays the text
 * `%61`, never becomes `a`). The query is kept as sent. A path that cannot be decoded is left as it
 * is, for the router to refuse.
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

/** The path with its percent-escapes decoded once, or undefined when an escape is broken. */
export function decodePath(path: string): string | undefined {
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}
