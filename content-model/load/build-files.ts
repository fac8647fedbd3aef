// The files a build writes, named and shaped once: `npm run build` and the studio's publishes write
// them (scripts/build), the server, the studio and the build tools read them, all through this
// module. Nothing else spells a file name of the build, so a file renamed or reshaped here is
// renamed or reshaped for its writer and every reader at once.
//
// dist/
//   routes.json         which HTML file answers which address: RoutesFile, checked by parseRoutesFile
//   csp.json            what the Content-Security-Policy must allow: CspManifest, read by readCspManifest
//   roi-parameters.json the checked ROI numbers the relay computes with (their shape and check:
//                       lead/roi/parameters.ts)
//   business-hours.json the site settings' business hours, checked by the content check, or null
//                       when none are set: BusinessHoursFile, read by the sales clock
//   callback-consent.json the "call me back now" wording the pages show, which the relay stores with
//                       each lead that ticks it: { "wording": { "version", "text" } | null }
//   incremental.json    what the build was made from, read only by the next build
//                       (scripts/build/build-inputs.ts holds its shape)
//   client/             the public root: every path in routes.json is relative to it
//   client/build.json   the commit built and when: BuildInfo, served at /build.json by the server
//                       (never cached) and by any static host the client folder is copied to, so the
//                       studio can tell when a deployed site serves a publish
//   server/             the prerender bundle (code only)
//   console/            the back office's app, built apart from the public pages
//
// Only client/ is public. The build's own records (routes.json and its siblings) sit beside it, so
// no URL can reach them.
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { BookingFrame } from '../booking-frame.ts';
import type { BusinessHoursContent } from '../business-hours.ts';
import { isRecord } from '../values.ts';
import { writeFileAtomically } from './write-file-atomically.ts';

export const ROUTES_FILE = 'routes.json';
export const CSP_MANIFEST_FILE = 'csp.json';
export const ROI_PARAMETERS_FILE = 'roi-parameters.json';
export const BUSINESS_HOURS_FILE = 'business-hours.json';
export const CALLBACK_CONSENT_FILE = 'callback-consent.json';
export const BUILD_STATE_FILE = 'incremental.json';
export const CLIENT_DIR = 'client';
export const SERVER_DIR = 'server';
export const CONSOLE_DIR = 'console';
/** Inside CLIENT_DIR, so it is served. */
export const BUILD_INFO_FILE = 'build.json';
/** Where the site answers with the build file. */
export const BUILD_INFO_PATH = `/${BUILD_INFO_FILE}`;

/** Where each file of the build in `buildDir` is. */
export function buildPaths(buildDir: string) {
  const clientDir = path.join(buildDir, CLIENT_DIR);
  return {
    routes: path.join(buildDir, ROUTES_FILE),
    cspManifest: path.join(buildDir, CSP_MANIFEST_FILE),
    roiParameters: path.join(buildDir, ROI_PARAMETERS_FILE),
    businessHours: path.join(buildDir, BUSINESS_HOURS_FILE),
    callbackConsent: path.join(buildDir, CALLBACK_CONSENT_FILE),
    buildState: path.join(buildDir, BUILD_STATE_FILE),
    clientDir,
    serverDir: path.join(buildDir, SERVER_DIR),
    consoleDir: path.join(buildDir, CONSOLE_DIR),
    buildInfo: path.join(clientDir, BUILD_INFO_FILE),
  };
}

/** Whether `folder` holds a build: every build has a route table. */
export function isBuild(folder: string): boolean {
  return existsSync(path.join(folder, ROUTES_FILE));
}

/** A build that is missing or inconsistent: the server cannot start, and the message says why. */
export class SiteBuildError extends Error {
  override name = 'SiteBuildError';
}

// ---- business-hours.json ----

/** business-hours.json as written: the site settings' `businessHours`, or null when they have none. */
export type BusinessHoursFile = { businessHours: BusinessHoursContent | null };

export function serializeBusinessHoursFile(businessHours: BusinessHoursContent | undefined): string {
  const file: BusinessHoursFile = { businessHours: businessHours ?? null };
  return `${JSON.stringify(file, null, 2)}\n`;
}

// ---- routes.json ----

/** routes.json as written: route (`/about`) → page file relative to client/, the not-found pages. */
export type RoutesFile = { pages: Record<string, string>; notFound: string; notFoundByPrefix: Record<string, string> };

/** routes.json, checked: the same, with the prefixed not-found pages in the order written. */
export type RoutesManifest = {
  pages: Map<string, string>;
  notFound: string;
  notFoundByPrefix: Array<readonly [string, string]>;
};

export function serializeRoutesFile(routes: RoutesFile): string {
  return `${JSON.stringify(routes, null, 2)}\n`;
}

/**
 * routes.json's text, checked: every route canonical (`/`, `/about`, never `/about/`), every file a
 * path inside client/. A SiteBuildError names the file as `where` and says what is wrong.
 */
export function parseRoutesFile(text: string, where: string): RoutesManifest {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new SiteBuildError(`${where} is not valid JSON: ${(error as Error).message}`);
  }
  const fail = (message: string): never => {
    throw new SiteBuildError(`${where}: ${message}`);
  };
  if (!isRecord(json)) return fail('expected an object with "pages" and "notFound"');

  const pages = readStringRecord(json.pages, '"pages"', fail);
  if (pages.length === 0) fail('"pages" lists no routes');
  for (const [route] of pages) {
    if (!isCanonicalRoute(route)) fail(`route "${route}" must start with "/" and have no trailing slash (except "/")`);
  }
  const notFound = typeof json.notFound === 'string' ? json.notFound : fail('"notFound" must be a file name such as "404.html"');
  const notFoundByPrefix = json.notFoundByPrefix === undefined ? [] : readStringRecord(json.notFoundByPrefix, '"notFoundByPrefix"', fail);
  for (const [prefix] of notFoundByPrefix) {
    if (!prefix.startsWith('/')) fail(`notFoundByPrefix key "${prefix}" must start with "/"`);
  }
  for (const [, file] of [...pages, ['', notFound] as const, ...notFoundByPrefix]) {
    if (!isSafeRelativeFile(file)) fail(`"${file}" must be a path inside ${CLIENT_DIR}/ such as "about/index.html"`);
  }
  return { pages: new Map(pages), notFound, notFoundByPrefix };
}

/** The route table of the build in `buildDir`, checked (for the build tools, which read it whole). */
export function readRoutesFile(buildDir: string): RoutesFile {
  const file = path.join(buildDir, ROUTES_FILE);
  const manifest = parseRoutesFile(readFileSync(file, 'utf8'), file);
  return {
    pages: Object.fromEntries(manifest.pages),
    notFound: manifest.notFound,
    notFoundByPrefix: Object.fromEntries(manifest.notFoundByPrefix),
  };
}

function readStringRecord(value: unknown, name: string, fail: (message: string) => never): Array<readonly [string, string]> {
  if (!isRecord(value)) return fail(`${name} must be an object`);
  return Object.entries(value).map(([key, file]) =>
    typeof file === 'string' ? ([key, file] as const) : fail(`${name}["${key}"] must be a file path`),
  );
}

function isCanonicalRoute(route: string): boolean {
  return route === '/' || (route.startsWith('/') && !route.endsWith('/') && !route.includes('//'));
}

function isSafeRelativeFile(file: string): boolean {
  return (
    file !== '' &&
    !file.startsWith('/') &&
    !file.includes('\\') &&
    file.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..')
  );
}

// ---- csp.json ----

/** csp.json, written by scripts/seo/csp-manifest.ts from the HTML the build wrote. */
export type CspManifest = {
  /** `'sha256-…'` sources, one per distinct inline executable script in the built HTML. */
  scriptHashes: string[];
  /** Origin of PUBLIC_LEAD_ENDPOINT when it is on another site (browsers fetch it); null otherwise. */
  leadEndpointOrigin: string | null;
  /** SITE_URL the build used. */
  siteUrl: string;
  /**
   * The booking page's origin and the routes that may show it inside them (content-model/booking-frame.ts):
   * `frame-src` names the origin on those routes only. Null when no page shows the booking page.
   */
  bookingFrame: BookingFrame | null;
};

export const EMPTY_CSP_MANIFEST: CspManifest = Object.freeze({
  scriptHashes: [],
  leadEndpointOrigin: null,
  siteUrl: '',
  bookingFrame: null,
});

export function serializeCspManifest(manifest: CspManifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** Reads DIST_DIR/csp.json; a build without one (older builds, test fixtures) gets the strictest policy. */
export async function readCspManifest(distDir: string): Promise<CspManifest> {
  const file = path.resolve(distDir, CSP_MANIFEST_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return EMPTY_CSP_MANIFEST;
    throw error;
  }
  const json = JSON.parse(text) as Partial<CspManifest>;
  const hashes = json.scriptHashes ?? [];
  if (!Array.isArray(hashes) || !hashes.every((h) => typeof h === 'string' && /^'sha256-[A-Za-z0-9+/]+=*'$/.test(h))) {
    throw new Error(`${file}: "scriptHashes" must be a list of 'sha256-…' sources; rebuild with \`npm run build\``);
  }
  const origin = json.leadEndpointOrigin ?? null;
  if (origin !== null && externalOrigin(origin) !== origin) throw new Error(`${file}: "leadEndpointOrigin" must be an http(s) origin`);
  return {
    scriptHashes: hashes,
    leadEndpointOrigin: origin,
    siteUrl: typeof json.siteUrl === 'string' ? json.siteUrl : '',
    bookingFrame: readBookingFrame(json.bookingFrame, file),
  };
}

/** The manifest's booking frame, checked: an https origin and canonical routes; absent (older builds) is null. */
function readBookingFrame(value: unknown, file: string): BookingFrame | null {
  if (value === undefined || value === null) return null;
  const fail = (): never => {
    throw new Error(
      `${file}: "bookingFrame" must be { "origin": an https origin, "routes": a list of routes }; rebuild with \`npm run build\``,
    );
  };
  if (!isRecord(value) || typeof value.origin !== 'string' || !Array.isArray(value.routes)) return fail();
  const { origin, routes } = value;
  if (!origin.startsWith('https://') || externalOrigin(origin) !== origin) return fail();
  if (!routes.every((route): route is string => typeof route === 'string' && isCanonicalRoute(route))) return fail();
  return { origin, routes };
}

/** The origin of an absolute http(s) URL; undefined for a path such as /api/leads. */
export function externalOrigin(url: string | null | undefined): string | undefined {
  if (!url || !/^https?:\/\//.test(url) || !URL.canParse(url)) return undefined;
  return new URL(url).origin;
}

// ---- client/build.json ----
//
//   { "commit": "3f9a2c1b…" (40 or 64 hexadecimal characters, or null outside git), "builtAt": "2026-03-02T10:41:07.120Z" }

export type BuildInfo = { commit: string | null; builtAt: string };

/** A full commit id, as git names one (SHA-1 or SHA-256). */
export const COMMIT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * Writes `<clientDir>/build.json` (no precompressed copies: it is rewritten after a studio commit).
 * It replaces the file in one rename, never writing into it: a build made from a copy of another
 * shares that build's files through hard links, and writing into one would change the other's too.
 */
export function writeBuildInfo(clientDir: string, info: BuildInfo): void {
  writeFileAtomically(path.join(clientDir, BUILD_INFO_FILE), `${JSON.stringify(info)}\n`);
}

/** The build file of a built client folder, if it has a readable one. */
export function readBuildInfoFile(clientDir: string): BuildInfo | undefined {
  const file = path.join(clientDir, BUILD_INFO_FILE);
  if (!existsSync(file)) return undefined;
  try {
    return parseBuildInfo(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** A build file's text as a BuildInfo; undefined when it is not one. */
export function parseBuildInfo(text: string): BuildInfo | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { commit, builtAt } = value as Record<string, unknown>;
  if (!(commit === null || (typeof commit === 'string' && COMMIT_ID.test(commit)))) return undefined;
  if (typeof builtAt !== 'string' || Number.isNaN(Date.parse(builtAt))) return undefined;
  return { commit, builtAt };
}
