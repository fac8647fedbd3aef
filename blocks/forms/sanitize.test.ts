import { describe, expect, it } from 'vitest';
import { sanitizeFields, sanitizeText } from './sanitize.ts';

describe('sanitizeText', () => {
  it.each([
    ["Seán O'Brien"],
    ['Smith & Sons'],
    ['O\'Brien & Co.'],
    ['Quotes "like this" and <b>tags</b> are text, not HTML'],
    ['1 < 2 > 0'],
    ['Our metadata: is messy'],
    ['Common = shared'],
    ['Based on x=5'],
    ['日本語のテキスト'],
  ])('keeps %j exactly as typed', (text) => {
    expect(sanitizeText(text)).toBe(text);
  });

  it('trims surrounding whitespace', () => {
    expect(sanitizeText('  \tAda\n ')).toBe('Ada');
  });

  it.each([
    ['a script block with its content', 'Hi <script>alert("x")</script>there', 'Hi there'],
    ['a script block across lines', 'a<script type="text/javascript">\nsteal()\n</script>b', 'ab'],
    ['an upper-case script block', 'a<SCRIPT>x</SCRIPT >b', 'ab'],
    ['a lone opening script tag', 'a<script src="//evil.example/x.js">b', 'ab'],
    ['a javascript: URL scheme', 'javascript:alert(1)', 'alert(1)'],
    ['a mixed-case JavaScript: scheme', 'JaVaScRiPt:alert(1)', 'alert(1)'],
    ['a data: URL scheme', 'data:text/html;base64,AAAA', 'text/html;base64,AAAA'],
    ['a vbscript: URL scheme', 'vbscript:msgbox(1)', 'msgbox(1)'],
    ['an onclick= handler', '<a onclick="x()">', '<a "x()">'],
    ['an onerror = handler with spaces', '<img src=x onerror = "x()">', '<img src=x  "x()">'],
    ['an ONLOAD= handler', '<body ONLOAD=x()>', '<body x()>'],
    ['a scheme reassembled from fragments', 'javajavascript:script:alert(1)', 'alert(1)'],
    ['a script block reassembled from fragments', '<scr<script></script>ipt>x</script>y', 'xy'],
  ])('strips %s', (_pattern, text, expected) => {
    expect(sanitizeText(text)).toBe(expected);
  });
});

describe('sanitizeFields', () => {
  it('sanitises string values and leaves other values alone', () => {
    expect(sanitizeFields({ name: "  Seán O'Brien ", note: '<script>x</script>ok', teamSize: 5, agreed: true })).toEqual({
      name: "Seán O'Brien",
      note: 'ok',
      teamSize: 5,
      agreed: true,
    });
  });

  it('returns a new object', () => {
    const fields = { name: ' Ada ' };
    expect(sanitizeFields(fields)).not.toBe(fields);
    expect(fields.name).toBe(' Ada ');
  });
});
