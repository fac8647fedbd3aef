// What a build was made from: `dist/client/build.json`, served at /build.json by this server (never
// cached) and by any static host the client folder is copied to, so the studio can tell when a
// deployed site serves a publish. It names the commit and when the build ran:
//
//   { "commit": "3f9a2c1b…" (40 hexadecimal characters, or null outside git), "builtAt": "2026-03-02T10:41:07.120Z" }
//
// The commit is BUILD_COMMIT when a CI sets it, else `git rev-parse HEAD` of the checkout built.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomically } from '../../back-office/files/write-file-atomically.ts';

export const BUILD_INFO_FILE = 'build.json';
/** Where the site answers with it. */
export const BUILD_INFO_PATH = `/${BUILD_INFO_FILE}`;

export type BuildInfo = { commit: string | null; builtAt: string };

const COMMIT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * The commit a build is made from: BUILD_COMMIT (a CI sets it, e.g. `BUILD_COMMIT=$GITHUB_SHA`), else
 * the checkout's HEAD, else null (not a git checkout). A BUILD_COMMIT that is no full commit id is a
 * mistake the build stops on: a short or misspelt id would never match a publish.
 */
export function buildCommit(root: string, env: NodeJS.ProcessEnv): string | null {
  const given = env.BUILD_COMMIT?.trim().toLowerCase();
  if (given) {
    if (!COMMIT_ID.test(given))
      throw new Error(`BUILD_COMMIT must be a full commit id (40 hexadecimal characters), not "${given.slice(0, 80)}".`);
    return given;
  }
  try {
    const head = execFileSync('git', ['-C', root, 'rev-parse', '--verify', '--quiet', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return COMMIT_ID.test(head) ? head : null;
  } catch {
    return null;
  }
}

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
