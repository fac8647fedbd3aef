// The commit a build is made from, written into its build file (content-model/load/build-files.ts)
// so the studio can tell when a deployed site serves a publish.
import { execFileSync } from 'node:child_process';
import { COMMIT_ID } from '../../content-model/load/build-files.ts';

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
