// @vitest-environment happy-dom
// The history list as a person uses it: every publish newest first in words (what, who, when in the
// team's zone), the commit one click away, and the pages; "Show older" asks for the next 20 from the same newest version; a page opens its
// version; a file's own history asks for that file only.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HistoryPage, HistoryVersion } from '../api.ts';
import { localTime, setTeamTimeZone } from '../local-time.ts';
import { HistoryScreen } from './HistoryScreen.tsx';

beforeEach(() => setTeamTimeZone('America/Chicago'));
afterEach(() => {
  setTeamTimeZone(undefined);
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
          version(FOURTH, {
            user: 'sam@example.com',
            changedBy: ['mia@example.com'],
            approvedBy: 'sam@example.com',
            summary: 'Home and About published by Mia, approved by Sam',
          }),
          version(SECOND, {
            action: 'commit',
            user: 'Dev Eloper',
            subject: 'Retitle the FAQ page',
            message: 'Retitle the FAQ page\n\nThe old title was cut off in search results.',
            summary: 'Changed outside the studio by Dev Eloper',
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
    expect(intro).toContain('changes developers made outside this studio (“Changed outside the studio”)');
    expect(intro).not.toMatch(/\bgit\b/);
    const items = () =>
      within(list)
        .getAllByRole('heading', { level: 2 })
        .map((heading) => heading.textContent);
    // Each entry in words, with the time in the team's zone (Chicago: 14:05 UTC is 08:05 there) in the
    // studio's one date format; a version without a summary (an older server) still reads as words.
    const when = localTime('2026-03-02T14:05:00.000Z');
    expect(when).toMatch(/^Mon,? (2 Mar|Mar 2)(,? 2026)?,? 0?8:05/);
    expect(items()).toEqual([
      `Restored an older version by Li, ${when}`,
      `Home and About published by Mia, approved by Sam, ${when}`,
      `Changed outside the studio by Dev Eloper, ${when}`,
    ]);
    // The commit and its whole message are one click away, for developers.
    const details = within(list).getAllByText('Details for developers');
    expect(details).toHaveLength(3);
    const developers = details[2]!.closest('details')!;
    expect(developers.open).toBe(false);
    expect(developers.textContent).toContain('Commit bbbbbbb: Retitle the FAQ page');
    expect(developers.textContent).toContain('The old title was cut off in search results.');

    fireEvent.click(screen.getByRole('button', { name: 'Show older' }));
    await waitFor(() => expect(items()).toHaveLength(4));
    expect(asked).toEqual(['/api/history', `/api/history?head=${THIRD}&offset=2`]);
    expect(items()[3]).toBe(`Undo of a publish by Maria, ${when}`);
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
