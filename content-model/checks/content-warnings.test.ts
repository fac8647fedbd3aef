import { describe, expect, it } from 'vitest';
import { formatIssue } from '../content-issue.ts';
import { parseYamlSource } from '../formats/yaml-source.ts';
import { altProblem, contentWarnings, linkTextProblem, markdownProblems } from './content-warnings.ts';

const SITE = parseYamlSource('content/site.yaml', 'seo:\n  titleTemplate: "%s | Premier AI"\n');

function warningsFor(page: string, posts: { meta: string; body: string }[] = []) {
  return contentWarnings({
    site: SITE,
    titleTemplate: '%s | Premier AI',
    pages: [{ source: parseYamlSource('content/pages/extra.yaml', page) }],
    posts: posts.map(({ meta, body }) => ({
      source: parseYamlSource('content/blog/post.md', meta, 1),
      body,
      bodyLine: meta.split('\n').length + 1,
    })),
  }).map(formatIssue);
}

describe('picture descriptions', () => {
  it.each(['team-photo.png', 'IMG_4031.JPG', 'DSC 0042', 'hero.webp'])('"%s" is a file name', (alt) => {
    expect(altProblem(alt)).toContain('is a file name');
  });
  it.each(['Image of our team at work', 'A photo of the office', 'picture of a chart'])('"%s" says it is a picture', (alt) => {
    expect(altProblem(alt)).toContain('screen readers already say it is a picture');
  });
  it.each(['Portrait of Dr. Sarah Chen, Founder and CEO', 'A bar chart of savings per month', 'Imagery from our 2025 retreat'])(
    '"%s" is fine',
    (alt) => expect(altProblem(alt)).toBeUndefined(),
  );
});

describe('link text', () => {
  it.each(['click here', 'Read more', 'Learn More →', '**here**', 'https://example.com/pricing', ''])(
    '"%s" says nothing on its own',
    (text) => {
      expect(linkTextProblem(text)).toBeDefined();
    },
  );
  it.each(['Read the pricing guide', 'ROI calculator', 'Book a call'])('"%s" is fine', (text) =>
    expect(linkTextProblem(text)).toBeUndefined(),
  );
});

describe('Markdown headings and links', () => {
  it('finds a heading that skips a level, one with no text, and an empty link, on their lines', () => {
    const text = [
      '## Why',
      'Some text',
      '#### Detail',
      '##',
      'See [click here](/pricing) or [the guide](/guide).',
      '```',
      '# not a heading',
      '```',
    ].join('\n');
    expect(markdownProblems(text, { firstLevel: 1 }).map(({ line, message }) => `${line} ${message.slice(0, 40).trimEnd()}`)).toEqual([
      '2 The heading "Detail" jumps from level 2',
      '3 This heading (##) has no text: write one',
      '4 The link text "click here" says nothing',
    ]);
  });

  it('holds an article to starting at ## under its title', () => {
    expect(markdownProblems('### Too deep', { firstLevel: 1 })[0]?.message).toContain('jumps from level 1 to level 3: use ##');
    expect(markdownProblems('### Fine where the level above is unknown', { firstLevel: undefined })).toEqual([]);
  });
});

describe('content warnings', () => {
  it('locate each warning at its field, and an article body warning at its line in the file', () => {
    const page = [
      'path: /extra',
      'title: A very long page title that goes on and on and on and on',
      `description: ${'x'.repeat(161)}`,
      'blocks:',
      '  - type: cta',
      '    button:',
      '      label: Learn more',
      '      href: /contact',
      '  - type: team',
      '    image:',
      '      src: /images/team.png',
      '      alt: team.png',
    ].join('\n');
    const meta = 'title: Short\nexcerpt: A short excerpt.\nimageAlt: Image of a waveform';
    const body = '\nIntro.\n\n### Skipped\n';
    expect(warningsFor(page, [{ meta, body }])).toEqual([
      expect.stringMatching(/^content\/pages\/extra\.yaml:7:\d+ blocks\[0\] \(cta\) button label: The link text "Learn more" says nothing/),
      expect.stringMatching(
        /^content\/pages\/extra\.yaml:12:\d+ blocks\[1\] \(team\) image alt: This picture's description is a file name/,
      ),
      // The title as search results show it, with the site's pattern: 54 + " | Premier AI".
      expect.stringMatching(
        /^content\/pages\/extra\.yaml:2:\d+ title: This title is 69 characters .*"A very long page title that goes on and on and on and on \|…"/,
      ),
      expect.stringMatching(/^content\/pages\/extra\.yaml:3:\d+ description: This description is 161 characters/),
      expect.stringMatching(/^content\/blog\/post\.md:4:\d+ imageAlt: Start this picture's description with what it shows/),
      expect.stringMatching(/^content\/blog\/post\.md:7:1 article text: The heading "Skipped" jumps from level 1 to level 3/),
    ]);
  });
});

describe('data no page can hold', () => {
  it('stops walking a value that contains itself, or is nested deeper than any page, and still finds what is above', () => {
    const source = parseYamlSource('content/pages/extra.yaml', 'path: /extra\ntitle: Extra\nblocks: []\n');
    const loop: Record<string, unknown> = { image: { src: '/images/a.png', alt: 'a.png' } };
    loop.self = loop;
    (source.data as { blocks: unknown[] }).blocks.push(loop);
    const warnings = contentWarnings({ site: SITE, titleTemplate: '%s | Premier AI', pages: [{ source }], posts: [] });
    expect(warnings.filter((warning) => warning.message.includes('is a file name ("a.png")')).length).toBeGreaterThan(0);
  });
});
