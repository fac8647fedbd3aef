// Anonymous visitors cannot grow the kept reports without bound: past the day's number of distinct
// referring sites and campaigns, new ones are counted as "(other)"; the next day starts afresh. A
// campaign a lead carried is never among them.
import { describe, expect, it } from 'vitest';
import { createValueCap, OTHER } from './value-cap.ts';

const DAY = '2026-11-27';

describe('the daily bound on referring sites and campaigns', () => {
  it('keeps the first ones of the day and counts the rest as "(other)"', () => {
    const { cap } = createValueCap(2);
    const view = (host: string, name: string) =>
      cap({ type: 'pageview', path: '/', referrerHost: host, campaign: { source: 'ads', name } }, DAY);
    expect(view('a.example', 'one')).toMatchObject({ referrerHost: 'a.example', campaign: { source: 'ads', name: 'one' } });
    expect(view('b.example', 'two')).toMatchObject({ referrerHost: 'b.example', campaign: { source: 'ads', name: 'two' } });
    expect(view('c.example', 'three')).toMatchObject({ referrerHost: OTHER, campaign: { source: OTHER, name: OTHER } });
    // The ones already kept stay themselves.
    expect(view('a.example', 'two')).toMatchObject({ referrerHost: 'a.example', campaign: { source: 'ads', name: 'two' } });
    expect(cap({ type: 'pageview', path: '/', referrerHost: 'd.example' }, '2026-11-28')).toMatchObject({ referrerHost: 'd.example' });
  });

  it('leaves events without a referring site or campaign as they are', () => {
    const { cap } = createValueCap(0);
    const event = { type: 'form_start' as const, path: '/', form: 'home' as const };
    expect(cap(event, DAY)).toBe(event);
  });

  it('takes no room for the words the campaign report does not keep (term, content)', () => {
    const { cap } = createValueCap(1);
    for (const term of ['a', 'b', 'c']) {
      expect(cap({ type: 'pageview', path: '/', campaign: { name: 'spring', term } }, DAY).campaign).toEqual({ name: 'spring', term });
    }
    expect(cap({ type: 'pageview', path: '/', campaign: { name: 'autumn' } }, DAY).campaign).toEqual({ source: OTHER, name: OTHER });
  });

  it('counts a campaign a lead carried under its name for the rest of the day, however full the bound', () => {
    const { cap, keepCampaign } = createValueCap(1);
    const view = (name: string, day = DAY) => cap({ type: 'pageview', path: '/', campaign: { source: 'linkedin', name } }, day).campaign;
    expect(view('junk-1')).toEqual({ source: 'linkedin', name: 'junk-1' });
    expect(view('roi-q4')).toEqual({ source: OTHER, name: OTHER });
    keepCampaign({ source: 'linkedin', name: 'roi-q4' }, DAY);
    expect(view('roi-q4')).toEqual({ source: 'linkedin', name: 'roi-q4' });
    expect(view('junk-2')).toEqual({ source: OTHER, name: OTHER });
    // The next day starts afresh: the campaign takes its place in the bound like any other.
    expect(view('junk-3', '2026-11-28')).toEqual({ source: 'linkedin', name: 'junk-3' });
    expect(view('roi-q4', '2026-11-28')).toEqual({ source: OTHER, name: OTHER });
  });
});
