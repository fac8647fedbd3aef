// The site's brand colours: the defaults for any colour site settings leave out, and the pairs of
// colours the site draws text with, each of which must reach WCAG AA contrast (4.5:1 for text). A
// brand colour that falls below it would make the site fail its own accessibility tests, so the
// content check refuses it, naming the colour, the pair and the ratio. The theme (ui/theme.ts) and
// the check both read these defaults, so they cannot disagree.

export const BRAND_DEFAULTS = {
  primary: '#4F46E5',
  primaryDark: '#4338CA',
  accent: '#0891B2',
  ink: '#0B1120',
  text: '#0F172A',
  muted: '#475569',
  surface: '#F5F7FB',
  border: '#E2E8F0',
  success: '#047857',
  danger: '#B91C1C',
  gold: '#B45309',
} as const;

export type BrandColour = keyof typeof BRAND_DEFAULTS;

/** Colours the theme adds beside the brand's, fixed. */
export const FIXED_COLOURS = { white: '#FFFFFF', onDark: '#E2E8F0', onDarkMuted: '#A5B4CB' } as const;

/** WCAG AA for text of normal size. */
export const MIN_TEXT_CONTRAST = 4.5;

type Colour = BrandColour | keyof typeof FIXED_COLOURS;

/** Each pair of text on background the site draws, and where (in the words of a message). */
const TEXT_PAIRS: readonly { text: Colour; on: Colour; where: string }[] = [
  { text: 'white', on: 'primary', where: 'white text on buttons' },
  { text: 'white', on: 'primaryDark', where: 'white text on a button under the pointer' },
  { text: 'primary', on: 'white', where: 'links on a white background' },
  { text: 'primary', on: 'surface', where: 'links on a light section' },
  { text: 'text', on: 'white', where: 'body text on a white background' },
  { text: 'text', on: 'surface', where: 'body text on a light section' },
  { text: 'muted', on: 'white', where: 'secondary text on a white background' },
  { text: 'muted', on: 'surface', where: 'secondary text on a light section' },
  { text: 'onDark', on: 'ink', where: 'text on a dark section' },
  { text: 'onDarkMuted', on: 'ink', where: 'secondary text on a dark section' },
  { text: 'success', on: 'white', where: 'success messages' },
  { text: 'danger', on: 'white', where: 'error messages' },
];

export type ContrastProblem = {
  /** The brand colour to change (the pair's other colour is fixed, or both come from the brand). */
  readonly colour: BrandColour;
  readonly message: string;
};

/** Every pair below AA with the brand as site settings give it, one problem per pair. */
export function brandContrastProblems(brand: Partial<Record<BrandColour, string>> = {}): ContrastProblem[] {
  const colours: Record<Colour, string> = { ...BRAND_DEFAULTS, ...brand, ...FIXED_COLOURS };
  const fromBrand = (colour: Colour): colour is BrandColour => colour in BRAND_DEFAULTS;
  const problems: ContrastProblem[] = [];
  for (const { text, on, where } of TEXT_PAIRS) {
    const ratio = contrastRatio(colours[text], colours[on]);
    if (ratio >= MIN_TEXT_CONTRAST) continue;
    // The colour to change is the one site settings set; else the pair's brand colour.
    const colour = [text, on].filter(fromBrand).find((name) => brand[name] !== undefined) ?? [text, on].find(fromBrand)!;
    // More contrast means moving the colour away from the other one of its pair.
    const other = colour === text ? on : text;
    const lighterOrDarker = luminance(colours[colour]) > luminance(colours[other]) ? 'lighter' : 'darker';
    problems.push({
      colour: colour as BrandColour,
      message:
        `The ${colourWords(colour)} colour (${colours[colour]}) is too faint for ${where}: ${colours[text]} on ${colours[on]} has a contrast of ` +
        `${floorTo(ratio, 2)}:1, and text needs at least ${MIN_TEXT_CONTRAST}:1 to be readable (WCAG AA). Choose a ${lighterOrDarker} ${colourWords(colour)} colour.`,
    });
  }
  return problems;
}

/** A brand colour's name as words, as a message says it: "primaryDark" → "primary dark". */
function colourWords(colour: string): string {
  return colour.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

/** The WCAG contrast ratio of two colours written `#RRGGBB`, from 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [lighter, darker] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (lighter + 0.05) / (darker + 0.05);
}

function luminance(hex: string): number {
  const channel = (offset: number) => {
    const value = Number.parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** Rounded down, so a ratio just under the minimum is never shown as reaching it. */
function floorTo(value: number, digits: number): string {
  const factor = 10 ** digits;
  return (Math.floor(value * factor) / factor).toFixed(digits);
}
