// Which paths are pages of the site right now: the routes of the build in DIST_DIR, as the site
// serves them (server/routes/site.ts). A studio publish can add a page while the server runs, so the
// build is looked at again after a short while; a path is only ever looked up in the build's route
// table, never turned into a file name, so no beacon can make the server read outside DIST_DIR.
import { buildSignature } from '../site/build-switch.ts';
import { loadSiteBuild } from '../site/site-build.ts';

/** How long the known pages are trusted before DIST_DIR is looked at again (one realpath and one stat). */
export const SITE_PAGES_CHECK_MS = 2_000;

export type SitePages = {
  /** The pages of the build DIST_DIR holds, looked at again when the last look is older than the check interval. */
  current(): Promise<ReadonlySet<string>>;
};

export function createSitePages({
  distDir,
  now = Date.now,
  checkMs = SITE_PAGES_CHECK_MS,
  onError,
}: {
  distDir: string;
  now?: () => number;
  checkMs?: number;
  onError: (error: unknown) => void;
}): SitePages {
  let pages: ReadonlySet<string> = new Set();
  let signature: string | undefined;
  let checkedAt = -Infinity;
  let checking: Promise<ReadonlySet<string>> | undefined;

  async function check(): Promise<ReadonlySet<string>> {
    const current = await buildSignature(distDir);
    // Mid-rewrite, or unchanged: the pages already known stand.
    if (current === undefined || current === signature) return pages;
    // A broken build is reported once and read again when DIST_DIR changes, as the site does.
    signature = current;
    try {
      const build = await loadSiteBuild(distDir);
      pages = new Set(build.pages.keys());
    } catch (error) {
      onError(error);
    }
    return pages;
  }

  return {
    current() {
      if (now() - checkedAt < checkMs) return Promise.resolve(pages);
      // Many beacons at once share one look.
      checking ??= check().finally(() => {
        checkedAt = now();
        checking = undefined;
      });
      return checking;
    },
  };
}
