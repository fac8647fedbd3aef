// How the page or article being edited appears outside the site: the result a search engine shows
// (its title and description cut where search results cut them, so the editor sees what is lost) and
// the social card a shared link shows. Read again from the server after every saved change, so it
// always shows the draft as the next publish would make it.
import { css } from '@emotion/react';
import { useEffect, useState } from 'react';
import { addressFieldOf, isCollectionKind, type ContentKind } from '../../../content-model/kinds.ts';
import { api, ApiError, type Appearance } from '../api.ts';
import { color, ui } from '../ui.ts';
import type { SaveStatus } from './autosave.ts';

export function AppearancePreview({ path, save }: { path: string; save: SaveStatus }) {
  const [appearance, setAppearance] = useState<Appearance | null>(null);
  const [problem, setProblem] = useState('');
  // Goes up with every reading, so the card's address changes and the browser draws the new one.
  const [reading, setReading] = useState(0);
  const [open, setOpen] = useState(false);

  const saved = save.kind === 'saved' || save.kind === 'clean';
  useEffect(() => {
    if (!saved) return;
    let current = true;
    api.appearance(path).then(
      (answer) => {
        if (!current) return;
        setAppearance(answer);
        setProblem('');
        setReading((n) => n + 1);
      },
      (error: unknown) => {
        if (current) setProblem(error instanceof ApiError ? error.message : 'The search result could not be shown.');
      },
    );
    return () => {
      current = false;
    };
  }, [path, saved]);

  if (!appearance && !problem) return null;
  const titleCut = appearance ? cut(appearance.title, appearance.titleLimit) : undefined;
  const descriptionCut = appearance ? cut(appearance.description, appearance.descriptionLimit) : undefined;
  const tooLong = Boolean(titleCut?.lost || descriptionCut?.lost);

  return (
    <details
      css={css({ border: `1px solid ${color.border}`, borderRadius: 8, padding: '8px 14px', margin: '0 0 14px' })}
      open={open}
      onToggle={(event) => setOpen(event.currentTarget.open)}
    >
      <summary css={css({ cursor: 'pointer', fontWeight: 700 })}>
        Search result and social card
        {tooLong && <span css={css({ fontWeight: 400, color: color.warningInk })}> (cut short in search results)</span>}
      </summary>
      {problem && <p css={ui.help}>{problem}</p>}
      {appearance && titleCut && descriptionCut && (
        <div css={css({ display: 'grid', gap: 14, marginTop: 10 })}>
          <figure css={css({ margin: 0 })} aria-label="As a search result">
            <div
              css={css({
                fontFamily: 'arial, sans-serif',
                maxWidth: 600,
                padding: 12,
                background: color.surface,
                border: `1px solid ${color.border}`,
                borderRadius: 8,
              })}
              data-search-result
            >
              <div css={css({ color: '#202124', fontSize: 14 })}>{appearance.url}</div>
              <div css={css({ color: '#1a0dab', fontSize: 20, lineHeight: 1.3, margin: '2px 0' })}>{titleCut.shown}</div>
              <div css={css({ color: '#4d5156', fontSize: 14, lineHeight: 1.58 })}>{descriptionCut.shown}</div>
            </div>
            <figcaption css={ui.help}>
              As a search result.{' '}
              {titleCut.lost
                ? `The title has ${appearance.title.length} characters; about ${appearance.titleLimit} are shown, so “${titleCut.lost}” is cut off.`
                : `The title fits (${appearance.title.length} of about ${appearance.titleLimit} characters).`}{' '}
              {descriptionCut.lost
                ? `The description has ${appearance.description.length} characters; about ${appearance.descriptionLimit} are shown.`
                : `The description fits (${appearance.description.length} of about ${appearance.descriptionLimit} characters).`}
            </figcaption>
          </figure>
          <figure css={css({ margin: 0 })} aria-label="As a shared link">
            {appearance.card.kind === 'picture' ? (
              <img
                src={appearance.card.src}
                alt={appearance.card.alt}
                css={css({ width: '100%', maxWidth: 480, height: 'auto', borderRadius: 8, border: `1px solid ${color.border}` })}
              />
            ) : open ? (
              <img
                src={api.cardUrl(path, reading)}
                alt={`The card drawn for this page: ${appearance.card.eyebrow ? `${appearance.card.eyebrow}, ` : ''}${appearance.card.title}`}
                width={1200}
                height={630}
                css={css({ width: '100%', maxWidth: 480, height: 'auto', borderRadius: 8, border: `1px solid ${color.border}` })}
              />
            ) : null}
            <figcaption css={ui.help}>
              {appearance.card.kind === 'picture'
                ? 'When the page is shared, its own picture is shown (set under “Image”).'
                : 'When the page is shared, the site shows this card, drawn from the title when you publish.'}
            </figcaption>
          </figure>
        </div>
      )}
    </details>
  );
}

/**
 * Pages and articles appear in search results; the article template and the not-found page do not.
 * A file whose address follows from its name always has a real one; a file that writes its own
 * address appears when that is a real address, not a route pattern ("/blog/:slug", "*").
 */
export function appearsInSearch(kind: ContentKind, data: unknown): boolean {
  if (!isCollectionKind(kind)) return false;
  const addressField = addressFieldOf(kind);
  if (addressField === undefined) return true;
  if (typeof data !== 'object' || data === null) return false;
  const address = (data as Record<string, unknown>)[addressField];
  return typeof address === 'string' && address.startsWith('/') && !address.includes(':');
}

/** What a search result shows of `text` (cut at a word, with "…"), and what it leaves out. */
export function cut(text: string, limit: number): { shown: string; lost: string } {
  if (text.length <= limit) return { shown: text, lost: '' };
  const space = text.lastIndexOf(' ', limit - 1);
  const end = space > limit * 0.6 ? space : limit - 1;
  return { shown: `${text.slice(0, end).trimEnd()} …`, lost: text.slice(end).trim() };
}
