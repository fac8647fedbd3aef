// @vitest-environment happy-dom
// A page's form opens on its content: its settings (address, search title and description…) wait
// closed under "Page settings", saying what they hold; a block's anchor name and a button's full
// reload wait under "Advanced"; the home page's address is shown and cannot be changed; a text
// that runs past a line is edited in a text area. Drawn from the real schemas.
import path from 'node:path';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { readSchemaModel } from '../../../content-model/load/schema-files.ts';
import { describedBy, renderField } from '../testing/render-field.tsx';
import { blockTypeOf, buildFormModel, type Field } from './form-model.ts';

afterEach(cleanup);

const model = buildFormModel(readSchemaModel(path.resolve(import.meta.dirname, '../../..')).files);
const page: Field = { ...model.page, key: 'page' };
const home = {
  path: '/',
  title: 'AI Consulting & Voice Agents | Premier AI Consulting',
  description: 'Premier AI Consulting builds AI voice agents and automation that pay for themselves within months.',
  blocks: [],
};
const block = (type: string): Field => ({
  key: 'block',
  label: blockTypeOf(model, type)!.title,
  required: true,
  kind: 'object',
  fields: blockTypeOf(model, type)!.fields,
});

function settings(): HTMLDetailsElement {
  return screen.getByText('Page settings').closest('details')!;
}

describe('a page form', () => {
  it('keeps the page settings closed, saying what they hold, and shows the blocks first', () => {
    renderField(page, home, { model });
    const details = settings();
    expect(details.open).toBe(false);
    expect(within(details.querySelector('summary')!).getByText(/^Address, search title, search description/)).toBeTruthy();
    expect(screen.getByRole('heading', { name: /^Blocks/ })).toBeTruthy();
    // Closed, its fields are not among what a person can reach.
    expect(screen.queryByRole('textbox', { name: /Search title/ })).toBeNull();
  });

  it('opens the settings from their summary, showing the address, search title and description', () => {
    renderField(page, { ...home, path: '/about' }, { model });
    fireEvent.click(settings().querySelector('summary')!);
    expect(settings().open).toBe(true);
    expect((screen.getByRole('textbox', { name: /^Search title/ }) as HTMLInputElement).value).toBe(home.title);
    expect(screen.getByRole('textbox', { name: /^Search description/ }).tagName).toBe('TEXTAREA');
    const address = screen.getByRole('textbox', { name: /^Address/ }) as HTMLInputElement;
    expect(address.readOnly).toBe(false);
  });

  it('opens the settings by itself when the build has a mistake about one of them', () => {
    renderField(page, { ...home, title: '' }, { model, issues: { 'page.title': ['Give the page a search title.'] } });
    expect(settings().open).toBe(true);
    expect(within(settings().querySelector('summary')!).getByText('1 mistake')).toBeTruthy();
  });

  it("shows the home page's address and says why it cannot be changed", () => {
    const field = renderField(page, home, {
      model,
      fixed: { 'page.path': 'This is the home page: its address is always "/", so it cannot be changed.' },
    });
    fireEvent.click(settings().querySelector('summary')!);
    const address = screen.getByRole('textbox', { name: /^Address/ }) as HTMLInputElement;
    expect(address.value).toBe('/');
    expect(address.readOnly).toBe(true);
    expect(describedBy(address)).toBe('This is the home page: its address is always "/", so it cannot be changed.');
    fireEvent.change(address, { target: { value: '/home' } });
    expect((field.value() as { path: string }).path).toBe('/');
  });
});

describe('a block form', () => {
  it('keeps the anchor name under a closed "Advanced" that names it', () => {
    renderField(block('rich-text'), { type: 'rich-text', heading: 'Why us', body: 'Because.' }, { model });
    const advanced = screen.getByText('Advanced').closest('details')!;
    expect(advanced.open).toBe(false);
    expect(within(advanced.querySelector('summary')!).getByText('Anchor name')).toBeTruthy();
    fireEvent.click(advanced.querySelector('summary')!);
    fireEvent.change(screen.getByRole('textbox', { name: 'Anchor name' }), { target: { value: 'why-us' } });
  });

  it('keeps a button\'s full reload under its own closed "Advanced"', () => {
    renderField(block('hero'), { type: 'hero', heading: 'Hi', actions: [{ label: 'Talk to us', href: '/contact' }] }, { model });
    const advanced = screen.getAllByText('Advanced').map((summary) => summary.closest('details')!);
    expect(advanced.every((details) => !details.open)).toBe(true);
    expect(screen.queryByRole('checkbox', { name: 'Reload the whole page' })).toBeNull();
  });

  it("edits the hero's sub-line in a text area", () => {
    const field = renderField(block('hero'), { type: 'hero', heading: 'Hi', text: 'One line.' }, { model });
    const subLine = screen.getByRole('textbox', { name: /^Text/ });
    expect(subLine.tagName).toBe('TEXTAREA');
    fireEvent.change(subLine, { target: { value: 'One line.\nAnd another.' } });
    expect((field.value() as { text: string }).text).toBe('One line.\nAnd another.');
  });
});
