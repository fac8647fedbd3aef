// @vitest-environment happy-dom
// A change shown in the form's words: the place as the form names it, the words that went and came
// marked for the eye and for a screen reader, a block added or removed by name, a picture by its
// thumbnail and description, and the file's lines one click away.
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { jargonIn } from '../testing/plain-words.ts';
import { homePage, siteFormModel } from '../../testing/site-model.ts';
import { ChangeList, type ChangedFile } from './ChangeList.tsx';
import { FormModelProvider } from './form-model-context.ts';

afterEach(cleanup);

const model = siteFormModel();
type Page = { blocks: Record<string, unknown>[] };
const home: Page = homePage();
const HUNKS: ChangedFile['hunks'] = [
  {
    lines: [
      { kind: 'removed', text: '    heading: Transform Your Business with Premier AI' },
      { kind: 'added', text: '    heading: Grow Your Business with Premier AI' },
    ],
  },
];

function show(after: Page, options: { before?: Page | null; change?: ChangedFile['change']; withModel?: boolean } = {}) {
  const file: ChangedFile = {
    path: 'content/pages/home.yaml',
    change: options.change ?? 'changed',
    hunks: HUNKS,
    before: options.before === undefined ? home : options.before,
    after,
  };
  return render(
    <FormModelProvider value={options.withModel === false ? null : model}>
      <ChangeList file={file} name="Home" />
    </FormModelProvider>,
  );
}

function edited(change: (page: Page) => void): Page {
  const page = structuredClone(home);
  change(page);
  return page;
}

describe('a change in the form’s words', () => {
  it('shows a changed heading at its place, the word that went struck through and the one that came marked, in words too', () => {
    const { container } = show(edited((page) => (page.blocks[0]!.heading = 'Grow Your Business with Premier AI')));
    expect(screen.getByText('Home › Hero › Heading')).toBeTruthy();
    const removed = container.querySelector('del')!;
    const added = container.querySelector('ins')!;
    expect(removed.textContent).toBe(' [removed: Transform] ');
    expect(added.textContent).toBe(' [added: Grow] ');
    // The rest of the heading reads as it is, before and after.
    expect(removed.parentElement!.textContent).toContain('Your Business with Premier AI');
    const details = container.querySelector('details')!;
    expect(details.open).toBe(false);
    expect(jargonIn(container.querySelector('ul')!.textContent!)).toEqual([]);
  });

  it('keeps the file’s lines one click away', () => {
    const { container } = show(edited((page) => (page.blocks[0]!.heading = 'Grow')));
    const details = container.querySelector('details')!;
    expect(details.open).toBe(false);
    fireEvent.click(screen.getByText('Show the file’s lines'));
    expect(details.open).toBe(true);
    expect(details.querySelector('[data-diff="added"]')!.textContent).toContain('heading: Grow Your Business');
  });

  it('names a block added and one removed by the block’s name', () => {
    const added = edited((page) => page.blocks.splice(1, 0, { type: 'cta', heading: 'Book a call today' }));
    const { container } = show(added);
    expect(container.querySelector('ins')!.textContent).toBe('Call to action');
    expect(container.textContent).toContain('Added');
    expect(container.textContent).toContain('Book a call today');
    cleanup();
    const shown = show(home, { before: added });
    expect(shown.container.querySelector('del')!.textContent).toBe('Call to action');
    expect(shown.container.textContent).toContain('Removed');
  });

  it('shows a picture changed as thumbnails with their descriptions', () => {
    const before = edited((page) =>
      page.blocks.push({ type: 'rich-text', body: 'Hi', image: { src: '/images/uploads/a.png', alt: 'The old office' } }),
    );
    const after = edited((page) =>
      page.blocks.push({ type: 'rich-text', body: 'Hi', image: { src: '/images/uploads/b.png', alt: 'The new office' } }),
    );
    const { container } = show(after, { before });
    expect([...container.querySelectorAll('img')].map((image) => image.getAttribute('src'))).toEqual([
      '/images/uploads/a.png',
      '/images/uploads/b.png',
    ]);
    const captions = [...container.querySelectorAll('figcaption')].map((caption) => caption.textContent);
    expect(captions).toEqual(['Before: “The old office”', 'After: “The new office”']);
    expect(screen.getByText('Home › Text section › Picture')).toBeTruthy();
  });

  it('says a choice by its label, never the value in the file', () => {
    const { container } = show(edited((page) => (page.blocks[0]!.variant = 'compact')));
    expect(screen.getByText('Home › Hero › Variant')).toBeTruthy();
    expect(container.querySelector('del')!.textContent).toContain('Feature');
    expect(container.querySelector('ins')!.textContent).toContain('Compact');
    expect(container.querySelector('ul')!.textContent).not.toMatch(/compact|feature/);
  });

  it('shows the file’s lines open when the change cannot be told in the form’s words', () => {
    const { container } = show(home, { before: null });
    expect(container.querySelector('details')!.open).toBe(true);
    expect(container.textContent).toContain('only as the file’s lines');
  });

  it('says when nothing changed, and a deleted page as deleted, not field by field', () => {
    const same = show(home);
    expect(same.container.textContent).toContain('Nothing in it changed.');
    cleanup();
    const deleted = show(home, { change: 'deleted' });
    expect(deleted.container.textContent).toContain('Home is deleted, with everything it held.');
    expect(deleted.container.querySelector('ul')).toBeNull();
  });
});
