// /api/appearance and /api/appearance/card: the search result and the social card of the page being
// edited follow its draft, and the card is the very picture the build draws for the route.
import { parse } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { readPngSize, renderOgImage } from '../../../brand-pictures/og-image.ts';
import { openLocalStudio } from '../../testing/local-studio.ts';
import { createStudioProject, type StudioProject } from '../../testing/studio-project.ts';
import type { buildStudioApp } from '../app.ts';

let project: StudioProject;
let app: ReturnType<typeof buildStudioApp>;
afterEach(async () => {
  await app?.close();
  project?.remove();
});

const ABOUT = 'content/pages/about.yaml';
const ARTICLE = 'content/blog/ai-voice-agents-for-customer-service.md';

async function setup() {
  project = createStudioProject({ git: true });
  const opened = await openLocalStudio(project, { siteUrl: 'https://www.example.com' });
  app = opened.app;
  return opened.headers;
}

async function saveDraft(
  headers: Record<string, string>,
  file: string,
  change: (data: Record<string, unknown>) => Record<string, unknown>,
) {
  const opened = (await app.inject({ url: `/api/file?path=${file}`, headers })).json() as {
    data: Record<string, unknown>;
    diskVersion: string;
    revision: number;
  };
  const answer = await app.inject({
    method: 'PUT',
    url: '/api/file',
    headers,
    payload: { path: file, data: change(opened.data), revision: opened.revision, diskVersion: opened.diskVersion },
  });
  expect(answer.statusCode).toBe(200);
}

describe('GET /api/appearance', () => {
  it('shows a page as a search result: its full title, its address on the site and its description, with the limits', async () => {
    const headers = await setup();
    const answer = await app.inject({ url: `/api/appearance?path=${ABOUT}`, headers });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({
      title: 'About Us | Premier AI Consulting',
      description: expect.stringMatching(/^Meet the team behind Premier AI Consulting/),
      url: 'www.example.com/about',
      titleLimit: 60,
      descriptionLimit: 160,
      card: { kind: 'drawn', title: 'About Us' },
    });
  });

  it('follows the draft, with the title template of the site settings added to a title without its own', async () => {
    const headers = await setup();
    await saveDraft(headers, ABOUT, (data) => ({ ...data, title: 'Who we are and how we work with growing businesses every day' }));
    const answer = (await app.inject({ url: `/api/appearance?path=${ABOUT}`, headers })).json() as { title: string; card: unknown };
    expect(answer.title).toBe('Who we are and how we work with growing businesses every day | Premier AI Consulting');
    expect(answer.card).toEqual({ kind: 'drawn', title: 'Who we are and how we work with growing businesses every day' });
  });

  it('shows an article with the site title template, its excerpt, its address and its category on the card', async () => {
    const headers = await setup();
    const answer = (await app.inject({ url: `/api/appearance?path=${ARTICLE}`, headers })).json();
    expect(answer).toMatchObject({
      title: 'How AI Voice Agents Improve Customer Service Without Losing the Human Touch | Premier AI Consulting',
      description: expect.stringMatching(/^Missed calls are lost revenue/),
      url: 'www.example.com/blog/ai-voice-agents-for-customer-service',
      card: { kind: 'drawn', title: 'How AI Voice Agents Improve Customer Service Without Losing the Human Touch', eyebrow: 'Technology' },
    });
  });

  it('shows the page’s own sharing picture instead of a drawn card when it has one', async () => {
    const headers = await setup();
    await saveDraft(headers, ABOUT, (data) => ({ ...data, image: { src: '/images/team.jpg', alt: 'The team at work' } }));
    const answer = (await app.inject({ url: `/api/appearance?path=${ABOUT}`, headers })).json() as { card: unknown };
    expect(answer.card).toEqual({ kind: 'picture', src: '/images/team.jpg', alt: 'The team at work' });
  });

  it('says that the article template and the settings do not appear in search results on their own', async () => {
    const headers = await setup();
    const template = await app.inject({ url: '/api/appearance?path=content/pages/blog-article.yaml', headers });
    expect(template.statusCode).toBe(400);
    expect(template.json().message).toMatch(/not shown in search results on its own/);
    const settings = await app.inject({ url: '/api/appearance?path=content/site.yaml', headers });
    expect(settings.statusCode).toBe(400);
    expect(settings.json().message).toBe('Only pages and articles appear in search results.');
  });

  it('refuses a path outside the content and asks for a session', async () => {
    const headers = await setup();
    expect((await app.inject({ url: '/api/appearance?path=../package.json', headers })).statusCode).toBe(400);
    expect((await app.inject({ url: `/api/appearance?path=${ABOUT}` })).statusCode).toBe(401);
    expect((await app.inject({ url: `/api/appearance/card?path=${ABOUT}` })).statusCode).toBe(401);
  });
});

describe('GET /api/appearance/card', () => {
  it('draws the card the build draws for the route, from the draft, with the site’s brand', async () => {
    const headers = await setup();
    await saveDraft(headers, ABOUT, (data) => ({ ...data, title: 'Meet the team | Premier AI Consulting' }));
    const answer = await app.inject({ url: `/api/appearance/card?path=${ABOUT}&revision=1`, headers });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('image/png');
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(readPngSize(answer.rawPayload)).toEqual({ width: 1200, height: 630 });
    const site = parse(project.read('content/site.yaml')) as Parameters<typeof renderOgImage>[1]['site'];
    const built = await renderOgImage({ title: 'Meet the team' }, { site, host: 'www.example.com' });
    expect(answer.rawPayload.equals(built)).toBe(true);
  });
});
