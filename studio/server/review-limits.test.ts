// What an editor cannot do with review requests however they use them: stop the studio's scheduled
// publishing by pushing an admin's scheduled approval out of the review list, keep more than a set
// number of requests open, or make the review file grow with the texts of decided requests; and a
// title of any length cannot hold the studio's one thread while its card is drawn.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeClock } from '../testing/fake-clock.ts';
import { createStudioProject, fakeStudioAppDir, quickBuild, type StudioProject } from '../testing/studio-project.ts';
import { createTeamStore, TEAM_PASSWORD, type TeamStore } from '../testing/team-accounts.ts';
import type { ScheduleAnswer } from '../api-types.ts';
import { buildStudioApp } from './app.ts';
import { NO_LONGER_ALLOWED } from './schedule.ts';
import { MAX_OPEN_REQUESTS_EACH, REVIEW_MESSAGES, type ReviewRequest } from './reviews.ts';

const HOST = '127.0.0.1:4322';
const EDITOR = 'maria@example.com';
const ADMIN = 'ana@example.com';
const HOME = 'content/pages/home.yaml';
const HOUR = 60 * 60 * 1000;

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

async function setup() {
  project = createStudioProject({ git: true });
  team = await createTeamStore({ [EDITOR]: 'editor', [ADMIN]: 'admin' });
  const clock = createFakeClock('2026-11-30T12:00:00Z');
  app = buildStudioApp({
    root: project.root,
    appDir: fakeStudioAppDir(project.root),
    distDir: project.distDir,
    accounts: team.store,
    logLevel: 'silent',
    build: quickBuild,
    review: 'required',
    timeZone: 'Europe/Berlin',
    clock,
  });
  await app.ready();
  return { clock };
}

async function signIn(email: string): Promise<Person> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/session',
    headers: { host: HOST },
    payload: { email, password: TEAM_PASSWORD },
  });
  expect(response.statusCode).toBe(200);
  const cookie = String(response.headers['set-cookie']).split(';')[0]!;
  return { headers: { cookie, host: HOST }, csrf: (response.json() as { csrfToken: string }).csrfToken };
}

const get = (person: Person, url: string) => app.inject({ url, headers: person.headers });
const post = (person: Person, url: string, payload: object = {}) =>
  app.inject({ method: 'POST', url, headers: { ...person.headers, 'x-csrf-token': person.csrf }, payload });

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

async function waitFor(check: () => boolean | Promise<boolean>, ms = 5000) {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('scheduled publishing cannot be stopped by an editor', () => {
  it('publishes an approval scheduled for later even after the editor asked for review 51 times since, and keeps running later publishes', async () => {
    const { clock } = await setup();
    const maria = await signIn(EDITOR);
    const ana = await signIn(ADMIN);
    await editHome(maria, 'Spring is here');
    expect((await post(maria, '/api/reviews')).statusCode).toBe(200);
    const [approved] = stored();
    expect((await post(ana, '/api/reviews/approve', { id: approved!.id, at: '2026-12-01T09:00' })).statusCode).toBe(200);

    // The editor asks again and again: each request replaces the one before (decided, so pruned after 50).
    for (let ask = 0; ask < 51; ask++) expect((await post(maria, '/api/reviews')).statusCode).toBe(200);

    // Another publish the admin scheduled for an hour later.
    await editHome(ana, 'Later change');
    expect((await post(ana, '/api/schedule', { at: '2026-12-01T10:00' })).statusCode).toBe(200);

    // The scheduled approval is still kept, to be marked published when it runs.
    expect(stored().find((request) => request.id === approved!.id)?.status).toBe('scheduled');
    clock.advance(21 * HOUR);
    await waitFor(() => project.read(HOME).includes('Spring is here'));
    clock.advance(HOUR);
    // The second one ran too (here it fails as a conflict: the first publish changed the file since).
    await waitFor(async () => {
      const { scheduled } = (await get(ana, '/api/schedule')).json() as ScheduleAnswer;
      return scheduled.every((entry) => entry.status !== 'waiting');
    });
  });
});

describe('a scheduled publish runs only while its author may publish', () => {
  it('does not publish when the admin who scheduled it has become an editor since, and says why', async () => {
    const { clock } = await setup();
    const ana = await signIn(ADMIN);
    await editHome(ana, 'Scheduled by an admin');
    expect((await post(ana, '/api/schedule', { at: '2026-12-01T09:00' })).statusCode).toBe(200);
    await team!.store.setAccountRole(ADMIN, 'editor', Date.now());
    clock.advance(21 * HOUR);
    await waitFor(() => {
      const [entry] = (
        JSON.parse(readFileSync(path.join(project.root, '.studio', 'schedule.json'), 'utf8')) as {
          scheduled: { status: string; message?: string }[];
        }
      ).scheduled;
      return entry?.status === 'failed' && entry.message === NO_LONGER_ALLOWED;
    });
    expect(project.read(HOME)).not.toContain('Scheduled by an admin');
  });
});

describe('the review file stays small', () => {
  it('keeps no text of a decided request, only what it was', async () => {
    await setup();
    const maria = await signIn(EDITOR);
    await editHome(maria, 'First try');
    expect((await post(maria, '/api/reviews')).statusCode).toBe(200);
    await editHome(maria, 'Second try');
    expect((await post(maria, '/api/reviews')).statusCode).toBe(200);
    const [replaced, waiting] = stored();
    expect(replaced).toMatchObject({ status: 'replaced', files: [{ path: HOME, text: null, textDropped: true }] });
    expect(waiting!.files[0]!.text).toContain('Second try');
  });

  it(`refuses a person's request past ${MAX_OPEN_REQUESTS_EACH} open at once, saying why`, async () => {
    await setup();
    const maria = await signIn(EDITOR);
    for (let page = 0; page <= MAX_OPEN_REQUESTS_EACH; page++) {
      // A new page each time: a request for other files does not replace the earlier ones.
      const created = await post(maria, '/api/file', { kind: 'page', name: `offer-${page}` });
      expect(created.statusCode, created.body).toBe(200);
      const asked = await post(maria, '/api/reviews');
      if (page < MAX_OPEN_REQUESTS_EACH) expect(asked.statusCode, asked.body).toBe(200);
      else {
        expect(asked.statusCode).toBe(409);
        expect(asked.json()).toEqual({ message: REVIEW_MESSAGES.tooMany });
      }
      await post(maria, '/api/discard', { path: `content/pages/offer-${page}.yaml` });
    }
    expect(stored().filter((request) => request.status === 'waiting')).toHaveLength(MAX_OPEN_REQUESTS_EACH);
  });
});

describe('the social card of a very long title', () => {
  it('is drawn from the first characters only, quickly (300,000 characters held the thread for seconds)', async () => {
    const { renderOgImage, MAX_CARD_TEXT } = await import('../../brand-pictures/og-image.ts');
    const { parse } = await import('yaml');
    const site = parse(readFileSync(path.join(import.meta.dirname, '../../content/site.yaml'), 'utf8')) as {
      company: never;
      brand: never;
    };
    const brand = { site: { company: site.company, brand: site.brand }, host: 'example.com' };
    const started = performance.now();
    const long = await renderOgImage({ title: 'x'.repeat(300_000), eyebrow: 'y'.repeat(300_000) }, brand);
    expect(performance.now() - started).toBeLessThan(3000);
    const cut = await renderOgImage({ title: 'x'.repeat(MAX_CARD_TEXT), eyebrow: 'y'.repeat(MAX_CARD_TEXT) }, brand);
    expect(long.equals(cut)).toBe(true);
  });
});
