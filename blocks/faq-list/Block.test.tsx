import { ThemeProvider } from '@emotion/react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FaqListBlock } from '../../generated/content-types.ts';
import { SiteProvider, type SiteData } from '../../ui/page/site-context.tsx';
import { createTheme } from '../../ui/theme.ts';
import { preloadMarkdown } from '../../ui/Markdown.tsx';
import FaqList from './Block.tsx';

// Answers render synchronously once the Markdown parser is loaded, as they do when prerendering.
beforeAll(() => preloadMarkdown());

const site = { bookingUrl: 'https://booking.example.com/premier' } as SiteData;

const categories: FaqListBlock['categories'] = [
  {
    name: 'Getting Started',
    items: [
      { question: 'First?', answer: 'One.' },
      { question: 'Second?', answer: '## Detail\n\nTwo.' },
    ],
  },
  { name: 'Technical', items: [{ question: 'Third?', answer: 'Three.' }] },
];

function render(block: Omit<FaqListBlock, 'type'>) {
  const html = renderToStaticMarkup(
    <ThemeProvider theme={createTheme()}>
      <SiteProvider site={site}>
        <MemoryRouter>
          <FaqList type="faq-list" {...block} />
        </MemoryRouter>
      </SiteProvider>
    </ThemeProvider>,
  );
  return html.replace(/<style[^>]*>.*?<\/style>/g, '');
}

describe('FaqList', () => {
  it('renders native disclosures with only the first question of the whole list open', () => {
    const details = render({ categories }).match(/<details[^>]*>/g) ?? [];
    expect(details).toHaveLength(3);
    expect(details.map((tag) => /\sopen=""/.test(tag))).toEqual([true, false, false]);
  });

  it('puts each question in its summary, which the browser makes keyboard-operable', () => {
    expect(render({ categories })).toMatch(/<summary[^>]*><span>First\?<\/span>/);
  });

  it('makes categories h3 under a section heading, and answer headings sit below them', () => {
    const html = render({ heading: 'Frequently Asked Questions', categories });
    expect(html).toMatch(/<h2[^>]*>Frequently Asked Questions<\/h2>/);
    expect(html).toMatch(/<h3[^>]*>Getting Started<\/h3>/);
    expect(html).toContain('<h4>Detail</h4>');
  });

  it('makes categories h2 when the block has no heading of its own', () => {
    const html = render({ categories });
    expect(html).toMatch(/<h2[^>]*>Technical<\/h2>/);
    expect(html).toContain('<h3>Detail</h3>');
  });
});
