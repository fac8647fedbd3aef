import { ThemeProvider } from '@emotion/react';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import ReactMarkdown from 'react-markdown';
import { MemoryRouter } from 'react-router-dom';
import { beforeAll, describe, expect, it } from 'vitest';
import { SiteProvider, type SiteData } from './page/site-context.tsx';
import { createTheme } from './theme.ts';
import { Markdown, markdownHeadingLevel, preloadMarkdown, type HeadingLevel } from './Markdown.tsx';
import { markdownOptions } from './MarkdownContent.tsx';

// <Markdown> renders synchronously once the parser is loaded, as the prerenderer does.
beforeAll(() => preloadMarkdown());

const site = { bookingUrl: 'https://booking.example.com/premier' } as SiteData;

function withProviders(children: ReactNode) {
  return renderToStaticMarkup(
    <ThemeProvider theme={createTheme()}>
      <SiteProvider site={site}>
        <MemoryRouter>{children}</MemoryRouter>
      </SiteProvider>
    </ThemeProvider>,
  );
}

/** Only the mapping (no prose styles), so the markup is easy to read. */
function renderMarkdown(markdown: string, parentLevel: HeadingLevel = 1) {
  return withProviders(<ReactMarkdown {...markdownOptions(parentLevel)}>{markdown}</ReactMarkdown>);
}

/** Emotion inlines <style> tags next to styled elements on the server; they are not content. */
const withoutStyles = (html: string) => html.replace(/<style[^>]*>.*?<\/style>/g, '');

describe('markdownHeadingLevel', () => {
  it.each([
    { markdown: 2, parent: 1, expected: 2, why: '## in an article body is an h2 under the h1 title' },
    { markdown: 3, parent: 1, expected: 3, why: '### in an article body is an h3' },
    { markdown: 1, parent: 1, expected: 2, why: '# never adds a second h1' },
    { markdown: 2, parent: 2, expected: 3, why: '## under a section heading (h2) becomes h3' },
    { markdown: 3, parent: 2, expected: 4, why: '### under a section heading becomes h4' },
    { markdown: 2, parent: 3, expected: 4, why: '## in an FAQ answer under an h3 category becomes h4' },
    { markdown: 6, parent: 3, expected: 6, why: 'levels stop at h6' },
  ] as const)('$why', ({ markdown, parent, expected }) => {
    expect(markdownHeadingLevel(markdown, parent)).toBe(expected);
  });
});

describe('Markdown block rules for article bodies', () => {
  it('renders "## " as a level-2 and "### " as a level-3 heading in an article body', () => {
    const html = renderMarkdown('## What It Costs\n\n### Phase one');
    expect(html).toContain('<h2>What It Costs</h2>');
    expect(html).toContain('<h3>Phase one</h3>');
  });

  it('shifts headings below the surrounding heading', () => {
    expect(renderMarkdown('## Cookies', 2)).toContain('<h3>Cookies</h3>');
    expect(renderMarkdown('## Pricing\n\n### Details', 3)).toMatch(/<h4>Pricing<\/h4>.*<h5>Details<\/h5>/s);
  });

  it('joins consecutive "- " lines into one bullet list', () => {
    const html = renderMarkdown('- One\n- Two\n- Three');
    expect(html.match(/<ul>/g)).toHaveLength(1);
    expect(html.match(/<li>/g)).toHaveLength(3);
    expect(html).toMatch(/<ul>\s*<li>One<\/li>\s*<li>Two<\/li>\s*<li>Three<\/li>\s*<\/ul>/);
  });

  it('renders "**Label:** text" as a labelled paragraph starting with strong', () => {
    const html = renderMarkdown('**Payback period:** We target a 2x-3x return.');
    expect(html).toBe('<p data-labelled=""><strong>Payback period:</strong> We target a 2x-3x return.</p>');
  });

  it('keeps bold text later in a sentence a plain paragraph', () => {
    expect(renderMarkdown('Most **important** of all.')).toBe('<p>Most <strong>important</strong> of all.</p>');
  });

  it('renders anything else as paragraphs', () => {
    expect(renderMarkdown('First line.\n\nSecond line.')).toBe('<p>First line.</p>\n<p>Second line.</p>');
  });

  it('shows raw HTML as text, never as a tag', () => {
    const html = renderMarkdown('Hello <script>alert("x")</script> world\n\n<script>alert(1)</script>');
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('&lt;script&gt;');
  });

  it('empties javascript: links instead of rendering them', () => {
    const html = withoutStyles(renderMarkdown('[click](javascript:alert(1))'));
    expect(html).not.toContain('javascript:');
    expect(html).not.toContain('<a');
    expect(html).toContain('click');
  });
});

describe('Markdown links', () => {
  it('renders an internal path as a router link (same tab)', () => {
    const html = withoutStyles(renderMarkdown('See [our services](/services).'));
    expect(html).toContain('<a href="/services" data-discover="true">our services</a>');
    expect(html).not.toContain('target=');
  });

  it('opens an external address in a new tab with rel="noopener noreferrer"', () => {
    const html = withoutStyles(renderMarkdown('Read [the guide](https://example.com/guide).'));
    expect(html).toMatch(
      /<a href="https:\/\/example\.com\/guide" target="_blank" rel="noopener noreferrer">the guide<span[^>]*> \(opens in a new tab\)<\/span><\/a>/,
    );
  });

  it('keeps mailto links in the same tab', () => {
    const html = withoutStyles(renderMarkdown('Write to [privacy](mailto:privacy@example.com).'));
    expect(html).toContain('<a href="mailto:privacy@example.com">privacy</a>');
  });
});

describe('<Markdown>', () => {
  it('wraps the mapped content in one styled container', () => {
    const html = withoutStyles(withProviders(<Markdown parentLevel={2}>{'## Scope\n\nText.'}</Markdown>));
    expect(html).toMatch(/^<div class="[^"]+"><h3>Scope<\/h3>\n<p>Text\.<\/p><\/div>$/);
  });
});
