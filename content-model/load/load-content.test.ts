import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ContentError, formatIssue } from '../content-issue.ts';
import { loadContent } from './load-content.ts';

const repo = path.resolve(import.meta.dirname, '../..');
let root: string;

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'content-test-'));
  cpSync(path.join(repo, 'content'), path.join(root, 'content'), { recursive: true });
  symlinkSync(path.join(repo, 'schema'), path.join(root, 'schema'));
  symlinkSync(path.join(repo, 'blocks'), path.join(root, 'blocks'));
  symlinkSync(path.join(repo, 'public'), path.join(root, 'public'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function writePage(name: string, yaml: string) {
  writeFileSync(path.join(root, 'content/pages', `${name}.yaml`), yaml);
}

function problems(): string[] {
  try {
    loadContent({ root });
  } catch (error) {
    if (error instanceof ContentError) return error.issues.map(formatIssue);
    throw error;
  }
  return [];
}

const GOOD_PAGE = `path: /extra
title: Extra Page
description: A page written by the test to check the content validator's messages for editors.
blocks:
  - type: hero
    heading: Extra
  - type: stats
    items:
      - value: 58+
        label: Projects Delivered
`;

describe('loadContent', () => {
  it('loads the real content: every page, every article in list order, the ROI numbers', () => {
    const content = loadContent({ root: repo });
    const paths = content.pages.map((p) => p.page.path);
    for (const route of [
      '/',
      '/calculator',
      '/about',
      '/services',
      '/voice-ai',
      '/blog',
      '/blog/:slug',
      '/faqs',
      '/testimonials',
      '/contact',
      '/disclaimer',
      '/privacy-policy',
      '/terms-of-service',
      '/thankyou',
      '/ai-transformation',
      '*',
    ]) {
      expect(paths).toContain(route);
    }
    expect(content.posts.map((p) => p.slug).slice(0, 3)).toEqual([
      'what-is-ai-consulting',
      'why-enterprises-need-ai-consulting',
      'industry-applications-choosing-ai-consulting-partner',
    ]);
    expect(content.posts).toHaveLength(6);
  });

  it('accepts a valid new page and fills in picture sizes from the files', () => {
    writePage(
      'extra',
      `${GOOD_PAGE}  - type: team
    members:
      - name: Dr. Sarah Chen
        role: Founder & CEO
        experience: Fifteen years in applied machine learning.
        image:
          src: /images/team/sarah-chen.svg
          alt: Portrait of Dr. Sarah Chen
`,
    );
    const content = loadContent({ root });
    const extra = content.pages.find((p) => p.name === 'extra')!;
    const team = extra.page.blocks[2];
    expect(team?.type === 'team' && team.members[0]?.image).toEqual({
      src: '/images/team/sarah-chen.svg',
      alt: 'Portrait of Dr. Sarah Chen',
      width: 320,
      height: 320,
    });
  });

  it.each([
    [
      'a missing required property',
      GOOD_PAGE.replace('        label: Projects Delivered\n', ''),
      'content/pages/extra.yaml:9:9 blocks[1] (stats) items[0] label: This is needed: fill it in.',
    ],
    [
      'a misspelt property, with a suggestion',
      GOOD_PAGE.replace('    heading: Extra', '    headng: Extra'),
      'content/pages/extra.yaml:6:5 blocks[0] (hero) headng: "headng" is not something this part of the form has: did you mean "Heading"?',
    ],
    [
      'an unknown block type, with a suggestion',
      GOOD_PAGE.replace('type: hero', 'type: herro'),
      'content/pages/extra.yaml:5:11 blocks[0] (herro) type: "herro" is not one of the choices here. Did you mean "hero"?',
    ],
    [
      'a value of the wrong kind',
      GOOD_PAGE.replace('    items:\n      - value: 58+\n        label: Projects Delivered\n', '    items: 58\n'),
      'content/pages/extra.yaml:8:12 blocks[1] (stats) items: This should be a list, but it is the number 58.',
    ],
    [
      'an empty text',
      GOOD_PAGE.replace('heading: Extra', 'heading: ""'),
      'content/pages/extra.yaml:6:14 blocks[0] (hero) heading: A heading is needed here: write one.',
    ],
    [
      'a too-short description',
      GOOD_PAGE.replace(/description: .*/, 'description: Too short.'),
      'content/pages/extra.yaml:3:14 description: This is too short: write at least 50 characters (it has 10).',
    ],
    [
      'a link to a page that does not exist',
      `${GOOD_PAGE}  - type: cta\n    heading: Go\n    actions:\n      - label: Pricing\n        href: /pricing\n`,
      'content/pages/extra.yaml:15:15 blocks[2] (cta) actions[0] href: "/pricing" is not a page of the site: choose one of its pages (',
    ],
    [
      'a picture that does not exist',
      `${GOOD_PAGE}  - type: rich-text\n    body: Hello\n    image:\n      src: /images/missing.svg\n      alt: Nothing\n`,
      'content/pages/extra.yaml:14:12 blocks[2] (rich-text) image src: The picture "/images/missing.svg" is not one of the site\'s pictures: choose a picture from the list, or upload it.',
    ],
    [
      'a second page with the same address',
      GOOD_PAGE.replace('path: /extra', 'path: /about'),
      'content/pages/extra.yaml:1:7 path: The address "/about" is already the address of the page "about": give each page its own address.',
    ],
    ['broken YAML', GOOD_PAGE.replace('    heading: Extra', '    heading: "Extra'), 'content/pages/extra.yaml:'],
  ])('reports %s with file:line:column, where and a plain sentence', (_case, yaml, expected) => {
    writePage('extra', yaml);
    const found = problems();
    expect(
      found.some((p) => p.startsWith(expected)),
      `expected a problem starting with:\n${expected}\ngot:\n${found.join('\n')}`,
    ).toBe(true);
  });

  it('locates problems in article front matter on the right line of the .md file', () => {
    const file = path.join(root, 'content/blog/what-is-ai-consulting.md');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^readTime: .*\n/m, ''));
    expect(problems()).toContain('content/blog/what-is-ai-consulting.md:2:1 readTime: This is needed: fill it in.');
  });

  it('reports an article whose order number another article already uses', () => {
    const file = path.join(root, 'content/blog/why-enterprises-need-ai-consulting.md');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^order: .*$/m, 'order: 1'));
    expect(
      problems().some((p) =>
        /why-enterprises-need-ai-consulting\.md:\d+:8 order: Order 1 is already the order of the article "what-is-ai-consulting"/.test(p),
      ),
    ).toBe(true);
  });

  it('reports a navigation link in site.yaml that goes nowhere', () => {
    const file = path.join(root, 'content/site.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('    href: /faqs', '    href: /faq'));
    expect(problems().some((p) => /^content\/site\.yaml:\d+:11 navigation\[5\] href: "\/faq" is not a page of the site/.test(p))).toBe(
      true,
    );
  });
});

describe('one mistake, one message', () => {
  it('a page with a mistake still counts as existing, so links to it are not reported too', () => {
    const file = path.join(root, 'content/pages/about.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('- type: hero', '- type: herro'));
    const found = problems();
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(
      /^content\/pages\/about\.yaml:\d+:\d+ blocks\[0\] \(herro\) type: "herro" is not one of the choices here\. Did you mean "hero"\?/,
    );
  });
});

describe('draft pages and articles', () => {
  const DRAFT_PAGE = GOOD_PAGE.replace('path: /extra', 'path: /extra\ndraft: true');

  it('leaves a page marked draft out of what is built, and keeps it when asked (the studio preview)', () => {
    writePage('extra', DRAFT_PAGE);
    expect(loadContent({ root }).pages.map((p) => p.page.path)).not.toContain('/extra');
    expect(loadContent({ root, includeDrafts: true }).pages.map((p) => p.page.path)).toContain('/extra');
  });

  it('leaves an article marked draft out of the blog', () => {
    const file = path.join(root, 'content/blog/what-is-ai-consulting.md');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^---\n/, '---\ndraft: true\n'));
    expect(loadContent({ root }).posts.map((p) => p.slug)).not.toContain('what-is-ai-consulting');
  });

  it('refuses a published link to a draft, in plain words', () => {
    writePage('extra', DRAFT_PAGE);
    writePage(
      'linking',
      GOOD_PAGE.replace('path: /extra', 'path: /linking').replace(
        '    heading: Extra',
        '    heading: Extra\n    actions:\n      - label: Go\n        href: /extra',
      ),
    );
    expect(problems().join('\n')).toContain('The link "/extra" goes to a page that is not published yet');
  });

  it('checks texts that stand in for files, and files deleted, without touching the disk', () => {
    const added = path.join(root, 'content/pages/extra.yaml');
    const bundle = loadContent({ root, overrides: new Map([[added, GOOD_PAGE]]) });
    expect(bundle.pages.map((p) => p.page.path)).toContain('/extra');
    const landing = path.join(root, 'content/pages/ai-transformation.yaml');
    expect(loadContent({ root, overrides: new Map([[landing, null]]) }).pages.map((p) => p.page.path)).not.toContain('/ai-transformation');
    // Deleting a page the navigation links to is caught before anything is written.
    const about = path.join(root, 'content/pages/about.yaml');
    expect(() => loadContent({ root, overrides: new Map([[about, null]]) })).toThrow('"/about" is not a page of the site');
    expect(() => loadContent({ root, overrides: new Map([[added, 'path: /extra\n']]) })).toThrow(ContentError);
  });

  it('can leave out a page with a mistake and keep the rest (the studio preview), but not broken site settings', () => {
    writePage('extra', GOOD_PAGE.replace(/^title: .*$/m, `title: ${'x'.repeat(80)}`));
    expect(() => loadContent({ root })).toThrow('This is too long');
    const paths = loadContent({ root, skipInvalid: true }).pages.map((p) => p.page.path);
    expect(paths).toContain('/about');
    expect(paths).not.toContain('/extra');
    const site = path.join(root, 'content/site.yaml');
    expect(() => loadContent({ root, skipInvalid: true, overrides: new Map([[site, 'company: 3\n']]) })).toThrow(ContentError);
  });
});

/** The "billion laughs": nine lists, each repeating the one before nine times (387 million words once expanded). */
const ALIAS_BOMB = `${['a: &a [x,x,x,x,x,x,x,x,x]', ...'bcdefghi'.split('').map((name, i) => `${name}: &${name} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(',')}]`)].join('\n')}\n`;

describe('addresses a page cannot have', () => {
  it.each([
    [
      '/blog/what-is-ai-consulting',
      'path: The address "/blog/what-is-ai-consulting" is already the address of an article: choose another.',
    ],
    [
      '/api',
      'path: The address "/api" is used by the site\'s server (the lead form sends to it): choose another, such as "/api-services".',
    ],
    ['/api/leads', 'path: The address "/api/leads" is used by the site\'s server'],
    ['/healthz', 'path: The address "/healthz" is used by the site\'s server'],
    ['/assets', 'path: The address "/assets" is used by the site\'s scripts and styles'],
    ['/images', 'path: The address "/images" is used by the site\'s pictures'],
    ['/og', 'path: The address "/og" is used by the pictures shown when a page is shared'],
    ['/:x', 'path: The address "/:x" has a part starting with ":"'],
  ])('refuses a page at %s', (address, expected) => {
    writePage('extra', GOOD_PAGE.replace('path: /extra', `path: "${address}"`));
    expect(problems()).toContainEqual(expect.stringMatching(new RegExp(`^content/pages/extra\\.yaml:1:7 ${escape(expected)}`)));
  });

  it('names a refused address once: links to it are not reported as well', () => {
    writePage(
      'extra',
      GOOD_PAGE.replace('path: /extra', 'path: /api').replace(
        '    heading: Extra',
        '    heading: Extra\n    actions:\n      - label: Go\n        href: /api',
      ),
    );
    expect(problems()).toEqual([expect.stringMatching(/^content\/pages\/extra\.yaml:1:7 path: The address "\/api" is used by/)]);
  });

  it('refuses the address of an article marked draft too', () => {
    const file = path.join(root, 'content/blog/what-is-ai-consulting.md');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^---\n/, '---\ndraft: true\n'));
    writePage('extra', GOOD_PAGE.replace('path: /extra', 'path: /blog/what-is-ai-consulting'));
    expect(problems().join('\n')).toContain('The address "/blog/what-is-ai-consulting" is already the address of an article');
  });
});

describe('pictures are read only from public/images/', () => {
  const secret = () => {
    // A real PNG header outside public/: its size must never show in a message.
    const png = Buffer.from('89504e470d0a1a0a0000000d494844520000029a0000014d08060000001f15c489', 'hex');
    writeFileSync(path.join(root, 'secret.png'), png);
  };

  it.each(['https://evil.example/\u202Eexe.gpj', '/contact\u200B', 'mailto:hello@example.com\u2066'])(
    'refuses a link holding an invisible character (%j), saying so in plain words',
    (href) => {
      writePage(
        'extra',
        `${GOOD_PAGE.replace('    heading: Extra\n', `    heading: Extra\n    actions:\n      - label: Go\n        href: ${JSON.stringify(href)}\n`)}`,
      );
      expect(problems()).toContainEqual(
        expect.stringMatching(
          /^content\/pages\/extra\.yaml:\d+:\d+ .*href: This link holds an invisible character \(such as a right-to-left mark or a zero-width space\) that can make it look like another address\. Type the address again without it\.$/,
        ),
      );
    },
  );

  it('refuses a picture path with ".." in a page, by its pattern', () => {
    writePage(
      'extra',
      `${GOOD_PAGE}  - type: rich-text\n    body: Hello\n    image:\n      src: /images/../../secret.png\n      alt: Nothing\n`,
    );
    expect(problems()).toContainEqual(
      expect.stringMatching(
        /^content\/pages\/extra\.yaml:14:12 blocks\[2\] \(rich-text\) image src: "\/images\/\.\.\/\.\.\/secret\.png" is not the address of one of the site's pictures/,
      ),
    );
  });

  it.each(['/images//team/sarah-chen.svg', '/images/./team/sarah-chen.svg', '/images/team/../team/sarah-chen.svg'])(
    'refuses the picture path %s by its pattern',
    (src) => {
      writePage('extra', `${GOOD_PAGE}  - type: rich-text\n    body: Hello\n    image:\n      src: ${src}\n      alt: Nothing\n`);
      expect(problems().join('\n')).toContain(`"${src}" is not the address of one of the site's pictures`);
    },
  );

  it('refuses an article picture that climbs out of public/images/ and says the same whether the file exists or not', () => {
    const file = path.join(root, 'content/blog/what-is-ai-consulting.md');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^image: .*$/m, 'image: /images/../../secret.png'));
    const absent = problems().filter((p) => p.includes('secret.png'));
    secret();
    const present = problems().filter((p) => p.includes('secret.png'));
    expect(absent).toHaveLength(1);
    expect(absent[0]).toMatch(/^content\/blog\/what-is-ai-consulting\.md:\d+:8 image: /);
    expect(present).toEqual(absent);
  });

  it('refuses a picture in public/images/ that is a link to a file elsewhere, without reading it', () => {
    secret();
    const publicDir = path.join(root, 'public-copy');
    cpSync(path.join(repo, 'public'), publicDir, { recursive: true });
    symlinkSync(path.join(root, 'secret.png'), path.join(publicDir, 'images', 'leak.png'));
    writePage('extra', `${GOOD_PAGE}  - type: rich-text\n    body: Hello\n    image:\n      src: /images/leak.png\n      alt: Nothing\n`);
    let found: string[] = [];
    try {
      loadContent({ root, publicDir });
    } catch (error) {
      if (!(error instanceof ContentError)) throw error;
      found = error.issues.map(formatIssue);
    }
    expect(found).toEqual([
      expect.stringMatching(
        /^content\/pages\/extra\.yaml:14:12 blocks\[2\] \(rich-text\) image src: The picture "\/images\/leak\.png" is not one of the site's pictures: choose a picture/,
      ),
    ]);
  });
});

describe('symbolic links in content/', () => {
  const SECRET_PAGE = GOOD_PAGE.replace('path: /extra', 'path: /leak').replace('Extra Page', 'Top Secret Words');

  it.each(['content/pages/leak.yaml', 'content/site.yaml'])(
    'refuses %s when it is a link to a file outside content/, without reading it',
    (name) => {
      writeFileSync(path.join(root, 'secret.yaml'), SECRET_PAGE);
      rmSync(path.join(root, name), { force: true });
      symlinkSync(path.join(root, 'secret.yaml'), path.join(root, name));
      const found = problems();
      expect(found).toContain(
        `${name}:1:1 This file is a link to a file kept elsewhere, which the site does not read: replace it with the file itself.`,
      );
      expect(found.join('\n')).not.toContain('Top Secret');
    },
  );

  it('refuses an article that is a link to a file outside content/', () => {
    const article = path.join(root, 'content/blog/what-is-ai-consulting.md');
    writeFileSync(path.join(root, 'secret.md'), readFileSync(article, 'utf8'));
    rmSync(article);
    symlinkSync(path.join(root, 'secret.md'), article);
    expect(problems()).toContain(
      'content/blog/what-is-ai-consulting.md:1:1 This file is a link to a file kept elsewhere, which the site does not read: replace it with the file itself.',
    );
  });

  it('refuses a page in a folder linked from outside content/ too', () => {
    const outside = path.join(root, 'elsewhere');
    cpSync(path.join(root, 'content/blog'), outside, { recursive: true });
    rmSync(path.join(root, 'content/blog'), { recursive: true });
    symlinkSync(outside, path.join(root, 'content/blog'));
    expect(problems()).toContain(
      'content/blog/what-is-ai-consulting.md:1:1 This file is a link to a file kept elsewhere, which the site does not read: replace it with the file itself.',
    );
  });

  it('accepts a link to another file inside content/', () => {
    mkdirSync(path.join(root, 'content/shared'));
    writeFileSync(path.join(root, 'content/shared/linked.yaml'), GOOD_PAGE.replace('path: /extra', 'path: /linked'));
    symlinkSync(path.join(root, 'content/shared/linked.yaml'), path.join(root, 'content/pages/linked.yaml'));
    expect(loadContent({ root }).pages.map((p) => p.page.path)).toContain('/linked');
  });
});

describe('a file that repeats anchors (&name / *name) without end', () => {
  it('is a located mistake, found at once, and the other files are still checked', () => {
    writePage('bomb', ALIAS_BOMB);
    writePage('extra', GOOD_PAGE.replace('    heading: Extra', '    headng: Extra'));
    const started = performance.now();
    const found = problems();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(found).toContain(
      'content/pages/bomb.yaml:2:8 this file repeats anchors (&name / *name) too many times: write each part out in full instead of repeating it with *name.',
    );
    expect(
      found.some((p) =>
        p.startsWith('content/pages/extra.yaml:6:5 blocks[0] (hero) headng: "headng" is not something this part of the form has'),
      ),
    ).toBe(true);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('brand colours', () => {
  it('refuses a brand colour the site would draw unreadable text with, beside that colour', () => {
    const site = path.join(root, 'content/site.yaml');
    const text = readFileSync(site, 'utf8').replace('primary: "#4F46E5"', 'primary: "#8B9CF7"');
    writeFileSync(site, text);
    // The line the colour is on, wherever other settings put it.
    const line = text.split('\n').findIndex((row) => row.includes('primary: "#8B9CF7"')) + 1;
    let issues: readonly { message: string; segments?: readonly (string | number)[] }[] = [];
    try {
      loadContent({ root });
    } catch (error) {
      if (!(error instanceof ContentError)) throw error;
      issues = error.issues;
    }
    expect(issues.map((issue) => issue.segments)).toEqual([
      ['brand', 'primary'],
      ['brand', 'primary'],
      ['brand', 'primary'],
    ]);
    expect(problems()[0]).toMatch(
      new RegExp(
        `^content/site\\.yaml:${line}:\\d+ brand primary: The primary colour \\(#8B9CF7\\) is too faint for white text on buttons`,
      ),
    );
  });
});

describe('business hours', () => {
  function setHours(timeZone: string, opens: string, closes: string) {
    const site = path.join(root, 'content/site.yaml');
    const text = readFileSync(site, 'utf8')
      .replace('timeZone: America/New_York', `timeZone: ${timeZone}`)
      .replace('opens: "09:00"', `opens: "${opens}"`)
      .replace('closes: "18:00"', `closes: "${closes}"`);
    writeFileSync(site, text);
  }

  it('refuses a time zone nobody knows, beside the time zone field', () => {
    setHours('America/New_Yrok', '09:00', '18:00');
    expect(problems()).toEqual([
      expect.stringMatching(
        /^content\/site\.yaml:\d+:\d+ businessHours timeZone: "America\/New_Yrok" is not a time zone\. Write a region and a city as in America\/New_York/,
      ),
    ]);
  });

  it('refuses a closing time that is not after the opening time, beside the closing time', () => {
    setHours('America/New_York', '18:00', '09:00');
    expect(problems()).toEqual([
      expect.stringMatching(
        /businessHours closes: The closing time \(09:00\) must be later than the opening time \(18:00\)\. For hours past midnight, close at 24:00\.$/,
      ),
    ]);
  });

  it('accepts hours that close at midnight', () => {
    setHours('Europe/London', '17:00', '24:00');
    expect(problems()).toEqual([]);
  });
});

describe('content warnings', () => {
  it('are returned beside the content, stop nothing, and place an article heading on its line in the file', () => {
    const article = path.join(root, 'content/blog/what-is-ai-consulting.md');
    const text = readFileSync(article, 'utf8');
    const lines = text.split('\n');
    const closing = lines.indexOf('---', 1);
    // Line closing + 2 (1-based) is the first line of the Markdown: put a heading that skips to level 4 there.
    lines.splice(closing + 1, 0, '#### Too deep');
    writeFileSync(article, lines.join('\n'));
    const { warnings } = loadContent({ root });
    const found = warnings.map(formatIssue).filter((line) => line.includes('Too deep'));
    expect(found).toEqual([
      `content/blog/what-is-ai-consulting.md:${closing + 2}:1 article text: The heading "Too deep" jumps from level 1 to level 4: use ## so screen reader users, who move by headings, miss nothing.`,
    ]);
  });

  it('come with the mistakes too, for whoever shows both', () => {
    writePage('extra', GOOD_PAGE.replace('title: Extra Page', 'title: Extra Page\nnonsense: true'));
    const site = path.join(root, 'content/site.yaml');
    writeFileSync(site, readFileSync(site, 'utf8').replace(/label: Contact\n/, 'label: Click here\n'));
    try {
      loadContent({ root });
      throw new Error('expected a ContentError');
    } catch (error) {
      if (!(error instanceof ContentError)) throw error;
      expect(error.issues.every((issue) => issue.severity === undefined)).toBe(true);
      expect(error.warnings.map((warning) => warning.message)).toContainEqual(expect.stringContaining('"Click here" says nothing'));
    }
  });
});

describe('booking in the page', () => {
  function editSite(from: string, to: string) {
    const site = path.join(root, 'content/site.yaml');
    const text = readFileSync(site, 'utf8');
    expect(text).toContain(from);
    writeFileSync(site, text.replace(from, to));
  }

  it('names the services a booking page can run on when the provider is misspelt', () => {
    editSite('  provider: cal\n', '  provider: Cal.com\n');
    expect(problems()).toEqual([
      expect.stringMatching(/booking provider: "Cal\.com" is not one of the choices here\..*The choices: cal, calendly\.$/),
    ]);
  });

  it('asks for {time} in the confirmation, where the booked time goes', () => {
    editSite('  booked: Your meeting is booked for {time}.\n', '  booked: Your meeting is booked.\n');
    expect(problems()).toEqual([
      expect.stringMatching(/booking booked: "Your meeting is booked\." is not written the way this needs\. .*Write \{time\}/),
    ]);
  });
});
