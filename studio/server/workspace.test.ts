import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createStudioProject, type StudioProject } from '../testing/studio-project.ts';
import { authorsOf, createWorkspace, fingerprintOf, WorkspaceError } from './workspace.ts';

let project: StudioProject;
afterEach(() => project?.remove());

function setup() {
  project = createStudioProject();
  return createWorkspace({ root: project.root });
}

describe('contentFile: paths from the browser never leave content/', () => {
  it.each([
    'content/pages/../../package.json',
    '../content/site.yaml',
    'content/pages/home.yaml/../../x',
    '/etc/passwd',
    'content/pages/Home.yaml',
    'content/pages/.hidden.yaml',
    'content/blog/a.yaml',
    'schema/page.schema.json',
    'public/images/x.png',
    'content\\pages\\home.yaml',
    'content/pages/%2e%2e.yaml',
    42,
  ])('refuses %s', (path) => {
    const workspace = setup();
    expect(() => workspace.contentFile(path)).toThrow(WorkspaceError);
  });

  it.each([
    ['content/site.yaml', 'site'],
    ['content/roi.yaml', 'roi'],
    ['content/pages/home.yaml', 'page'],
    ['content/blog/what-is-ai-consulting.md', 'article'],
  ])('accepts %s as a %s', (path, kind) => {
    const workspace = setup();
    expect(workspace.contentFile(path).kind).toBe(kind);
  });
});

describe('drafts', () => {
  it('keeps an edit beside the live file: content/ is untouched until publishing', () => {
    const workspace = setup();
    const before = project.read('content/pages/about.yaml');
    const opened = workspace.open('content/pages/about.yaml');
    workspace.saveDraft('content/pages/about.yaml', `${before}# edited\n`, { revision: 0, diskVersion: opened.disk!.version }, 'maria');
    expect(project.read('content/pages/about.yaml')).toBe(before);
    expect(workspace.currentText(workspace.open('content/pages/about.yaml'))).toBe(`${before}# edited\n`);
    expect(workspace.listEntries().find((entry) => entry.path === 'content/pages/about.yaml')).toMatchObject({
      edited: true,
      isNew: false,
      address: '/about',
    });
  });

  it('refuses a save from a second tab that did not see the first tab’s save', () => {
    const workspace = setup();
    const before = project.read('content/pages/about.yaml');
    const { disk } = workspace.open('content/pages/about.yaml');
    const seen = { revision: 0, diskVersion: disk!.version };
    workspace.saveDraft('content/pages/about.yaml', `${before}# tab one\n`, seen, 'maria');
    const second = () => workspace.saveDraft('content/pages/about.yaml', `${before}# tab two\n`, seen, 'maria');
    expect(second).toThrow(expect.objectContaining({ status: 409, reason: 'draft-changed' }));
    expect(workspace.currentText(workspace.open('content/pages/about.yaml'))).toBe(`${before}# tab one\n`);
  });

  it('refuses a save when the file changed on disk after it was opened (a git pull)', () => {
    const workspace = setup();
    const before = project.read('content/pages/about.yaml');
    const { disk } = workspace.open('content/pages/about.yaml');
    project.write('content/pages/about.yaml', `${before}# pulled\n`);
    expect(() =>
      workspace.saveDraft('content/pages/about.yaml', `${before}# mine\n`, { revision: 0, diskVersion: disk!.version }, 'maria'),
    ).toThrow(expect.objectContaining({ status: 409, reason: 'disk-changed' }));
  });

  it('drops a draft that is back to the live text', () => {
    const workspace = setup();
    const before = project.read('content/pages/about.yaml');
    const { disk } = workspace.open('content/pages/about.yaml');
    const draft = workspace.saveDraft(
      'content/pages/about.yaml',
      `${before}# edited\n`,
      { revision: 0, diskVersion: disk!.version },
      'maria',
    );
    const back = workspace.saveDraft('content/pages/about.yaml', before, { revision: draft.revision, diskVersion: disk!.version }, 'maria');
    expect(workspace.listDrafts()).toEqual([]);
    // The same tab edits again: not a conflict with anyone.
    workspace.saveDraft('content/pages/about.yaml', `${before}# again\n`, { revision: back.revision, diskVersion: disk!.version }, 'maria');
    expect(workspace.listDrafts().map((d) => d.text)).toEqual([`${before}# again\n`]);
  });

  it('lists a new page that exists only as a draft, and refuses a second file of the same name', () => {
    const workspace = setup();
    workspace.createDraft('content/pages/spring.yaml', 'path: /spring\ntitle: Spring offer\ndraft: true\n', 'maria');
    expect(workspace.listEntries().find((entry) => entry.path === 'content/pages/spring.yaml')).toMatchObject({
      title: 'Spring offer',
      address: '/spring',
      isNew: true,
      markedDraft: true,
    });
    expect(() => workspace.createDraft('content/pages/spring.yaml', 'path: /x\n', 'li')).toThrow(expect.objectContaining({ status: 409 }));
    expect(() => workspace.createDraft('content/pages/about.yaml', 'path: /x\n', 'li')).toThrow(expect.objectContaining({ status: 409 }));
  });

  it('names pages the way the site links to them, home first, in the site order, the template last', () => {
    const workspace = setup();
    const pages = workspace.listEntries().filter((entry) => entry.kind === 'page');
    expect(pages.map((page) => page.name)).toEqual([
      // The header's links, in its order.
      'Home',
      'About',
      'Services',
      'Voice AI',
      'Blog',
      'FAQs',
      'Testimonials',
      'Contact',
      // The footer's links that the header does not have.
      'Privacy Policy',
      'Terms of Service',
      'Disclaimer',
      // Pages no link names: their first heading, by name.
      'Calculate Your AI ROI',
      'Oops! Page not found',
      'Turn AI Into Measurable Profit Within 90 Days',
      "You're All Set!",
      'Article template (/blog/:slug)',
    ]);
    // The search-engine title is kept beside the name, so a search for it still finds the page.
    expect(pages[0]).toMatchObject({ address: '/', title: 'AI Consulting & Voice Agents | Premier AI Consulting' });
  });

  it('names a page from the site settings as they are being edited', () => {
    const workspace = setup();
    const opened = workspace.open('content/site.yaml');
    const text = opened.disk!.text.replace('label: About\n', 'label: Who we are\n');
    workspace.saveDraft('content/site.yaml', text, { revision: 0, diskVersion: opened.disk!.version }, 'maria');
    expect(workspace.listEntries().find((entry) => entry.address === '/about')?.name).toBe('Who we are');
  });

  it('lists every page by title and address, every article and both settings files', () => {
    const workspace = setup();
    const entries = workspace.listEntries();
    expect(entries.filter((entry) => entry.kind === 'page')).toHaveLength(16);
    expect(entries.filter((entry) => entry.kind === 'article')).toHaveLength(6);
    expect(entries.find((entry) => entry.path === 'content/site.yaml')?.title).toBe('Site settings');
    expect(entries.find((entry) => entry.path === 'content/blog/what-is-ai-consulting.md')).toMatchObject({
      address: '/blog/what-is-ai-consulting',
    });
  });
});

describe('symbolic links in content/', () => {
  const SECRET = 'path: /leak\ntitle: Top Secret Words\n';

  /** Replaces `relative` by a link to `target` (a path from the project root). */
  function link(relative: string, target: string) {
    rmSync(path.join(project.root, relative), { force: true });
    symlinkSync(path.join(project.root, target), path.join(project.root, relative));
  }

  it('never reads through a link to a file outside content/, and says what to do', () => {
    const workspace = setup();
    writeFileSync(path.join(project.root, 'secret.yaml'), SECRET);
    link('content/pages/leak.yaml', 'secret.yaml');
    link('content/site.yaml', 'secret.yaml');
    for (const [file, name] of [
      ['content/pages/leak.yaml', 'Leak'],
      ['content/site.yaml', 'Site settings'],
    ]) {
      expect(() => workspace.open(file)).toThrow(
        expect.objectContaining({
          status: 400,
          message: `"${name}" is a link to a file kept elsewhere, which the studio does not read: a developer must replace it with the file itself.`,
        }),
      );
    }
    expect(() => workspace.createDraft('content/pages/leak.yaml', 'path: /x\n', 'maria')).toThrow(expect.objectContaining({ status: 400 }));
    // Left out of the list (the content check names it), so nothing of the file it points to shows.
    const entries = workspace.listEntries();
    expect(entries.map((entry) => entry.path)).not.toContain('content/pages/leak.yaml');
    expect(entries.map((entry) => entry.path)).not.toContain('content/site.yaml');
    expect(JSON.stringify(entries)).not.toContain('Top Secret');
  });

  it('reads a link to another file inside content/', () => {
    const workspace = setup();
    mkdirSync(path.join(project.root, 'content/shared'));
    writeFileSync(path.join(project.root, 'content/shared/page.yaml'), 'path: /shared\ntitle: Shared\n');
    link('content/pages/shared.yaml', 'content/shared/page.yaml');
    expect(workspace.open('content/pages/shared.yaml').disk?.text).toBe('path: /shared\ntitle: Shared\n');
  });
});

describe('who changed a draft', () => {
  it('remembers everyone who saved it, and its fingerprint follows its text', () => {
    const workspace = setup();
    const home = 'content/pages/home.yaml';
    const live = workspace.open(home).disk!;
    const first = workspace.saveDraft(home, `${live.text}# one\n`, { revision: 0, diskVersion: live.version }, 'maria');
    const second = workspace.saveDraft(home, `${live.text}# two\n`, { revision: first.revision, diskVersion: live.version }, 'ana');
    expect(second.changedBy).toEqual(['maria', 'ana']);
    expect(fingerprintOf(second)).not.toBe(fingerprintOf(first));
    expect(fingerprintOf({ text: null })).toBe('deleted');
    // A version kept after its draft was discarded still carries the changes of the people who made it.
    workspace.discardDraft(home);
    const kept = workspace.saveDraft(home, `${live.text}# kept\n`, { revision: 0, diskVersion: live.version }, 'ana', second.changedBy);
    expect(authorsOf(kept)).toEqual(['maria', 'ana']);
    // A draft saved before the studio kept the list names the last person who saved it.
    expect(authorsOf({ updatedBy: 'li' })).toEqual(['li']);
  });
});
