// @vitest-environment happy-dom
// The generated form's fields, as a person meets them: each shows its label, says when it is
// required, ties the build's message and its help to the control (aria-describedby), and writes what
// the person enters into the file as the schema wants it (a number as a number, an emptied optional
// property removed).
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { describedBy, renderField } from '../testing/render-field.tsx';
import type { Field } from './form-model.ts';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const text = (over: Partial<Field> = {}): Field => ({ key: 'heading', label: 'Heading', required: true, kind: 'text', ...over });

describe('a one-line text field', () => {
  it('is labelled, marked required for screen readers, and writes what is typed', () => {
    const field = renderField(text(), 'Hello');
    const input = screen.getByLabelText(/^Heading/) as HTMLInputElement;
    expect(input.type).toBe('text');
    expect(input.value).toBe('Hello');
    expect(screen.getByText('Heading').textContent).toBe('Heading* (required)');
    expect(input.getAttribute('aria-required')).toBe('true');

    fireEvent.change(input, { target: { value: 'Grow faster' } });
    expect(field.value()).toBe('Grow faster');
    expect(input.value).toBe('Grow faster');
  });

  it('ties the build’s message and the help text to the control, and marks it invalid', () => {
    renderField(text({ help: 'The big line at the top.' }), '', { issues: { heading: ['This must not be empty.'] } });
    const input = screen.getByLabelText(/^Heading/);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(input)).toBe('This must not be empty. | The big line at the top.');
  });

  it('ties a suggestion to the control without marking it invalid', () => {
    renderField(text({ help: 'The big line at the top.' }), 'Click here', {
      warnings: { heading: ['The link text "Click here" says nothing on its own.'] },
    });
    const input = screen.getByLabelText(/^Heading/);
    expect(input.getAttribute('aria-invalid')).toBeNull();
    expect(describedBy(input)).toBe('Suggestion: The link text "Click here" says nothing on its own. | The big line at the top.');
  });

  it('has no error description and is not invalid while the build has nothing to say', () => {
    renderField(text({ help: 'The big line at the top.' }), 'Fine');
    const input = screen.getByLabelText(/^Heading/);
    expect(input.getAttribute('aria-invalid')).toBeNull();
    expect(describedBy(input)).toBe('The big line at the top.');
  });

  it('removes an optional property that is emptied, and keeps a required one as an empty text', () => {
    const optional = renderField(text({ key: 'subheading', label: 'Subheading', required: false }), 'Some words');
    fireEvent.change(screen.getByLabelText('Subheading'), { target: { value: '' } });
    expect(optional.value()).toBeUndefined();
    cleanup();

    const required = renderField(text(), 'Some words');
    fireEvent.change(screen.getByLabelText(/^Heading/), { target: { value: '' } });
    expect(required.value()).toBe('');
  });

  it('shows nothing for a fixed value (a block’s type)', () => {
    renderField(text({ key: 'type', label: 'Type', constant: 'hero' }), 'hero');
    expect(screen.queryByLabelText(/^Type/)).toBeNull();
  });
});

describe('a long text field', () => {
  it('is a labelled text area that writes what is typed and carries its message', () => {
    const field = renderField(text({ key: 'intro', label: 'Intro', kind: 'multiline' }), 'One.', {
      issues: { intro: ['Keep it under 300 characters.'] },
    });
    const area = screen.getByLabelText(/^Intro/);
    expect(area.tagName).toBe('TEXTAREA');
    expect(describedBy(area)).toBe('Keep it under 300 characters.');
    fireEvent.change(area, { target: { value: 'One.\n\nTwo.' } });
    expect(field.value()).toBe('One.\n\nTwo.');
  });
});

describe('a Markdown field', () => {
  it('is a labelled text area with a formatting toolbar; Bold wraps the selection in **', () => {
    const field = renderField(text({ key: 'body', label: 'Body', kind: 'markdown' }), 'Say hello now');
    const area = screen.getByLabelText(/^Body/) as HTMLTextAreaElement;
    expect(area.tagName).toBe('TEXTAREA');
    area.setSelectionRange(4, 9);
    fireEvent.click(within(screen.getByRole('toolbar', { name: 'Formatting' })).getByRole('button', { name: 'Bold' }));
    expect(field.value()).toBe('Say **hello** now');
  });
});

describe('a number field', () => {
  it('writes a number, not the text of one, and removes the property when emptied', () => {
    const field = renderField(text({ key: 'investmentUsd', label: 'Investment (USD)', kind: 'number', required: false }), 5000);
    const input = screen.getByLabelText('Investment (USD)') as HTMLInputElement;
    expect(input.type).toBe('number');
    expect(input.value).toBe('5000');
    fireEvent.change(input, { target: { value: '7500.5' } });
    expect(field.value()).toBe(7500.5);
    fireEvent.change(input, { target: { value: '' } });
    expect(field.value()).toBeUndefined();
  });

  it('asks for whole numbers when the schema says integer, and carries its message', () => {
    renderField(text({ key: 'count', label: 'Count', kind: 'integer' }), 3, { issues: { count: ['Must be 1 or more.'] } });
    const input = screen.getByLabelText(/^Count/) as HTMLInputElement;
    expect(input.step).toBe('1');
    expect(input.inputMode).toBe('numeric');
    expect(describedBy(input)).toBe('Must be 1 or more.');
    expect(input.getAttribute('aria-invalid')).toBe('true');
  });
});

describe('a yes/no field', () => {
  it('is a checkbox named by its label; ticking writes true, clearing an optional one removes it', () => {
    const field = renderField(text({ key: 'draft', label: 'Draft', kind: 'boolean', required: false }), true);
    const box = screen.getByRole('checkbox', { name: 'Draft' }) as HTMLInputElement;
    expect(box.checked).toBe(true);
    fireEvent.click(box);
    expect(field.value()).toBeUndefined();
    expect(box.checked).toBe(false);
    fireEvent.click(box);
    expect(field.value()).toBe(true);
  });

  it('writes false when cleared if the property is required or defaults to true', () => {
    const field = renderField(text({ key: 'showMenu', label: 'Show menu', kind: 'boolean', required: false, default: true }), true);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Show menu' }));
    expect(field.value()).toBe(false);
  });

  it('ties its message and help to the checkbox', () => {
    renderField(
      text({ key: 'noindex', label: 'Hide from search engines', kind: 'boolean', help: 'Keeps the page out of Google.' }),
      false,
      {
        issues: { noindex: ['Not allowed on the home page.'] },
      },
    );
    const box = screen.getByRole('checkbox', { name: 'Hide from search engines' });
    expect(describedBy(box)).toBe('Not allowed on the home page. | Keeps the page out of Google.');
  });
});

describe('a choice field', () => {
  const choice = (over: Partial<Field> = {}) =>
    text({
      key: 'columns',
      label: 'Columns',
      kind: 'choice',
      choices: [
        { value: 2, label: '2' },
        { value: 3, label: '3' },
      ],
      ...over,
    });

  it('lists the schema’s choices by label and writes the choice’s own value (a number stays a number)', () => {
    const field = renderField(choice({ required: false }), 2);
    const select = screen.getByRole('combobox', { name: 'Columns' }) as HTMLSelectElement;
    expect([...select.options].map((option) => option.textContent)).toEqual(['(default)', '2', '3']);
    fireEvent.change(select, { target: { value: '3' } });
    expect(field.value()).toBe(3);
    fireEvent.change(select, { target: { value: '' } });
    expect(field.value()).toBeUndefined();
  });

  it('asks to choose when a required choice has no value yet, and carries its message', () => {
    renderField(choice(), undefined, { issues: { columns: ['Choose how many columns.'] } });
    const select = screen.getByRole('combobox', { name: /^Columns/ }) as HTMLSelectElement;
    expect(select.options[0]!.textContent).toBe('Choose…');
    expect(describedBy(select)).toBe('Choose how many columns.');
  });
});

describe('a date field', () => {
  it('is a labelled date input that writes the ISO date', () => {
    const field = renderField(text({ key: 'date', label: 'Date', kind: 'date' }), '2024-03-01', { issues: { date: ['Not a date.'] } });
    const input = screen.getByLabelText(/^Date/) as HTMLInputElement;
    expect(input.type).toBe('date');
    expect(describedBy(input)).toBe('Not a date.');
    fireEvent.change(input, { target: { value: '2024-03-15' } });
    expect(field.value()).toBe('2024-03-15');
  });
});

describe('a link field', () => {
  it('shows an address that is not one of the pages in a labelled address box, with its message, and writes what is typed', () => {
    const field = renderField(text({ key: 'ctaHref', label: 'CTA link', kind: 'link' }), '/contact?service=voice', {
      issues: { ctaHref: ['No page has this address.'] },
    });
    expect((screen.getByRole('radio', { name: 'Another address' }) as HTMLInputElement).checked).toBe(true);
    const input = screen.getByLabelText('Address') as HTMLInputElement;
    expect(input.value).toBe('/contact?service=voice');
    expect(describedBy(input)).toMatch(/^No page has this address\. \| A full web address/);
    fireEvent.change(input, { target: { value: '/spring-offer' } });
    expect(field.value()).toBe('/spring-offer');
  });
});

describe('a picture field', () => {
  const image: Field = {
    key: 'photo',
    label: 'Photo',
    required: true,
    kind: 'image',
    fields: [
      { key: 'src', label: 'Picture path', required: true, kind: 'text' },
      { key: 'alt', label: 'Alt text', required: true, kind: 'text' },
    ],
  };

  it('is a titled group whose button opens the library; a picture picked from it is written with empty alt text', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ images: [{ src: '/images/team/sarah.png', width: 800, height: 600, bytes: 1000 }] })),
    );
    const field = renderField(image, undefined);
    expect(screen.getByRole('region', { name: /^Photo/ })).toBeTruthy();
    expect(screen.getByText('No picture chosen.')).toBeTruthy();
    const choose = screen.getByRole('button', { name: 'Choose a picture' });
    expect(choose.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(choose);
    expect(choose.getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(await screen.findByRole('button', { name: /team\/sarah\.png \(800×600\)/ }));
    expect(field.value()).toEqual({ src: '/images/team/sarah.png', alt: '' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Change picture' })).toBeTruthy());
  });

  it('asks for the alt text once there is a picture, and writes it', () => {
    const field = renderField(image, { src: '/images/a.png', alt: '' }, { issues: { 'photo.alt': ['Describe the picture.'] } });
    const alt = screen.getByLabelText(/^Alt text/);
    expect(describedBy(alt)).toBe('Describe the picture.');
    fireEvent.change(alt, { target: { value: 'Our office' } });
    expect(field.value()).toEqual({ src: '/images/a.png', alt: 'Our office' });
  });

  it('ties a message about the picture itself to the button that changes it', () => {
    renderField(image, { src: '/images/gone.png', alt: 'Gone' }, { issues: { 'photo.src': ['There is no picture at /images/gone.png.'] } });
    expect(describedBy(screen.getByRole('button', { name: 'Change picture' }))).toBe('There is no picture at /images/gone.png.');
  });
});

describe("a text holding a picture's address (an article's picture)", () => {
  const picture: Field = { key: 'image', label: 'Picture', help: 'The article’s picture.', required: false, kind: 'picture' };

  it('is chosen from the library, never typed, and written as the picture’s address', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ images: [{ src: '/images/blog/spring.png', width: 800, height: 600, bytes: 1000 }] })),
    );
    const field = renderField(picture, '/images/blog/old.png');
    expect(screen.queryByRole('textbox')).toBeNull();
    const change = screen.getByRole('button', { name: 'Change picture' });
    expect(describedBy(change)).toBe('The article’s picture.');
    fireEvent.click(change);
    fireEvent.click(await screen.findByRole('button', { name: /blog\/spring\.png \(800×600\)/ }));
    expect(field.value()).toBe('/images/blog/spring.png');
    fireEvent.click(screen.getByRole('button', { name: 'Remove picture' }));
    expect(field.value()).toBeUndefined();
    expect(screen.getByRole('button', { name: 'Choose a picture' })).toBeTruthy();
  });
});
