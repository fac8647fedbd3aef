// Pictures drawn from the brand: the Open Graph card of each route (1200×630 PNG, from the page title),
// the square logo and the favicon, drawn with satori (layout to SVG) and resvg (SVG to PNG). The build
// draws them for every deploy and the studio draws a card as the editor types, so both share this file.
// Fonts come from the @fontsource/inter package on disk, so neither needs the network.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Resvg } from '@resvg/resvg-js';
import satori from 'satori';
import type { SiteContent } from '../generated/content-types.ts';
import { createTheme } from '../ui/theme.ts';

export const OG_IMAGE_SIZE = { width: 1200, height: 630 } as const;
export const LOGO_IMAGE_SIZE = { width: 512, height: 512 } as const;
const FAVICON_SIZE_PX = 64;

/** What one card shows: the title large, a short label above it. */
export type OgCard = { title: string; eyebrow?: string };
export type OgBrand = { site: Pick<SiteContent, 'company' | 'brand'>; /** e.g. "premieraiconsulting.com" */ host: string };

type Node = { type: string; props: { style?: Record<string, unknown>; children?: Node | string | (Node | string)[] } };

const FONT_FILES = [
  { weight: 400, file: '@fontsource/inter/files/inter-latin-400-normal.woff' },
  { weight: 700, file: '@fontsource/inter/files/inter-latin-700-normal.woff' },
  { weight: 800, file: '@fontsource/inter/files/inter-latin-800-normal.woff' },
] as const;
const FONT_FAMILY = 'Inter';

let fonts: { name: string; data: Buffer; weight: 400 | 700 | 800; style: 'normal' }[] | undefined;

function loadFonts() {
  const require = createRequire(import.meta.url);
  fonts ??= FONT_FILES.map(({ weight, file }) => ({
    name: FONT_FAMILY,
    data: readFileSync(require.resolve(file)),
    weight,
    style: 'normal' as const,
  }));
  return fonts;
}

const h = (type: string, style: Record<string, unknown>, children?: Node['props']['children']): Node => ({
  type,
  props: { style, children },
});

/**
 * The most characters of a title or label a card draws: far more than its 1200×630 pixels show (about
 * three lines of 30), and few enough that laying them out stays quick. satori lays out every
 * character on the one thread that also answers the studio: a title of 300,000 characters held it for
 * about ten seconds.
 */
export const MAX_CARD_TEXT = 300;

const cut = <T>(text: T): T => (typeof text === 'string' && text.length > MAX_CARD_TEXT ? (text.slice(0, MAX_CARD_TEXT) as T) : text);

/** Long titles get a smaller size so they fit in three lines. */
export function titleFontSizePx(title: string): number {
  if (title.length <= 28) return 80;
  if (title.length <= 48) return 68;
  return 56;
}

function logoMark(site: OgBrand['site'], sizePx: number): Node {
  const brand = createTheme(site.brand).colors;
  const { company } = site;
  return h(
    'div',
    {
      display: 'flex',
      alignItems: 'center',
      justifyContent: 'center',
      width: sizePx,
      height: sizePx,
      borderRadius: sizePx * 0.24,
      backgroundImage: `linear-gradient(135deg, ${brand.primary}, ${brand.accent})`,
      color: brand.white,
      fontSize: sizePx * 0.55,
      fontWeight: 800,
    },
    cut(company.logo ?? company.shortName.slice(0, 1)),
  );
}

function cardTree(card: OgCard, { site, host }: OgBrand): Node {
  const title = cut(card.title);
  const eyebrow = card.eyebrow === undefined ? undefined : cut(card.eyebrow);
  const brand = createTheme(site.brand).colors;
  const { company } = site;
  return h(
    'div',
    {
      display: 'flex',
      flexDirection: 'column',
      justifyContent: 'space-between',
      width: OG_IMAGE_SIZE.width,
      height: OG_IMAGE_SIZE.height,
      padding: '64px 80px',
      boxSizing: 'border-box',
      backgroundColor: brand.ink,
      backgroundImage: `linear-gradient(135deg, ${brand.ink} 0%, ${brand.ink} 45%, ${brand.primaryDark} 100%)`,
      color: brand.white,
      fontFamily: FONT_FAMILY,
    },
    [
      h('div', { display: 'flex', alignItems: 'center', gap: 20 }, [
        logoMark(site, 64),
        h('div', { fontSize: 30, fontWeight: 700, letterSpacing: '-0.01em' }, cut(company.name)),
      ]),
      h('div', { display: 'flex', flexDirection: 'column', gap: 20 }, [
        ...(eyebrow
          ? [
              h(
                'div',
                { fontSize: 26, fontWeight: 700, color: brand.onDarkMuted, textTransform: 'uppercase', letterSpacing: '0.08em' },
                eyebrow,
              ),
            ]
          : []),
        h('div', { fontSize: titleFontSizePx(title), fontWeight: 800, lineHeight: 1.08, letterSpacing: '-0.02em', maxWidth: 1000 }, title),
      ]),
      h('div', { display: 'flex', justifyContent: 'space-between', alignItems: 'center', fontSize: 26, color: brand.onDark }, [
        h('div', {}, cut(company.tagline)),
        h('div', { fontWeight: 700, color: brand.white }, host),
      ]),
    ],
  );
}

function toSvg(tree: Node, size: { width: number; height: number }): Promise<string> {
  // satori's types expect React elements; a plain { type, props } tree is what it reads. Text becomes paths.
  return satori(tree as unknown as Parameters<typeof satori>[0], { ...size, fonts: loadFonts() });
}

async function toPng(tree: Node, size: { width: number; height: number }): Promise<Buffer> {
  const svg = await toSvg(tree, size);
  return new Resvg(svg, { fitTo: { mode: 'width', value: size.width }, font: { loadSystemFonts: false } }).render().asPng();
}

export function renderOgImage(card: OgCard, brand: OgBrand): Promise<Buffer> {
  return toPng(cardTree(card, brand), OG_IMAGE_SIZE);
}

/** The square logo for Organization JSON-LD (search engines want a raster logo of at least 112 px). */
export function renderLogoImage(site: OgBrand['site']): Promise<Buffer> {
  return toPng(
    h(
      'div',
      {
        display: 'flex',
        width: '100%',
        height: '100%',
        alignItems: 'center',
        justifyContent: 'center',
        backgroundColor: 'white',
        fontFamily: FONT_FAMILY,
      },
      [logoMark(site, 400)],
    ),
    LOGO_IMAGE_SIZE,
  );
}

/** The logo mark alone as an SVG (text drawn as paths, so it needs no font): the site's favicon. */
export function renderFaviconSvg(site: OgBrand['site']): Promise<string> {
  return toSvg(logoMark(site, FAVICON_SIZE_PX), { width: FAVICON_SIZE_PX, height: FAVICON_SIZE_PX });
}

/** Width and height from a PNG's IHDR chunk (bytes 16–23). */
export function readPngSize(png: Buffer): { width: number; height: number } {
  if (png.readUInt32BE(0) !== 0x89504e47 || png.toString('ascii', 12, 16) !== 'IHDR') throw new Error('not a PNG file');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}
