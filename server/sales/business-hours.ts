import { BUSINESS_DAYS, businessHoursProblems, minuteOfDay, type BusinessHoursContent } from '../../content-model/business-hours.ts';
import type { WeeklyHours } from './working-time.ts';

// The site's business hours (site settings, `businessHours`) as the sales clock's weekly windows.
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
