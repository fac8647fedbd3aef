// "View on the live site": each page a publish made live, at its address on the watched live site
// (STUDIO_LIVE_URL), else on the site's own address (SITE_URL); nothing for a deleted page, the
// site's settings or an undo.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createStudioProject, type StudioProject } from '../testing/studio-project.ts';
import type { PublishRecord } from '../api-types.ts';
import { createDelivery, pageUrl } from './delivery.ts';
import { createWorkspace } from './workspace.ts';

let project: StudioProject;
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
  const workspace = createWorkspace({ root: project.root });
  return createDelivery({
    root: project.root,
    workspace,
    stateDir: path.join(project.root, '.studio'),
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

  it('joins an address to a site with or without a trailing slash', () => {
    expect(pageUrl('https://www.example.com', '/about')).toBe('https://www.example.com/about');
    expect(pageUrl('https://www.example.com/', '/')).toBe('https://www.example.com/');
    expect(pageUrl('https://example.com/site', '/blog/spring')).toBe('https://example.com/site/blog/spring');
  });
});
