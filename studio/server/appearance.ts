// How a page or an article appears outside the site, as the editor is writing it: the result a search
// engine shows (the full title, the address, the description, each cut where a search result cuts
// it) and the social card a shared link shows (the picture the build draws from the title, or the
// page's own picture when it has one). Read from the text being edited (the draft, or the file), with
// the site settings as drafted, so what the editor sees is what the next publish makes.
import { parse } from 'yaml';
import { renderOgImage, type OgCard } from '../../brand-pictures/og-image.ts';
import { SEARCH_DESCRIPTION_CHARACTERS, SEARCH_TITLE_CHARACTERS } from '../../content-model/checks/content-warnings.ts';
import { isCollectionKind } from '../../content-model/kinds.ts';
import { ARTICLE_PATH, NOT_FOUND_PATH } from '../../content-model/load/load-content.ts';
import { isRecord } from '../../content-model/values.ts';
import { titleStem } from '../../renderer/head-tags.ts';
import type { Appearance } from '../api-types.ts';
import type { ContentEditing } from './editing.ts';
import { WorkspaceError, type Workspace } from './workspace.ts';

export type { Appearance };

const SITE_FILE = 'content/site.yaml';

/** Drawn cards kept, newest last: an editor going back and forth between two titles waits once. */
const CARDS_KEPT = 16;
/** Drawing a card takes a few hundred milliseconds of one core: one at a time, a few waiting. */
const CARDS_WAITING = 4;

/** Too many cards asked for at once: the route answers 503, and the browser asks again after the next save. */
export class CardsBusyError extends Error {
  override name = 'CardsBusyError';
  constructor() {
    super('The studio is drawing other cards just now. The picture is drawn again with your next change.');
  }
}

export function createAppearance({ workspace, editing, siteUrl }: { workspace: Workspace; editing: ContentEditing; siteUrl: string }) {
  const host = new URL(siteUrl).host;
  const drawn = new Map<string, Buffer>();
  let drawing: Promise<unknown> = Promise.resolve();
  let waiting = 0;

  /** The site settings as drafted; the ones on disk when the draft cannot be read. */
  function siteSettings(): Record<string, unknown> {
    const opened = workspace.open(SITE_FILE);
    const readings = [() => editing.parseData(opened), () => (opened.disk ? (parse(opened.disk.text) as unknown) : undefined)];
    for (const read of readings) {
      try {
        const data = read();
        if (isRecord(data)) return data;
      } catch {
        // a draft that is not YAML yet: the file on disk
      }
    }
    return {};
  }

  function describe(relative: string): Appearance {
    const opened = workspace.open(relative);
    const { kind } = opened.file;
    if (!isCollectionKind(kind)) throw new WorkspaceError('Only pages and articles appear in search results.');
    const site = siteSettings();
    const seo = isRecord(site.seo) ? site.seo : {};
    const template = typeof seo.titleTemplate === 'string' && seo.titleTemplate.includes('%s') ? seo.titleTemplate : '%s';
    const data = editing.parseData(opened);

    if (kind === 'article') {
      const frontMatter = isRecord(data) && isRecord(data.frontMatter) ? data.frontMatter : {};
      const name = text(frontMatter.title);
      const card: OgCard = { title: name, ...(text(frontMatter.category) ? { eyebrow: text(frontMatter.category) } : {}) };
      return result({
        title: template.replace('%s', name),
        description: text(frontMatter.excerpt),
        address: `/blog/${opened.file.name}`,
        card,
      });
    }

    const page = isRecord(data) ? data : {};
    const address = text(page.path);
    if (address === ARTICLE_PATH || address === NOT_FOUND_PATH)
      throw new WorkspaceError('This page is not shown in search results on its own: each article, or the page it stands in for, is.');
    // The same rule as the site's <title>: a title with its own "|" is used as it is.
    const own = text(page.title);
    const title = own.includes('|') ? own : template.replace('%s', own);
    const image = isRecord(page.image) ? page.image : undefined;
    return result({
      title,
      description: text(page.description),
      address,
      card: { title: titleStem(title) },
      ...(image && text(image.src) ? { picture: { src: text(image.src), alt: text(image.alt) } } : {}),
    });
  }

  function result(found: {
    title: string;
    description: string;
    address: string;
    card: OgCard;
    picture?: { src: string; alt: string };
  }): Appearance {
    return {
      title: found.title,
      description: found.description,
      url: `${host}${found.address === '/' ? '' : found.address}`,
      titleLimit: SEARCH_TITLE_CHARACTERS,
      descriptionLimit: SEARCH_DESCRIPTION_CHARACTERS,
      card: found.picture ? { kind: 'picture', ...found.picture } : { kind: 'drawn', ...found.card },
    };
  }

  /** The card the build draws for this page or article, as a PNG. */
  async function card(relative: string): Promise<Buffer> {
    const appearance = describe(relative);
    if (appearance.card.kind !== 'drawn') throw new WorkspaceError('This page has its own picture for sharing, shown as it is.', 404);
    const site = siteSettings();
    const cardOf: OgCard = { title: appearance.card.title, ...(appearance.card.eyebrow ? { eyebrow: appearance.card.eyebrow } : {}) };
    const brand = { site: { company: site.company, brand: site.brand } as Parameters<typeof renderOgImage>[1]['site'], host };
    const key = JSON.stringify([cardOf, brand]);
    const kept = drawn.get(key);
    if (kept) {
      drawn.delete(key);
      drawn.set(key, kept);
      return kept;
    }
    if (waiting >= CARDS_WAITING) throw new CardsBusyError();
    waiting += 1;
    const next = drawing.then(() => renderOgImage(cardOf, brand));
    drawing = next.catch(() => undefined);
    try {
      const png = await next;
      drawn.set(key, png);
      if (drawn.size > CARDS_KEPT) drawn.delete(drawn.keys().next().value!);
      return png;
    } catch {
      throw new WorkspaceError('The card could not be drawn from these site settings. Check the company name and the brand colours.', 422);
    } finally {
      waiting -= 1;
    }
  }

  return { describe, card };
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
