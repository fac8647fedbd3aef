import { describe, expect, it } from 'vitest';
import { cutText, isStorableText, toStorableText } from './storable-text.ts';

describe('text both lead stores can keep', () => {
  it.each([
    ['plain text', 'Ana Lima', true, 'Ana Lima'],
    ['emoji, flags and joiners', 'Hi 👩🏽‍💻 🇧🇷', true, 'Hi 👩🏽‍💻 🇧🇷'],
    ['right-to-left text and bidi controls', 'שלום \u202Ex\u202C', true, 'שלום \u202Ex\u202C'],
    ['line breaks and other control characters', 'a\r\nb\t\u001bc', true, 'a\r\nb\t\u001bc'],
    ['a NUL, which PostgreSQL cannot hold', 'a\u0000b\u0000', false, 'ab'],
    ['a high surrogate without its pair', 'a\uD83Db', false, 'a\uFFFDb'],
    ['a high surrogate at the end', 'ab\uD83D', false, 'ab\uFFFD'],
    ['a low surrogate without its pair', '\uDE00ab', false, '\uFFFDab'],
  ])('%s', (_name, text, storable, kept) => {
    expect(isStorableText(text)).toBe(storable);
    expect(toStorableText(text)).toBe(kept);
    expect(isStorableText(toStorableText(text))).toBe(true);
  });

  it('cuts text to a length without splitting an emoji in two', () => {
    expect(cutText('a😀b', 2)).toBe('a');
    expect(cutText('a😀b', 3)).toBe('a😀');
    expect(cutText('abc', 2)).toBe('ab');
    expect(cutText('abc', 5)).toBe('abc');
  });
});
