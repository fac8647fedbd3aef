// Anonymous visitors cannot grow the kept reports without bound: past the day's number of distinct
// referring sites and campaigns, new ones are counted as "(other)"; the next day starts afresh.
import { describe, expect, it } from 'vitest';
import { createValueCap, OTHER } from './value-cap.ts';

describe('the daily bound on referring sites and campaigns', () => {
  it('keeps the first ones of the day and counts the rest as "(other)"', () => {
    const cap = createValueCap(2);
    const view = (host: string, name: string) =>
      cap({ type: 'pageview', path: '/', referrerHost: host, campaign: { source: 'ads', name } }, '2026-11-27');
    expect(view('a.example', 'one')).toMatchObject({ referrerHost: 'a.example', campaign: { source: 'ads', name: 'one' } });
    expect(view('b.example', 'two')).toMatchObject({ referrerHost: 'b.example', campaign: { source: 'ads', name: 'two' } });
    expect(view('c.example', 'three')).toMatchObject({ referrerHost: OTHER, campaign: { source: OTHER, name: OTHER } });
    // The ones already kept stay themselves.
    expect(view('a.example', 'two')).toMatchObject({ referrerHost: 'a.example', campaign: { source: 'ads', name: 'two' } });
    expect(cap({ type: 'pageview', path: '/', referrerHost: 'd.example' }, '2026-11-28')).toMatchObject({ referrerHost: 'd.example' });
  });

  it('leaves events without a referring site or campaign as they are', () => {
    const cap = createValueCap(0);
    const event = { type: 'form_start' as const, path: '/', form: 'home' as const };
    expect(cap(event, '2026-11-27')).toBe(event);
  });
});
