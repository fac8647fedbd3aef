import type { FastifyBaseLogger } from 'fastify';
import type { LiveBuild } from '../site/live-build.ts';
import { loadBusinessHours } from './business-hours.ts';
import type { WeeklyHours } from './working-time.ts';

// The site's business hours as the server counts them: the build writes them beside the route table
// (BUSINESS_HOURS_FILE, from the site settings' `businessHours`), and the server reads that file at
// start and again when DIST_DIR holds a new build, so a studio publish that changes the hours moves
// the clocks from then on. Site settings without business hours count every hour, which can only
// overstate a wait, never hide one.

export type SiteHours = { current(): WeeklyHours; /** Stops following new builds. */ stop(): void };

/** The business hours of the build in `distDir` (a missing or broken file is a SiteBuildError saying what to do). */
export const readSiteHoursFile = loadBusinessHours;

export async function loadSiteHours(distDir: string, liveBuild: LiveBuild, log: FastifyBaseLogger): Promise<SiteHours> {
  let hours = await readSiteHoursFile(distDir);
  const unsubscribe = liveBuild.subscribe(async () => {
    try {
      hours = await readSiteHoursFile(distDir);
    } catch (error) {
      log.error({ err: error }, 'the new build has no usable business hours; still using the previous ones');
    }
  });
  return { current: () => hours, stop: unsubscribe };
}
