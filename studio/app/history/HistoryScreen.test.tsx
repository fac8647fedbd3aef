// @vitest-environment happy-dom
// The history list as a person uses it: every publish newest first with when, what, who, the commit
// and the pages; "Show older" asks for the next 20 from the same newest version; a page opens its
// version; a file's own history asks for that file only.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HistoryPage, HistoryVersion } from '../api.ts';
import { HistoryScreen } from './HistoryScreen.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const version = (id: string, over: Partial<HistoryVersion> = {}): HistoryVersion => ({
  id,
  action: 'publish',
  user: 'maria@example.com',
  at: '2026-03-02T14:05:00.000Z',
  subject: 'Publish Home',
  commit: id,
  files: [{ path: 'content/pages/home.yaml', name: 'Home', change: 'changed' }],
  ...over,
});

const FIRST = 'a'.repeat(40);
const SECOND = 'b'.repeat(40);
const THIRD = 'c'.repeat(40);
const FOURTH = 'd'.repeat(40);

/** The studio server: the history in pages, as asked for. */
function server(pages: Record<string, HistoryPage>) {
  const asked: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      asked.push(url);
      const page = pages[url];
      return page ? Response.json(page) : Response.json({ message: `No answer for ${url}` }, { status: 404 });
    }),
  );
  return asked;
}

describe('the history list', () => {
  it('lists the publishes newest first, and shows older ones from the same newest version', async () => {
    const asked = server({
      '/api/history': {
        versions: [
          version(THIRD, { action: 'restore', user: 'li@example.com' }),
          version(FOURTH, { user: 'ana@example.com', changedBy: ['maria@example.com', 'ana@example.com'] }),
          version(SECOND, {
            action: 'commit',
            user: 'Dev Eloper',
            subject: 'Retitle the FAQ page',
            files: [{ path: 'content/pages/faqs.yaml', name: 'FAQs', change: 'changed' }],
          }),
        ],
        head: THIRD,
        nextOffset: 2,
        git: true,
      },
      [`/api/history?head=${THIRD}&offset=2`]: { versions: [version(FIRST, { action: 'undo' })], head: THIRD, nextOffset: null, git: true },
    });
    const onOpenVersion = vi.fn();
    render(<HistoryScreen path={null} onOpenVersion={onOpenVersion} onShowAll={() => {}} />);

    expect(screen.getByRole('heading', { level: 1, name: 'History' })).toBeTruthy();
    const list = await screen.findByRole('list', { name: 'Publishes' });
    // A marketer reads where the versions come from in plain words, with no tool's name.
    const intro = screen.getByText(/^Every version of the site that was published/).textContent!;
    expect(intro).toContain('changes developers made outside this studio (“Committed outside this studio”)');
    expect(intro).not.toMatch(/\bgit\b/);
    const items = () =>
      within(list)
        .getAllByRole('heading', { level: 2 })
        .map((heading) => heading.textContent);
    expect(items()).toEqual([
      expect.stringMatching(/: Restored an older version by li@example\.com$/),
      expect.stringMatching(/: Published by ana@example\.com, with changes by maria@example\.com$/),
      expect.stringMatching(/: Committed outside this studio by Dev Eloper$/),
    ]);
    expect(list.textContent).toContain('Commit ccccccc');
    expect(list.textContent).toContain('Commit bbbbbbb: Retitle the FAQ page');
    // The time is shown in the person's own time zone and language.
    expect(items()[0]).toContain(
      new Date('2026-03-02T14:05:00.000Z').toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }),
    );

    fireEvent.click(screen.getByRole('button', { name: 'Show older' }));
    await waitFor(() => expect(items()).toHaveLength(4));
    expect(asked).toEqual(['/api/history', `/api/history?head=${THIRD}&offset=2`]);
    expect(items()[3]).toMatch(/Undo of a publish by maria@example\.com$/);
    expect(screen.queryByRole('button', { name: 'Show older' })).toBeNull();
    // Keyboard users go on from the first version that came in.
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Home as it was after this publish'));

    fireEvent.click(within(list).getByRole('link', { name: 'FAQs as it was after this commit' }));
    expect(onOpenVersion).toHaveBeenCalledWith(SECOND, 'content/pages/faqs.yaml');
  });

  it('shows one page’s versions, with a way back to every publish', async () => {
    const asked = server({
      '/api/history?path=content%2Fpages%2Fhome.yaml': { versions: [version(FIRST)], head: FIRST, nextOffset: null, git: false },
    });
    const onShowAll = vi.fn();
    render(<HistoryScreen path="content/pages/home.yaml" name="Home" onOpenVersion={() => {}} onShowAll={onShowAll} />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('History of Home');
    const list = await screen.findByRole('list', { name: 'Versions' });
    expect(within(list).getByRole('link').getAttribute('href')).toBe(
      `?history=content%2Fpages%2Fhome.yaml&version=${FIRST}&page=content%2Fpages%2Fhome.yaml`,
    );
    expect(screen.getByText(/has no git repository/)).toBeTruthy();
    expect(asked).toEqual(['/api/history?path=content%2Fpages%2Fhome.yaml']);
    fireEvent.click(screen.getByRole('button', { name: 'Show every publish' }));
    expect(onShowAll).toHaveBeenCalled();
  });

  it('says why the history cannot be read, and tries again', async () => {
    server({});
    render(<HistoryScreen path={null} onOpenVersion={() => {}} onShowAll={() => {}} />);
    expect((await screen.findByRole('alert')).textContent).toContain('No answer for /api/history');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
