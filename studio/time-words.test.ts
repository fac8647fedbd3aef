// The studio's one date format: the same moment told in the team's zone whatever the reader's own,
// in the reader's language, across a change of clocks, with the year only when it is another year.
import { describe, expect, it } from 'vitest';
import { instantOf, localText, momentInZoneWords, momentWords, sinceWords, usableLanguage, zoneWords } from './time-words.ts';
import { languageOfHeader } from './server/time-words.ts';

const NOW = Date.parse('2026-12-01T20:00:00Z');
const AT = '2026-12-01T16:42:00.000Z';

describe('a moment in words', () => {
  it('is told in the team’s zone', () => {
    expect(momentWords(AT, { timeZone: 'America/Chicago', language: 'en-GB', now: NOW })).toBe('Tue 1 Dec, 10:42');
    expect(momentWords(AT, { timeZone: 'Europe/Berlin', language: 'en-GB', now: NOW })).toBe('Tue 1 Dec, 17:42');
    expect(momentWords(AT, { timeZone: 'UTC', language: 'en-GB', now: NOW })).toBe('Tue 1 Dec, 16:42');
    // Late in the evening in Chicago is already the next day in UTC: the day is the team's.
    expect(momentWords('2026-12-02T03:30:00Z', { timeZone: 'America/Chicago', language: 'en-GB', now: NOW })).toBe('Tue 1 Dec, 21:30');
  });

  it('is told in the person’s language, and in the default one when the language is unknown', () => {
    expect(momentWords(AT, { timeZone: 'America/Chicago', language: 'en-US', now: NOW })).toBe('Tue, Dec 1, 10:42 AM');
    // The hour as people write it: "9:05 AM" on a twelve-hour clock, "09:05" on a twenty-four-hour one.
    expect(momentWords('2026-12-01T15:05:00Z', { timeZone: 'America/Chicago', language: 'en-US', now: NOW })).toBe('Tue, Dec 1, 9:05 AM');
    expect(momentWords('2026-12-01T15:05:00Z', { timeZone: 'America/Chicago', language: 'en-GB', now: NOW })).toBe('Tue 1 Dec, 09:05');
    expect(sinceWords('2026-12-01T15:05:00Z', { timeZone: 'America/Chicago', language: 'en-US', now: NOW })).toBe('9:05 AM');
    expect(momentWords(AT, { timeZone: 'America/Chicago', language: 'de-DE', now: NOW })).toBe('Di., 1. Dez., 10:42');
    expect(momentWords(AT, { timeZone: 'America/Chicago', language: 'not a language!', now: NOW })).toBe('Tue 1 Dec, 10:42');
    expect(usableLanguage(undefined)).toBe('en-GB');
  });

  it('names the year only when it is not this year in the team’s zone', () => {
    expect(momentWords('2027-01-05T16:00:00Z', { timeZone: 'America/Chicago', language: 'en-GB', now: NOW })).toBe(
      'Tue, 5 Jan 2027, 10:00',
    );
    // New Year's Eve in Chicago, while UTC is already in the next year.
    expect(momentWords('2027-01-01T03:00:00Z', { timeZone: 'America/Chicago', language: 'en-GB', now: NOW })).toBe('Thu 31 Dec, 21:00');
  });

  it('says the time alone for today, for "Live since 10:42"', () => {
    expect(sinceWords(AT, { timeZone: 'America/Chicago', language: 'en-GB', now: NOW })).toBe('10:42');
    expect(sinceWords('2026-11-30T16:42:00Z', { timeZone: 'America/Chicago', language: 'en-GB', now: NOW })).toBe('Mon 30 Nov, 10:42');
  });

  it('gives back a text that is no time', () => {
    expect(momentWords('soon', { timeZone: 'UTC' })).toBe('soon');
    expect(momentInZoneWords('soon', { timeZone: 'UTC' })).toBe('soon');
  });

  it('names the zone as people know it, with its exact name', () => {
    expect(zoneWords('America/Chicago')).toBe('Chicago time (America/Chicago)');
    expect(zoneWords('America/Argentina/Buenos_Aires')).toBe('Buenos Aires time (America/Argentina/Buenos_Aires)');
    expect(zoneWords('UTC')).toBe('UTC');
    expect(momentInZoneWords(AT, { timeZone: 'America/Chicago', language: 'en-GB', now: NOW })).toBe('Tue 1 Dec, 10:42 (America/Chicago)');
  });
});

describe('a time chosen in the team’s zone', () => {
  it('is read as that zone’s wall clock, on both sides of a change of clocks', () => {
    // Chicago: CST (UTC−6) in winter, CDT (UTC−5) in summer; clocks went forward on 8 March 2026.
    expect(new Date(instantOf('2026-12-01T09:00', 'America/Chicago')).toISOString()).toBe('2026-12-01T15:00:00.000Z');
    expect(new Date(instantOf('2026-07-01T09:00', 'America/Chicago')).toISOString()).toBe('2026-07-01T14:00:00.000Z');
    expect(new Date(instantOf('2026-03-08T03:30', 'America/Chicago')).toISOString()).toBe('2026-03-08T08:30:00.000Z');
    expect(localText(Date.parse('2026-07-01T14:00:00Z'), 'America/Chicago')).toBe('2026-07-01T09:00');
    expect(
      momentWords(instantOf('2026-07-01T09:00', 'America/Chicago'), { timeZone: 'America/Chicago', language: 'en-GB', now: NOW }),
    ).toBe('Wed 1 Jul, 09:00');
    expect(instantOf('2026-02-30T09:00', 'America/Chicago')).toBeNaN();
  });
});

describe('the language a browser asks in', () => {
  it('is the first one understood', () => {
    expect(languageOfHeader('en-US,en;q=0.9')).toBe('en-US');
    expect(languageOfHeader('de-DE;q=1, en;q=0.5')).toBe('de-DE');
    expect(languageOfHeader('*')).toBeUndefined();
    expect(languageOfHeader(undefined)).toBeUndefined();
  });

  it('never changes the calendar or the digits through the tag’s extensions', () => {
    const at = '2026-12-01T15:42:00Z';
    const asked = momentWords(at, { timeZone: 'UTC', language: languageOfHeader('en-u-ca-hebrew-nu-arab') });
    expect(asked).toBe(momentWords(at, { timeZone: 'UTC', language: 'en' }));
    expect(asked).toMatch(/Dec/);
  });
});
