// Which paths are pages of the site right now: the routes of the build DIST_DIR holds, as the site
// serves them (server/routes/site.ts), both read from the one live build (server/site/live-build.ts).
// A studio publish can add a page while the server runs: the live build notices it, and when nothing
// has looked at DIST_DIR for the check interval (a server whose build timer does not run), the pages
// are asked for a fresh look. A path is only ever looked up in the build's route table, never turned
// into a file name, so no beacon can make the server read outside DIST_DIR.
import type { LiveBuild } from '../site/live-build.ts';

/** How long the known pages are trusted before DIST_DIR is looked at again (one realpath and one stat). */
export const SITE_PAGES_CHECK_MS = 2_000;

export type SitePages = {
  /** The pages of the build DIST_DIR holds, looked at again when the last look is older than the check interval. */
  current(): Promise<ReadonlySet<string>>;
};

export function createSitePages({ liveBuild, checkMs = SITE_PAGES_CHECK_MS }: { liveBuild: LiveBuild; checkMs?: number }): SitePages {
  let pages: ReadonlySet<string> | undefined;
  let pagesOf: unknown;

  return {
    async current() {
      // Many beacons at once share one look; a new build that cannot be loaded leaves the pages known before.
      await liveBuild.refresh(checkMs);
      const build = liveBuild.current();
      if (pagesOf !== build) {
        pages = new Set(build.pages.keys());
        pagesOf = build;
      }
      return pages!;
    },
  };
}
