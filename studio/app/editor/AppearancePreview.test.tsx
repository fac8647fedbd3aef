// @vitest-environment happy-dom
// The search result and social card beside a page's fields: a title too long for a search result is
// shown cut where search results cut it, with what is lost; the card is the server's drawing of the
// draft, asked for again after each save; the article template is not offered one.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Appearance } from '../api.ts';
import type { SaveStatus } from './autosave.ts';
import { AppearancePreview, appearsInSearch, cut } from './AppearancePreview.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const LONG_TITLE = 'Who we are, how we work, and why growing businesses choose us | Premier AI Consulting';

function serve(appearance: Appearance) {
  const asked: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      asked.push(url);
      return new Response(JSON.stringify(appearance), { status: 200, headers: { 'content-type': 'application/json' } });
    }),
  );
  return asked;
}

const about: Appearance = {
  title: 'About Us | Premier AI Consulting',
  description: 'Meet the team behind Premier AI Consulting.',
  url: 'www.example.com/about',
  titleLimit: 60,
  descriptionLimit: 160,
  card: { kind: 'drawn', title: 'About Us' },
};

describe('AppearancePreview', () => {
  it('shows the search result as it is when it fits, and the card drawn for the draft once opened', async () => {
    const asked = serve(about);
    render(<AppearancePreview path="content/pages/about.yaml" save={{ kind: 'clean' }} />);
    fireEvent.click(await screen.findByText('Search result and social card'));
    expect(screen.getByText('www.example.com/about')).toBeTruthy();
    expect(screen.getByText('About Us | Premier AI Consulting')).toBeTruthy();
    expect(screen.getByText(/The title fits \(32 of about 60 characters\)/)).toBeTruthy();
    const card = screen.getByRole('img', { name: 'The card drawn for this page: About Us' });
    expect(card.getAttribute('src')).toBe('/api/appearance/card?path=content%2Fpages%2Fabout.yaml&revision=1');
    expect(asked).toEqual(['/api/appearance?path=content%2Fpages%2Fabout.yaml']);
  });

  it('shows a long title cut where a search result cuts it, says what is lost, and reads the draft again after a save', async () => {
    const asked = serve({ ...about, title: LONG_TITLE, card: { kind: 'drawn', title: LONG_TITLE.split(' | ')[0]! } });
    const { rerender } = render(<AppearancePreview path="content/pages/about.yaml" save={{ kind: 'clean' }} />);
    expect(await screen.findByText('(cut short in search results)')).toBeTruthy();
    expect(screen.getByText('Who we are, how we work, and why growing businesses choose …')).toBeTruthy();
    expect(screen.getByText(/The title has 85 characters; about 60 are shown, so “us \| Premier AI Consulting” is cut off\./)).toBeTruthy();

    const editing: SaveStatus = { kind: 'unsaved' };
    rerender(<AppearancePreview path="content/pages/about.yaml" save={editing} />);
    rerender(<AppearancePreview path="content/pages/about.yaml" save={{ kind: 'saved' }} />);
    await waitFor(() => expect(asked).toHaveLength(2));
  });

  it('shows the page’s own sharing picture when it has one', async () => {
    serve({ ...about, card: { kind: 'picture', src: '/images/team.jpg', alt: 'The team at work' } });
    render(<AppearancePreview path="content/pages/about.yaml" save={{ kind: 'clean' }} />);
    expect((await screen.findByRole('img', { name: 'The team at work', hidden: true })).getAttribute('src')).toBe('/images/team.jpg');
  });
});

describe('which files appear in search results', () => {
  it('offers the preview for pages with an address and articles, not for the article template or the not-found page', () => {
    expect(appearsInSearch('page', { path: '/about' })).toBe(true);
    expect(appearsInSearch('article', {})).toBe(true);
    expect(appearsInSearch('page', { path: '/blog/:slug' })).toBe(false);
    expect(appearsInSearch('page', { path: '*' })).toBe(false);
    expect(appearsInSearch('site', {})).toBe(false);
  });

  it('cuts a text at a word before the limit', () => {
    expect(cut('short', 60)).toEqual({ shown: 'short', lost: '' });
    expect(cut('one two three four', 10)).toEqual({ shown: 'one two …', lost: 'three four' });
  });
});
