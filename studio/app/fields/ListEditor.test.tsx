// @vitest-environment happy-dom
// Lists and a page's blocks, used with the mouse and the keyboard: add, remove, move up and down
// (keyboard focus follows the item it moved), the add button named after one item, and the palette
// of block types.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { EMPTY_MODEL, renderField } from '../testing/render-field.tsx';
import type { Field, FormModel } from './form-model.ts';

afterEach(cleanup);

const questions: Field = {
  key: 'questions',
  label: 'Questions',
  required: true,
  kind: 'list',
  item: { key: '', label: 'Question', required: true, kind: 'text' },
};

/** The headings of the list's items, top to bottom, as a person reads them. */
const headings = () => [...document.querySelectorAll('[data-item-heading]')].map((heading) => heading.textContent);

/** The live region that tells screen reader users what happened. */
const announcement = () => document.querySelector('[aria-live="polite"]')?.textContent;

describe('a list', () => {
  it('is a region titled by its label, with one heading per item summarising it', () => {
    renderField(questions, ['Why?', 'How much?']);
    expect(screen.getByRole('region', { name: /^Questions/ })).toBeTruthy();
    expect(headings()).toEqual(['Question 1 — Why?', 'Question 2 — How much?']);
  });

  it('names its add button after one item ("Categories" → "Add category")', () => {
    renderField(questions, []);
    expect(screen.getByRole('button', { name: 'Add question' })).toBeTruthy();
    cleanup();
    renderField({ ...questions, key: 'categories', label: 'Categories' }, []);
    expect(screen.getByRole('button', { name: 'Add category' })).toBeTruthy();
  });

  it('adds an empty item at the end, announces it, and moves keyboard focus to it', async () => {
    const list = renderField(questions, ['Why?']);
    fireEvent.click(screen.getByRole('button', { name: 'Add question' }));
    expect(list.value()).toEqual(['Why?', '']);
    expect(headings()).toEqual(['Question 1 — Why?', 'Question 2']);
    expect(announcement()).toBe('Question 2 added.');
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Question 2'));
    // The new item's field is there to be filled in.
    fireEvent.change(screen.getByLabelText(/^Question 2/), { target: { value: 'Who?' } });
    expect(list.value()).toEqual(['Why?', 'Who?']);
  });

  it('cannot grow past the schema’s maximum', () => {
    renderField({ ...questions, constraints: { maxItems: 2 } }, ['a', 'b']);
    expect((screen.getByRole('button', { name: 'Add question' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('adds an object item with its required properties, its fields labelled', () => {
    const links: Field = {
      key: 'navigation',
      label: 'Navigation',
      required: true,
      kind: 'list',
      item: {
        key: '',
        label: 'Link',
        required: true,
        kind: 'object',
        fields: [
          { key: 'label', label: 'Label', required: true, kind: 'text' },
          { key: 'href', label: 'Link', required: true, kind: 'link' },
        ],
      },
    };
    const list = renderField(links, []);
    fireEvent.click(screen.getByRole('button', { name: /^Add / }));
    expect(list.value()).toEqual([{ label: '', href: '' }]);
    const item = document.querySelector<HTMLElement>('li[data-item="0"]')!;
    fireEvent.change(within(item).getByLabelText(/^Label/), { target: { value: 'Spring offer' } });
    expect(list.value()).toEqual([{ label: 'Spring offer', href: '' }]);
  });

  it('removes the item whose Remove button is pressed, and announces it', () => {
    const list = renderField(questions, ['a', 'b', 'c']);
    fireEvent.click(screen.getByRole('button', { name: 'Remove Question 2' }));
    expect(list.value()).toEqual(['a', 'c']);
    expect(headings()).toEqual(['Question 1 — a', 'Question 2 — c']);
    expect(announcement()).toBe('Question 2 removed.');
  });

  it('moves an item up or down one place, and announces where it went', () => {
    const list = renderField(questions, ['a', 'b', 'c']);
    fireEvent.click(screen.getByRole('button', { name: 'Move Question 1 down' }));
    expect(list.value()).toEqual(['b', 'a', 'c']);
    expect(announcement()).toBe('Question moved to position 2 of 3.');
    fireEvent.click(screen.getByRole('button', { name: 'Move Question 3 up' }));
    expect(list.value()).toEqual(['b', 'c', 'a']);
    expect(announcement()).toBe('Question moved to position 2 of 3.');
  });

  it('cannot move the first item up or the last one down', () => {
    const list = renderField(questions, ['a', 'b']);
    const up = screen.getByRole('button', { name: 'Move Question 1 up' }) as HTMLButtonElement;
    const down = screen.getByRole('button', { name: 'Move Question 2 down' }) as HTMLButtonElement;
    expect(up.disabled).toBe(true);
    expect(down.disabled).toBe(true);
    fireEvent.click(up);
    fireEvent.click(down);
    expect(list.value()).toEqual(['a', 'b']);
    expect(list.edits()).toBe(0);
  });

  it('moves keyboard focus with the item, so pressing the key again moves it further', async () => {
    renderField(questions, ['a', 'b', 'c']);
    const down = screen.getByRole('button', { name: 'Move Question 1 down' });
    down.focus();
    fireEvent.click(down);
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Question 2 — a'));
    expect(document.activeElement?.closest('li')?.getAttribute('data-item')).toBe('1');

    fireEvent.click(screen.getByRole('button', { name: 'Move Question 2 down' }));
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Question 3 — a'));
  });

  it('points at the item with a mistake from the build', () => {
    renderField(questions, ['a', ''], { issues: { 'questions.1': ['This must not be empty.'] } });
    const second = screen.getByLabelText(/^Question 2/);
    expect(second.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText(/^Question 1/).getAttribute('aria-invalid')).toBeNull();
  });
});

describe('a page’s blocks', () => {
  const model: FormModel = {
    ...EMPTY_MODEL,
    blocks: [
      {
        type: 'hero',
        title: 'Hero',
        description: 'The big opening of a page.',
        fields: [
          { key: 'type', label: 'Type', required: true, kind: 'text', constant: 'hero' },
          { key: 'heading', label: 'Heading', required: true, kind: 'text' },
        ],
        example: { heading: 'Welcome' },
      },
      {
        type: 'stats',
        title: 'Statistics',
        description: 'Numbers that matter.',
        fields: [{ key: 'type', label: 'Type', required: true, kind: 'text', constant: 'stats' }],
        example: {},
      },
    ],
  };
  const blocks: Field = { key: 'blocks', label: 'Blocks', required: true, kind: 'blocks' };

  it('adds a block from the palette with its example, opened, focused and shown in the preview', async () => {
    const page = renderField(blocks, [{ type: 'stats' }], { model });
    const add = screen.getByRole('button', { name: 'Add a block' });
    expect(add.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(add);
    const palette = screen.getByRole('list', { name: 'Block types' });
    fireEvent.click(within(palette).getByRole('button', { name: /^Hero/ }));
    expect(screen.queryByRole('list', { name: 'Block types' })).toBeNull();
    expect(page.value()).toEqual([{ type: 'stats' }, { type: 'hero', heading: 'Welcome' }]);
    const added = screen.getByRole('button', { name: /^2\. Hero — Welcome/ });
    expect(added.getAttribute('aria-expanded')).toBe('true');
    expect((screen.getByLabelText(/^Heading/) as HTMLInputElement).value).toBe('Welcome');
    expect(page.focusedBlocks).toEqual([1]);
    await waitFor(() => expect(document.activeElement).toBe(added));
  });

  it('keeps the open block open as it moves, and says how many mistakes a block has', () => {
    const page = renderField(blocks, [{ type: 'hero', heading: 'Hi' }, { type: 'stats' }], {
      model,
      issues: { 'blocks.0.heading': ['Too short.'] },
    });
    fireEvent.click(screen.getByRole('button', { name: /^1\. Hero — Hi/ }));
    expect(screen.getByRole('button', { name: /^1\. Hero/ }).textContent).toBe('1. Hero — Hi1 mistake');
    fireEvent.click(screen.getByRole('button', { name: /^Move 1\. Hero .*down$/ }));
    expect(page.value()).toEqual([{ type: 'stats' }, { type: 'hero', heading: 'Hi' }]);
    expect(screen.getByRole('button', { name: /^2\. Hero/ }).getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('button', { name: /^1\. Statistics/ }).getAttribute('aria-expanded')).toBe('false');
  });
});
