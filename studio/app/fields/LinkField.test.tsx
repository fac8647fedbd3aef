// @vitest-environment happy-dom
// A link is chosen the way a person thinks of it: the booking page, a page of this site by its name,
// or another address typed in; the file gets what the site reads (the booking word, the page's
// address, the typed address).
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { LinkTarget } from '../editor-context.tsx';
import { renderField } from '../testing/render-field.tsx';
import type { Field } from './form-model.ts';

afterEach(cleanup);

const link: Field = {
  key: 'href',
  label: 'Link',
  help: 'Where the link takes the visitor.',
  required: true,
  kind: 'link',
  constraints: { pattern: '^(/[^\\s]*|https?://[^\\s]+|mailto:[^\\s]+|tel:[+0-9()\\- .]+|booking)$' },
};
const linkTargets: LinkTarget[] = [
  { address: '/', name: 'Home', kind: 'page' },
  { address: '/contact', name: 'Contact', kind: 'page' },
  { address: '/calculator', name: 'ROI Calculator', kind: 'page' },
  { address: '/blog/ai-strategy', name: 'An AI strategy that pays', kind: 'article' },
];

const radio = (name: string) => screen.getByRole('radio', { name }) as HTMLInputElement;

describe('the link chooser', () => {
  it('offers the three ways as a labelled radio group, the way the link goes already chosen', () => {
    renderField(link, '/contact', { linkTargets });
    expect(screen.getByRole('group', { name: /^Link/ })).toBeTruthy();
    expect(radio('A page of this site').checked).toBe(true);
    const page = screen.getByLabelText('Which page') as HTMLSelectElement;
    expect(page.value).toBe('/contact');
    expect(page.selectedOptions[0]!.textContent).toBe('Contact');
    expect([...page.options].map((option) => option.textContent)).toEqual([
      'Home',
      'Contact',
      'ROI Calculator',
      'An AI strategy that pays',
    ]);
  });

  it('writes the booking word when "Booking page" is chosen, and shows no box to type in', () => {
    const field = renderField(link, '/contact', { linkTargets });
    fireEvent.click(radio('Booking page'));
    expect(field.value()).toBe('booking');
    expect(screen.queryByLabelText('Which page')).toBeNull();
    expect(screen.queryByLabelText('Address')).toBeNull();
  });

  it('writes the address of the page chosen by its name', () => {
    const field = renderField(link, 'booking', { linkTargets });
    expect(radio('Booking page').checked).toBe(true);
    fireEvent.click(radio('A page of this site'));
    expect(field.value()).toBe('/');
    fireEvent.change(screen.getByLabelText('Which page'), { target: { value: '/calculator' } });
    expect(field.value()).toBe('/calculator');
    fireEvent.change(screen.getByLabelText('Which page'), { target: { value: '/blog/ai-strategy' } });
    expect(field.value()).toBe('/blog/ai-strategy');
  });

  it('writes another address as typed, and says at once when a link cannot go there', () => {
    const field = renderField(link, 'booking', { linkTargets });
    fireEvent.click(radio('Another address'));
    expect(field.value()).toBe('');
    const address = screen.getByLabelText('Address') as HTMLInputElement;
    fireEvent.change(address, { target: { value: 'www.example.com' } });
    expect(field.value()).toBe('www.example.com');
    expect(address.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText(/This is not an address a link can go to/)).toBeTruthy();
    fireEvent.change(address, { target: { value: 'https://www.example.com' } });
    expect(field.value()).toBe('https://www.example.com');
    expect(address.getAttribute('aria-invalid')).toBeNull();
    expect(screen.queryByText(/This is not an address a link can go to/)).toBeNull();
  });

  it('keeps a page address with a part of it (a section, a question) as another address, so nothing is lost', () => {
    renderField(link, '/contact#contact-form', { linkTargets });
    expect(radio('Another address').checked).toBe(true);
    expect((screen.getByLabelText('Address') as HTMLInputElement).value).toBe('/contact#contact-form');
  });

  it('ties the build’s message to the chosen control', () => {
    renderField(link, 'booking', { linkTargets, issues: { href: ['The booking page is not set up yet.'] } });
    expect(radio('Booking page').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('The booking page is not set up yet.')).toBeTruthy();
  });
});

describe('the link chooser when the link changes under it', () => {
  it('follows a value written elsewhere (a discard, another tab) that the chosen way cannot show', () => {
    const field = renderField(link, 'booking', { linkTargets });
    expect(radio('Booking page').checked).toBe(true);
    // The harness writes through the same editor the form uses, as a reload would.
    fireEvent.click(radio('Another address'));
    fireEvent.change(screen.getByLabelText('Address'), { target: { value: 'booking' } });
    expect(field.value()).toBe('booking');
    expect(radio('Booking page').checked).toBe(true);
    expect(screen.queryByLabelText('Address')).toBeNull();
  });
});
