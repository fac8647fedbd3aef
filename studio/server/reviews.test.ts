// Review before publish, through the studio's API as the browser uses it: with STUDIO_REVIEW=required
// an editor's publish is refused and they ask for review instead; an admin sends the request back
// with a comment the editor sees beside the draft, the editor changes the draft and asks again, and
// the admin publishes it, the commit naming both. Without accounts, or with review off, nothing changes.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeClock } from '../testing/fake-clock.ts';
import { createStudioProject, fakeStudioAppDir, quickBuild, type StudioProject } from '../testing/studio-project.ts';
import { createTeamStore, TEAM_PASSWORD, type TeamStore } from '../testing/team-accounts.ts';
import type { ReviewFeedback, ReviewsAnswer } from '../api-types.ts';
import { buildStudioApp } from './app.ts';
import { REVIEW_MESSAGES, type ReviewRequest } from './reviews.ts';

const HOST = '127.0.0.1:4322';
const EDITOR = 'maria@example.com';
const ADMIN = 'ana@example.com';
const HOME = 'content/pages/home.yaml';

let project: StudioProject;
let team: TeamStore | undefined;
let app: ReturnType<typeof buildStudioApp>;
afterEach(async () => {
  await app?.close();
  await team?.remove();
  team = undefined;
  project?.remove();
});

type Person = { headers: Record<string, string>; csrf: string };

async function setup(options: { review?: 'required' | 'off'; accounts?: boolean } = {}) {
  project = createStudioProject({ git: true });
  if (options.accounts ?? true) team = await createTeamStore({ [EDITOR]: 'editor', [ADMIN]: 'admin' });
  const clock = createFakeClock('2026-11-30T12:00:00Z');
  app = buildStudioApp({
    root: project.root,
    appDir: fakeStudioAppDir(project.root),
    distDir: project.distDir,
    ...(team ? { accounts: team.store } : {}),
    localEditor: 'local',
    logLevel: 'silent',
    build: quickBuild,
    review: options.review ?? 'required',
    timeZone: 'Europe/Berlin',
    clock,
  });
  await app.ready();
  return { clock };
}

async function signIn(email?: string): Promise<Person> {
  const response = email
    ? await app.inject({ method: 'POST', url: '/api/session', headers: { host: HOST }, payload: { email, password: TEAM_PASSWORD } })
    : await app.inject({ url: '/api/session', headers: { host: HOST } });
  expect(response.statusCode).toBe(200);
  const cookie = String(response.headers['set-cookie']).split(';')[0]!;
  return { headers: { cookie, host: HOST }, csrf: (response.json() as { csrfToken: string }).csrfToken };
}

function get(person: Person, url: string) {
  return app.inject({ url, headers: person.headers });
}

function post(person: Person, url: string, payload: object = {}) {
  return app.inject({ method: 'POST', url, headers: { ...person.headers, 'x-csrf-token': person.csrf }, payload });
}

/** Changes the home page's first heading in a draft, as the editor's form would. */
async function editHome(person: Person, heading: string) {
  const opened = (await get(person, `/api/file?path=${HOME}`)).json() as {
    data: { blocks: { heading?: string }[] };
    revision: number;
    diskVersion: string;
  };
  const blocks = opened.data.blocks.map((block, index) => (index === 0 ? { ...block, heading } : block));
  const saved = await app.inject({
    method: 'PUT',
    url: '/api/file',
    headers: { ...person.headers, 'x-csrf-token': person.csrf },
    payload: { path: HOME, data: { ...opened.data, blocks }, revision: opened.revision, diskVersion: opened.diskVersion },
  });
  expect(saved.statusCode, saved.body).toBe(200);
}

const stored = () =>
  (JSON.parse(readFileSync(path.join(project.root, '.studio', 'reviews.json'), 'utf8')) as { requests: ReviewRequest[] }).requests;

describe('review required', () => {
  it('refuses an editor’s publish and undo (403) and keeps their request for review with a snapshot of the drafts', async () => {
    await setup();
    const maria = await signIn(EDITOR);
    await editHome(maria, 'Spring is here');

    const publish = await post(maria, '/api/publish');
    expect(publish.statusCode).toBe(403);
    expect(publish.json()).toEqual({ message: REVIEW_MESSAGES.publishRefused });
    expect((await post(maria, '/api/undo')).statusCode).toBe(403);
    expect((await post(maria, '/api/schedule', { at: '2026-12-01T09:00' })).statusCode).toBe(403);
    // Restoring an older version is a publish too.
    const shipped = project.git('rev-parse', 'HEAD').trim();
    const restore = await post(maria, '/api/history/restore', { version: shipped, path: HOME });
    expect(restore.statusCode).toBe(403);
    expect(restore.json()).toEqual({ message: REVIEW_MESSAGES.restoreRefused });
    expect(project.read(HOME)).not.toContain('Spring is here');

    const rights = (await get(maria, '/api/reviews')).json() as ReviewsAnswer;
    expect(rights).toMatchObject({ required: true, mayPublish: false, mayReview: false, requests: [] });

    const asked = await post(maria, '/api/reviews', { note: 'New headline for spring' });
    expect(asked.statusCode, asked.body).toBe(200);
    const [request] = stored();
    expect(request).toMatchObject({
      status: 'waiting',
      note: 'New headline for spring',
      requestedBy: EDITOR,
      files: [{ path: HOME, change: 'changed', text: expect.stringContaining('Spring is here') }],
    });
    expect(request!.files[0]!.baseVersion).toMatch(/^[\w-]{22}$/);
    expect(Date.parse(request!.requestedAt)).not.toBeNaN();
    // The request is the editor's to see; they may not decide it.
    expect(((await get(maria, '/api/reviews')).json() as ReviewsAnswer).requests).toHaveLength(1);
    expect((await post(maria, '/api/reviews/approve', { id: request!.id })).statusCode).toBe(403);
    expect((await post(maria, '/api/reviews/send-back', { id: request!.id, comment: 'Fine by me' })).statusCode).toBe(403);
    expect(project.read(HOME)).not.toContain('Spring is here');
  });

  it('sends a request back with a comment the editor sees, takes the changed draft again, and publishes it naming both', async () => {
    await setup();
    const maria = await signIn(EDITOR);
    const ana = await signIn(ADMIN);
    await editHome(maria, 'Spring is here');
    await post(maria, '/api/reviews', { note: '' });

    const list = (await get(ana, '/api/reviews')).json() as ReviewsAnswer;
    expect(list).toMatchObject({ required: true, mayPublish: true, mayReview: true });
    const [first] = list.requests;
    expect(first).toMatchObject({ status: 'waiting', requestedBy: EDITOR, files: [{ path: HOME, kind: 'page', change: 'changed' }] });
    // The reviewer sees the diff and what the preview draws.
    expect(JSON.stringify(first!.files[0]!.hunks)).toContain('Spring is here');
    expect(JSON.stringify(first!.files[0]!.data)).toContain('Spring is here');

    const comment = 'Say which spring <script>alert(1)</script>';
    const sent = await post(ana, '/api/reviews/send-back', { id: first!.id, comment });
    expect(sent.statusCode, sent.body).toBe(200);
    expect((await post(ana, '/api/reviews/approve', { id: first!.id })).statusCode).toBe(409);

    // Beside the draft, word for word (the browser shows it as text).
    const feedback = await get(maria, `/api/reviews/feedback?path=${HOME}`);
    expect(feedback.headers['content-type']).toMatch(/^application\/json/);
    expect((feedback.json() as ReviewFeedback).feedback).toMatchObject({ status: 'sent-back', comment, decidedBy: ADMIN });
    expect(((await get(maria, '/api/reviews')).json() as ReviewsAnswer).requests[0]).toMatchObject({ status: 'sent-back', comment });

    await editHome(maria, 'Spring 2027 is here');
    const again = await post(maria, '/api/reviews', { note: 'Named the year' });
    expect(again.statusCode).toBe(200);
    // The sent-back request is replaced: the comment no longer shows beside the draft.
    expect(((await get(maria, `/api/reviews/feedback?path=${HOME}`)).json() as ReviewFeedback).feedback).toMatchObject({
      status: 'waiting',
    });
    const [second] = ((await get(ana, '/api/reviews')).json() as ReviewsAnswer).requests;
    expect(second).toMatchObject({ status: 'waiting', note: 'Named the year' });

    const approved = await post(ana, '/api/reviews/approve', { id: second!.id });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ ok: true, record: { user: ADMIN, note: `Asked for by ${EDITOR}; approved by ${ADMIN}.` } });
    expect(project.read(HOME)).toContain('Spring 2027 is here');
    const commit = project.git('log', '-1', '--format=%an <%ae>%n%B');
    expect(commit).toContain(`${ADMIN} <${ADMIN}>`);
    expect(commit).toContain(`Asked for by ${EDITOR}; approved by ${ADMIN}.`);
    expect(commit).toContain(`Published in the content studio by ${ADMIN}.`);
    expect(stored().find((request) => request.id === second!.id)).toMatchObject({ status: 'published', decidedBy: ADMIN });
    // The draft is live: nothing is left to review or publish.
    expect(((await get(maria, '/api/changes')).json() as { files: unknown[] }).files).toEqual([]);
    expect(((await get(maria, `/api/reviews/feedback?path=${HOME}`)).json() as ReviewFeedback).feedback).toBeNull();
    // Only content files are named.
    expect((await get(maria, '/api/reviews/feedback?path=../package.json')).statusCode).toBe(400);
  });

  it('lets an admin publish directly, and keeps the request waiting when its files changed on disk since', async () => {
    await setup();
    const maria = await signIn(EDITOR);
    const ana = await signIn(ADMIN);
    await editHome(maria, 'Spring is here');
    await post(maria, '/api/reviews');
    const [request] = stored();
    project.write(HOME, `${project.read(HOME)}\n# changed by a git pull\n`);
    const approved = await post(ana, '/api/reviews/approve', { id: request!.id });
    expect(approved.statusCode).toBe(409);
    expect(approved.json()).toMatchObject({ ok: false, reason: 'conflict' });
    expect(stored()[0]!.status).toBe('waiting');

    await app.inject({
      method: 'POST',
      url: '/api/discard',
      headers: { ...ana.headers, 'x-csrf-token': ana.csrf },
      payload: { path: HOME },
    });
    await editHome(ana, 'Published by an admin');
    const direct = await post(ana, '/api/publish');
    expect(direct.statusCode, direct.body).toBe(200);
    expect(project.read(HOME)).toContain('Published by an admin');
  });

  it('publishes an approval scheduled for later at its time, and marks the request published', async () => {
    const { clock } = await setup();
    const maria = await signIn(EDITOR);
    const ana = await signIn(ADMIN);
    await editHome(maria, 'Spring is here');
    await post(maria, '/api/reviews');
    const [request] = stored();
    const scheduled = await post(ana, '/api/reviews/approve', { id: request!.id, at: '2026-12-01T09:00' });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    expect(scheduled.json()).toMatchObject({
      scheduled: { when: 'Tue 1 Dec, 09:00 (Europe/Berlin)', scheduledBy: ADMIN, reviewId: request!.id },
    });
    expect(stored()[0]!.status).toBe('scheduled');

    clock.advance(20 * 60 * 60 * 1000 - 1); // 08:59:59.999 in Berlin
    expect(project.read(HOME)).not.toContain('Spring is here');
    clock.advance(1);
    await app.inject({ url: '/api/session', headers: { host: HOST } }); // let the publish start
    await waitFor(() => project.read(HOME).includes('Spring is here'));
    await waitFor(() => stored()[0]!.status === 'published');
    expect(project.git('log', '-1', '--format=%B')).toContain(`Asked for by ${EDITOR}; approved by ${ADMIN}.`);
  });
});

describe('review off, or no accounts', () => {
  it('lets an editor publish as before when review is off', async () => {
    await setup({ review: 'off' });
    const maria = await signIn(EDITOR);
    await editHome(maria, 'Spring is here');
    expect((await get(maria, '/api/reviews')).json() as ReviewsAnswer).toMatchObject({
      required: false,
      mayPublish: true,
      mayReview: false,
    });
    expect((await post(maria, '/api/reviews')).statusCode).toBe(409);
    expect((await post(maria, '/api/publish')).statusCode).toBe(200);
    expect(project.read(HOME)).toContain('Spring is here');
  });

  it('lets the one person of a studio without accounts publish, even with STUDIO_REVIEW=required', async () => {
    await setup({ accounts: false });
    const local = await signIn();
    await editHome(local, 'Spring is here');
    expect((await get(local, '/api/reviews')).json() as ReviewsAnswer).toMatchObject({ required: false, mayPublish: true });
    expect((await post(local, '/api/publish')).statusCode).toBe(200);
    expect(existsSync(path.join(project.root, '.studio', 'reviews.json'))).toBe(false);
  });
});

async function waitFor(check: () => boolean, ms = 5000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
