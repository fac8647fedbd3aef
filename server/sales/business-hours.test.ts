import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUSINESS_HOURS_FILE, ROUTES_FILE, serializeBusinessHoursFile } from '../../content-model/load/build-files.ts';
import type { SiteContent } from '../../generated/content-types.ts';
import { loadBusinessHours, readBusinessHours } from './business-hours.ts';
import { describeHours, isOpenAt, workingMsBetween } from './working-time.ts';

const site = parse(readFileSync(path.resolve(import.meta.dirname, '../../content/site.yaml'), 'utf8')) as SiteContent;

describe('readBusinessHours', () => {
  it('reads the site’s hours as the contact details show them: Mon-Fri 9AM-6PM, New York', () => {
    const hours = readBusinessHours(site);
    expect(describeHours(hours)).toBe('Mon-Fri 9:00 AM-6:00 PM, New York time');
    expect(site.contact.hours).toBe('Mon-Fri 9AM-6PM EST');
    expect(isOpenAt(hours, Date.parse('2026-01-05T22:59:00Z'))).toBe(true); // Mon 17:59 EST
    expect(isOpenAt(hours, Date.parse('2026-01-05T23:00:00Z'))).toBe(false); // Mon 18:00 EST
  });

  it('closes at midnight with 24:00 and keeps each day once', () => {
    const hours = readBusinessHours({
      businessHours: { timeZone: 'Europe/Paris', days: ['Sat', 'Sat', 'Sun'], opens: '20:00', closes: '24:00' },
    });
    expect(hours.windows).toEqual([
      { day: 0, startMinute: 1200, endMinute: 1440 },
      { day: 6, startMinute: 1200, endMinute: 1440 },
    ]);
  });

  it('counts every hour when the site settings have no business hours', () => {
    const hours = readBusinessHours({});
    expect(workingMsBetween(hours, 0, 3_600_000)).toBe(3_600_000);
  });

  it('refuses a zone nobody knows and a closing time before the opening one, in the words of the form', () => {
    expect(() => readBusinessHours({ businessHours: { timeZone: 'Eastern', days: ['Mon'], opens: '09:00', closes: '18:00' } })).toThrow(
      'Business hours in the site settings: "Eastern" is not a time zone. Write a region and a city as in America/New_York, America/Chicago or Europe/London.',
    );
    expect(() => readBusinessHours({ businessHours: { timeZone: 'UTC', days: ['Mon'], opens: '18:00', closes: '09:00' } })).toThrow(
      'The closing time (09:00) must be later than the opening time (18:00).',
    );
    expect(() => readBusinessHours({ businessHours: { timeZone: 'UTC', days: ['Mon'], opens: '9am', closes: '18:00' } })).toThrow(
      'on the 24-hour clock',
    );
  });
});

describe('loadBusinessHours', () => {
  let dist: string;
  beforeEach(() => {
    dist = mkdtempSync(path.join(tmpdir(), 'business-hours-'));
  });
  afterEach(() => rmSync(dist, { recursive: true, force: true }));

  it('reads the hours the build wrote from the site settings', async () => {
    writeFileSync(path.join(dist, BUSINESS_HOURS_FILE), serializeBusinessHoursFile(site.businessHours));
    expect(describeHours(await loadBusinessHours(dist))).toBe('Mon-Fri 9:00 AM-6:00 PM, New York time');
  });

  it('counts every hour when the site settings had none', async () => {
    writeFileSync(path.join(dist, BUSINESS_HOURS_FILE), serializeBusinessHoursFile(undefined));
    expect((await loadBusinessHours(dist)).windows).toEqual([]);
  });

  it('says to build again when a build lacks them, and to build first when there is no build', async () => {
    await expect(loadBusinessHours(dist)).rejects.toThrow('No build found');
    writeFileSync(path.join(dist, ROUTES_FILE), '{}');
    await expect(loadBusinessHours(dist)).rejects.toThrow('The build has no business hours');
    writeFileSync(
      path.join(dist, BUSINESS_HOURS_FILE),
      '{"businessHours": {"timeZone": "Nowhere/Land", "days": ["Mon"], "opens": "09:00", "closes": "17:00"}}',
    );
    await expect(loadBusinessHours(dist)).rejects.toThrow('"Nowhere/Land" is not a time zone');
    writeFileSync(path.join(dist, BUSINESS_HOURS_FILE), '{"businessHours": {"days": "Mon"}}');
    await expect(loadBusinessHours(dist)).rejects.toThrow('cannot be used');
  });
});
