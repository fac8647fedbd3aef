import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { BUSINESS_HOURS_FILE } from '../../content-model/load/build-files.ts';
import type { LiveBuild } from '../site/live-build.ts';
import { readBusinessHours } from './business-hours.ts';
import type { WeeklyHours } from './working-time.ts';

// The site's business hours as the server counts them: the build writes them beside the route table
// (BUSINESS_HOURS_FILE, from the site settings' `businessHours`), and the server reads that file at
// start and again when DIST_DIR holds a new build, so a studio publish that changes the hours moves
// the clocks from then on. A build without the file (made before the sales queue existed) counts
// every hour, which can only overstate a wait, never hide one.

export type SiteHours = { current(): WeeklyHours; /** Stops following new builds. */ stop(): void };

export async function readSiteHoursFile(distDir: string): Promise<WeeklyHours> {
  let text: string;
  try {
    text = await readFile(path.resolve(distDir, BUSINESS_HOURS_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return readBusinessHours({});
    throw error;
  }
  return readBusinessHours(JSON.parse(text) as Parameters<typeof readBusinessHours>[0]);
}

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
