import { describe, expect, it } from 'vitest';
import { BRAND_DEFAULTS, brandContrastProblems, contrastRatio, MIN_TEXT_CONTRAST } from './brand-colours.ts';

describe('contrastRatio', () => {
  it.each([
    ['#000000', '#FFFFFF', 21],
    ['#FFFFFF', '#FFFFFF', 1],
    ['#767676', '#FFFFFF', 4.54],
    ['#777777', '#FFFFFF', 4.48],
  ])('%s on %s is %s:1, whichever way round', (a, b, ratio) => {
    expect(contrastRatio(a, b)).toBeCloseTo(ratio, 2);
    expect(contrastRatio(b, a)).toBeCloseTo(ratio, 2);
  });
});

describe('brand colours', () => {
  it('reach AA for every pair the site draws text with, as shipped', () => {
    expect(brandContrastProblems()).toEqual([]);
    expect(brandContrastProblems(BRAND_DEFAULTS)).toEqual([]);
  });

  it('names a pale main colour, the pair it fails, the ratio rounded down and which way to move it', () => {
    const problems = brandContrastProblems({ primary: '#8B9CF7' });
    expect(problems.map((problem) => problem.colour)).toEqual(['primary', 'primary', 'primary']);
    expect(problems[0]!.message).toBe(
      'The primary colour (#8B9CF7) is too faint for white text on buttons: #FFFFFF on #8B9CF7 has a contrast of 2.56:1, and text needs at ' +
        `least ${MIN_TEXT_CONTRAST}:1 to be readable (WCAG AA). Choose a darker primary colour.`,
    );
    expect(problems.map((problem) => problem.message)).toEqual([
      expect.stringContaining('white text on buttons'),
      expect.stringContaining('links on a white background'),
      expect.stringContaining('links on a light section'),
    ]);
  });

  it('asks for a lighter background when dark text on it is unreadable', () => {
    const problems = brandContrastProblems({ surface: '#64748B' });
    expect(problems.every((problem) => problem.colour === 'surface')).toBe(true);
    expect(problems[0]!.message).toMatch(/Choose a lighter surface colour\.$/);
  });

  it('blames the colour site settings changed, not the default beside it', () => {
    // A light "ink" makes the fixed light text on dark sections unreadable: ink is the one to change.
    expect(brandContrastProblems({ ink: '#94A3B8' }).map((problem) => problem.colour)).toEqual(['ink', 'ink']);
    // Body text as light as the light section it sits on: the text is the one that was changed.
    expect(brandContrastProblems({ text: '#CBD5E1' }).map((problem) => problem.colour)).toEqual(['text', 'text']);
  });
});
