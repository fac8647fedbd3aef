// What the Content-Security-Policy must allow, read from the HTML the build actually wrote: the
// SHA-256 of every inline executable script (data blocks such as the router data and JSON-LD do not
// count: browsers never run them), the origin of an external lead endpoint, and the booking page's
// origin with the routes that may show it inside them. The server reads the
// result from the build's CSP manifest (content-model/load/build-files.ts), beside the route table.
import { createHash } from 'node:crypto';
import type { PublicSettings } from '../../renderer/public-settings.ts';
import { externalOrigin, type CspManifest } from '../../content-model/load/build-files.ts';
import type { BookingFrame } from '../../content-model/booking-frame.ts';

const SCRIPT_ELEMENT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
const START_TAG = /<[a-zA-Z][^>]*>/g;
// React escapes quotes and angle brackets in attribute values, so a start tag never holds a raw ">".
const ATTRIBUTE = /\s([^\s"'=<>/]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'=<>`]+))?/g;
// Types browsers execute; anything else (application/json, application/ld+json) is inert data.
const EXECUTABLE_TYPES = new Set(['', 'module', 'text/javascript', 'application/javascript']);

function attributesOf(tag: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const [, name, value = ''] of tag.matchAll(ATTRIBUTE)) attributes.set(name!.toLowerCase(), value.replace(/^["']|["']$/g, ''));
  return attributes;
}

/** The text of each inline script a browser would run (no src, executable type). */
export function findInlineScripts(html: string): string[] {
  const scripts: string[] = [];
  for (const [, attributeText = '', body = ''] of html.matchAll(SCRIPT_ELEMENT)) {
    const attributes = attributesOf(` ${attributeText}`);
    if (attributes.has('src')) continue;
    if (!EXECUTABLE_TYPES.has((attributes.get('type') ?? '').trim().toLowerCase())) continue;
    scripts.push(body);
  }
  return scripts;
}

/** Inline event handlers and javascript: URLs, which a hash-based policy cannot allow without 'unsafe-hashes'. */
export function findInlineHandlers(html: string): string[] {
  const found: string[] = [];
  for (const [tag] of html.matchAll(START_TAG)) {
    for (const [name, value] of attributesOf(tag.slice(tag.indexOf(' ') === -1 ? tag.length : tag.indexOf(' ')))) {
      if (/^on[a-z]+$/.test(name) || (['href', 'src', 'action', 'formaction'].includes(name) && /^\s*javascript:/i.test(value)))
        found.push(`${name}="${value}"`);
    }
  }
  return found;
}

/** A CSP hash source for one script's exact text. */
export function cspHash(script: string): string {
  return `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`;
}

export function buildCspManifest(
  pages: ReadonlyArray<{ file: string; html: string }>,
  settings: Pick<PublicSettings, 'leadEndpoint' | 'siteUrl'>,
  bookingFrame: BookingFrame | null = null,
): CspManifest {
  const handlers = pages.flatMap(({ file, html }) => findInlineHandlers(html).map((handler) => `${file}: ${handler}`));
  if (handlers.length > 0) {
    throw new Error(
      `Inline event handlers or javascript: URLs would need 'unsafe-hashes' in the Content-Security-Policy; move them into code:\n  ${handlers.join('\n  ')}`,
    );
  }
  const hashes = new Set(pages.flatMap(({ html }) => findInlineScripts(html).map(cspHash)));
  return {
    scriptHashes: [...hashes].sort(),
    leadEndpointOrigin: externalOrigin(settings.leadEndpoint) ?? null,
    siteUrl: settings.siteUrl,
    bookingFrame,
  };
}
