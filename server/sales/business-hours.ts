import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { BUSINESS_DAYS, businessHoursProblems, minuteOfDay, type BusinessHoursContent } from '../../content-model/business-hours.ts';
import { BUSINESS_HOURS_FILE, ROUTES_FILE, SiteBuildError } from '../../content-model/load/build-files.ts';
import { isRecord } from '../../content-model/values.ts';
import type { WeeklyHours } from './working-time.ts';

// The site's business hours (site settings, `businessHours`) as the sales clock's weekly windows.
// As with the ROI numbers, the build writes them beside the route table (BUSINESS_HOURS_FILE) and
// the server reads them from the build it serves, so the clock follows the published hours: an
// edit counts from the next build or publish, and a deployment that ships only dist/ has them.
// The content check refuses a zone nobody knows and a closing time before the opening one, so a
// build never carries them; reading them here checks again and throws with the same sentence.
// Without business hours in the site settings, every hour counts (see working-time.ts): the clock
// then runs day and night, which can only overstate a wait, never hide one.

/** Every hour counts: no windows. */
const EVERY_HOUR: WeeklyHours = Object.freeze({ timeZone: 'UTC', windows: Object.freeze([]) });

export function readBusinessHours(site: { readonly businessHours?: BusinessHoursContent | undefined }): WeeklyHours {
  const hours = site.businessHours;
  if (!hours) return EVERY_HOUR;
  const problem = businessHoursProblems(hours)[0];
  if (problem) throw new Error(`Business hours in the site settings: ${problem.message}`);
  const startMinute = minuteOfDay(hours.opens);
  const endMinute = minuteOfDay(hours.closes);
  if (startMinute === undefined || endMinute === undefined) {
    throw new Error(
      'Business hours in the site settings: write the opening and closing times on the 24-hour clock, such as 09:00 and 18:00.',
    );
  }
  const days = [...new Set(hours.days.map((day) => BUSINESS_DAYS.indexOf(day)))].filter((day) => day >= 0).sort((a, b) => a - b);
  return Object.freeze({
    timeZone: hours.timeZone,
    windows: Object.freeze(days.map((day) => Object.freeze({ day, startMinute, endMinute }))),
  });
}

/** The business hours of the build in `distDir`. */
export async function loadBusinessHours(distDir: string): Promise<WeeklyHours> {
  const shown = path.join(distDir, BUSINESS_HOURS_FILE);
  let text: string;
  try {
    text = await readFile(path.resolve(distDir, BUSINESS_HOURS_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const hasBuild = await readFile(path.resolve(distDir, ROUTES_FILE)).then(
      () => true,
      () => false,
    );
    if (!hasBuild) throw new SiteBuildError(`No build found in ${distDir.replace(/[\\/]+$/, '')}/: run \`npm run build\` first`);
    throw new SiteBuildError(`The build has no business hours (${shown} is missing): run \`npm run build\` again`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new SiteBuildError(`${shown} is not valid JSON: run \`npm run build\` again`);
  }
  const hours = isRecord(parsed) ? parsed.businessHours : undefined;
  if (hours === null) return readBusinessHours({});
  if (!isBusinessHours(hours)) throw new SiteBuildError(`${shown} cannot be used: run \`npm run build\` again`);
  try {
    return readBusinessHours({ businessHours: hours });
  } catch (error) {
    throw new SiteBuildError(`${(error as Error).message} Correct the site settings and build again.`);
  }
}

function isBusinessHours(value: unknown): value is BusinessHoursContent {
  return (
    isRecord(value) &&
    typeof value.timeZone === 'string' &&
    typeof value.opens === 'string' &&
    typeof value.closes === 'string' &&
    Array.isArray(value.days) &&
    value.days.every((day) => BUSINESS_DAYS.includes(day as BusinessHoursContent['days'][number]))
  );
}
