// @vitest-environment happy-dom
// The navigator as a person uses it: files grouped under Settings, Pages and Articles with their
// state, a search that narrows every group, the open file marked as current, and a click that opens
// a file in the studio instead of reloading the page.
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Entry } from '../api.ts';
import { Navigator } from './Navigator.tsx';

afterEach(cleanup);

const entry = (over: Partial<Entry> & Pick<Entry, 'path' | 'kind' | 'title'>): Entry => ({
  markedDraft: false,
  edited: false,
  isNew: false,
  deleted: false,
  name: over.title,
  ...over,
});

const ENTRIES: Entry[] = [
  entry({ path: 'content/site.yaml', kind: 'site', title: 'Site settings' }),
  entry({ path: 'content/pages/about.yaml', kind: 'page', title: 'About Us', address: '/about', edited: true }),
  entry({ path: 'content/pages/spring.yaml', kind: 'page', title: 'Spring offer', address: '/spring', isNew: true, markedDraft: true }),
  entry({ path: 'content/blog/hello.md', kind: 'article', title: 'Hello', address: '/blog/hello', deleted: true }),
];

function draw(openPath: string | null = null) {
  const onOpen = vi.fn();
  render(<Navigator entries={ENTRIES} openPath={openPath} onOpen={onOpen} onCreated={async () => {}} hidden={false} />);
  return { onOpen, nav: screen.getByRole('navigation', { name: 'Content' }) };
}

const group = (title: string) => screen.getByRole('region', { name: title });

describe('the navigator', () => {
  it('groups the files and shows each one’s address and state', () => {
    draw();
    expect(
      within(group('Settings'))
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Site settings']);
    expect(
      within(group('Pages'))
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['About Us/aboutEdited', 'Spring offer/springDraftNew']);
    expect(within(group('Articles')).getByRole('link').textContent).toBe('Hello/blog/helloDeleted');
  });

  it('narrows every group to the files whose title, address or path match the search', () => {
    draw();
    fireEvent.change(screen.getByLabelText('Search pages and articles'), { target: { value: 'SPRING' } });
    expect(
      within(group('Pages'))
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Spring offer/springDraftNew']);
    expect(within(group('Settings')).getByText('None match.')).toBeTruthy();
    expect(within(group('Articles')).getByText('None match.')).toBeTruthy();
    // By address, which is not in the title.
    fireEvent.change(screen.getByLabelText('Search pages and articles'), { target: { value: '/blog/' } });
    expect(
      within(group('Articles'))
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Hello/blog/helloDeleted']);
    expect(within(group('Pages')).getByText('None match.')).toBeTruthy();
  });

  it('marks the open file as the current one, and opens a file in the studio when it is chosen', () => {
    const { onOpen } = draw('content/pages/about.yaml');
    const about = screen.getByRole('link', { name: /^About Us/ });
    expect(about.getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('link', { name: /^Site settings/ }).getAttribute('aria-current')).toBeNull();
    const click = new MouseEvent('click', { bubbles: true, cancelable: true });
    fireEvent(screen.getByRole('link', { name: /^Hello/ }), click);
    expect(click.defaultPrevented).toBe(true);
    expect(onOpen).toHaveBeenCalledWith('content/blog/hello.md');
  });

  it('opens the form for a new page, with the focus in its name', () => {
    draw();
    const newPage = screen.getByRole('button', { name: 'New page' });
    fireEvent.click(newPage);
    expect(newPage.getAttribute('aria-expanded')).toBe('true');
    expect(document.activeElement).toBe(screen.getByLabelText(/^Name/));
    expect(screen.getByRole('button', { name: 'Create page' })).toBeTruthy();
  });
});
