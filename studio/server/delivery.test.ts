// "View on the live site": each page a publish made live, at its address on the watched live site
// (STUDIO_LIVE_URL), else on the site's own address (SITE_URL); nothing for a deleted page, the
// site's settings or an undo. And how far a publish got beyond the studio, in words without git's.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createStudioProject, type StudioProject } from '../testing/studio-project.ts';
import type { PublishRecord } from '../api-types.ts';
import { jargonIn } from '../app/testing/plain-words.ts';
import { createDelivery, pageUrl } from './delivery.ts';
import { createWorkspace } from './workspace.ts';

let project: StudioProject;
let workspace: ReturnType<typeof createWorkspace>;
afterEach(() => project?.remove());

const record = (over: Partial<PublishRecord> = {}): PublishRecord => ({
  id: '2026-12-01T16-42-00-000Z-publish',
  action: 'publish',
  user: 'mia@example.com',
  at: '2026-12-01T16:42:00.000Z',
  files: [
    { path: 'content/pages/home.yaml', title: 'Home', change: 'changed' },
    { path: 'content/pages/about.yaml', title: 'About', change: 'changed' },
    { path: 'content/site.yaml', title: 'Site settings', change: 'changed' },
    { path: 'content/pages/faqs.yaml', title: 'FAQs', change: 'deleted' },
  ],
  ms: 900,
  ...over,
});

function delivery(options: { siteUrl?: string; liveUrl?: string }) {
  project = createStudioProject();
  workspace = createWorkspace({ root: project.root });
  return createDelivery({
    root: project.root,
    workspace,
    stateDir: path.join(project.root, '.studio'),
    // The same evening as the records, told in UTC.
    now: () => new Date('2026-12-01T20:00:00Z'),
    timeZone: 'UTC',
    ...(options.siteUrl ? { siteUrl: options.siteUrl } : {}),
    ...(options.liveUrl ? { live: { url: options.liveUrl, timeoutMs: 60_000 } } : {}),
  });
}

describe('the published pages on the live site', () => {
  it('links each published page at its address on the site, leaving out what has no page to see', () => {
    const [described] = delivery({ siteUrl: 'https://www.example.com' }).describe([record()]);
    expect(described!.status?.liveLinks).toEqual([
      { name: 'Home', url: 'https://www.example.com/' },
      { name: 'About', url: 'https://www.example.com/about' },
    ]);
  });

  it('prefers the watched live site, under its folder and without its password', () => {
    const watched = delivery({ siteUrl: 'https://www.example.com', liveUrl: 'https://deploy:secret@staging.example.com/preview/' });
    const [described] = watched.describe([record({ files: [{ path: 'content/pages/about.yaml', title: 'About', change: 'added' }] })]);
    expect(described!.status?.liveLinks).toEqual([{ name: 'About', url: 'https://staging.example.com/preview/about' }]);
    watched.stop();
  });

  it('links nothing after an undo, or without any address for the site', () => {
    expect(delivery({ siteUrl: 'https://www.example.com' }).describe([record({ action: 'undo' })])[0]!.status).toBeUndefined();
    project.remove();
    expect(delivery({}).describe([record()])[0]!.status).toBeUndefined();
  });

  it("never links off the site, whatever address an editor's saved draft gives a published page", () => {
    const site = delivery({ siteUrl: 'https://www.example.com' });
    const about = project.read('content/pages/about.yaml');
    const diskVersion = workspace.open('content/pages/about.yaml').disk?.version ?? null;
    let revision = 0;
    for (const address of ['https://evil.example/login', '//evil.example/login', 'javascript:alert(1)', '/\\evil.example/x']) {
      revision = workspace.saveDraft(
        'content/pages/about.yaml',
        about.replace(/^path: .*$/m, `path: '${address}'`),
        { revision, diskVersion },
        'eve@example.com',
      ).revision;
      const links = site.describe([record()])[0]!.status?.liveLinks ?? [];
      for (const link of links) expect(new URL(link.url).origin, `${address} → ${link.url}`).toBe('https://www.example.com');
    }
    expect(() => pageUrl('https://www.example.com', 'https://evil.example/login')).toThrow();
    expect(() => pageUrl('https://www.example.com/site/', '//evil.example/login')).toThrow();
  });

  it('joins an address to a site with or without a trailing slash', () => {
    expect(pageUrl('https://www.example.com', '/about')).toBe('https://www.example.com/about');
    expect(pageUrl('https://www.example.com/', '/')).toBe('https://www.example.com/');
    expect(pageUrl('https://example.com/site', '/blog/spring')).toBe('https://example.com/site/blog/spring');
  });
});

describe('how far a publish got, in words', () => {
  it('says it without git words, naming pages as the studio does', () => {
    const remote = (over: Partial<NonNullable<PublishRecord['remote']>>) => ({ name: 'origin', branch: 'main', pushed: false, ...over });
    const home = [{ path: 'content/pages/home.yaml', title: 'Home', change: 'changed' as const }];
    const records: PublishRecord[] = [
      record({ id: 'd', files: home, remote: remote({ reason: 'origin could not be reached (ssh: connect to host)' }) }),
      record({ id: 'e', files: home, remote: remote({ pushed: true, keptAsDrafts: ['content/pages/about.yaml'] }) }),
      record({
        id: 'c',
        files: home,
        remote: remote({ changedThere: ['content/pages/home.yaml'], reason: 'content/pages/home.yaml changed' }),
      }),
      record({ id: 'b', files: home, remote: remote({ reason: 'git reported the push done, but origin/main does not hold this commit' }) }),
    ];
    const texts = delivery({})
      .describe(records)
      .map((described) => described.status!.remote!.text);
    expect(texts).toEqual([
      "Not in the team's copy of the site yet: it could not be reached. It is live here, and the next publish sends it.",
      "Sent to the team's copy of the site. About changed in the team's copy of the site meanwhile: the version an earlier publish made here, not sent, is kept as a draft, to compare and choose.",
      "Not sent to the team's copy of the site: Home changed there while this was published. It is live here and kept here; the next publish brings in their change and shows both versions, to compare and choose.",
      "Sent to the team's copy of the site with the publish of 16:42",
    ]);
    for (const text of texts) expect(jargonIn(text)).toEqual([]);
  });
});
