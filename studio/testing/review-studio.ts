// A studio with team accounts and review required, driven through its API as the browser drives it:
// an editor (maria) and an admin (ana) sign in, change the home page's first heading in a draft, and
// ask, review and schedule. The scheduler's clock is a fake one the test moves on.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { Changes, PublishAnswer } from '../api-types.ts';
import type { ReviewRequest } from '../server/reviews.ts';
import { buildStudioApp } from '../server/app.ts';
import { createFakeClock } from './fake-clock.ts';
import { followRunToEnd } from './publish-run.ts';
import { createStudioProject, fakeStudioAppDir, quickBuild, type StudioProject } from './studio-project.ts';
import type { Role } from '../../back-office/roles.ts';
import { createTeamStore, TEAM_PASSWORD, type TeamStore } from './team-accounts.ts';

export const EDITOR = 'maria@example.com';
export const ADMIN = 'ana@example.com';
export const HOME = 'content/pages/home.yaml';
const HOST = '127.0.0.1:4322';
/** The studio's address in the links of the team's e-mails. */
export const STUDIO_URL = 'https://studio.example.com';

export type Person = { headers: Record<string, string>; csrf: string };
export type ReviewStudio = Awaited<ReturnType<typeof startReviewStudio>>;

export async function startReviewStudio(
  options: {
    review?: 'required' | 'off';
    accounts?: boolean;
    /** More accounts than the editor and the admin (e-mail → role). */
    more?: Readonly<Record<string, Role>>;
    build?: (outDir: string) => Promise<void>;
  } = {},
) {
  const project: StudioProject = createStudioProject({ git: true });
  const team: TeamStore | undefined =
    (options.accounts ?? true) ? await createTeamStore({ [EDITOR]: 'editor', [ADMIN]: 'admin', ...options.more }) : undefined;
  const clock = createFakeClock('2026-11-30T12:00:00Z');
  const app = buildStudioApp({
    root: project.root,
    appDir: fakeStudioAppDir(project.root),
    distDir: project.distDir,
    // The team's e-mails go into the same store's outbox, as in a studio started with accounts.
    ...(team ? { accounts: team.store, notices: { outbox: team.store, studioUrl: STUDIO_URL } } : {}),
    localEditor: 'local',
    logLevel: 'silent',
    build: options.build ?? quickBuild,
    review: options.review ?? 'required',
    timeZone: 'Europe/Berlin',
    clock,
  });
  await app.ready();

  /** Signs in with a team account, or (without an address) takes the one local session. */
  async function signIn(email?: string): Promise<Person> {
    const response = email
      ? await app.inject({ method: 'POST', url: '/api/session', headers: { host: HOST }, payload: { email, password: TEAM_PASSWORD } })
      : await app.inject({ url: '/api/session', headers: { host: HOST } });
    expect(response.statusCode).toBe(200);
    const cookie = String(response.headers['set-cookie']).split(';')[0]!;
    return { headers: { cookie, host: HOST }, csrf: (response.json() as { csrfToken: string }).csrfToken };
  }

  const get = (person: Person, url: string) => app.inject({ url, headers: person.headers });
  const post = (person: Person, url: string, payload: object = {}) =>
    app.inject({ method: 'POST', url, headers: { ...person.headers, 'x-csrf-token': person.csrf }, payload });

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

  /** Discards the draft of `file` as the editor's "Discard changes" does: with the revision it opened. */
  async function discard(person: Person, file: string) {
    const opened = (await get(person, `/api/file?path=${file}`)).json() as { revision: number };
    return post(person, '/api/discard', { path: file, revision: opened.revision });
  }

  /** The changes the publish screen shows this person. */
  const shown = async (person: Person) => (await get(person, '/api/changes')).json() as Changes;
  /** The changes as a screen sends them back: each file with the fingerprint of the text it showed. */
  const seen = (changes: Changes) => changes.files.map(({ path: file, fingerprint }) => ({ path: file, fingerprint }));

  /**
   * Asks for a publish (`url`: a publish, an approval) and follows its run to its end, as the screen
   * does. `statusCode`: the request's own (202 when the run started, else the refusal's); `answer`: what
   * the run came to, or the refusal.
   */
  async function publishing(person: Person, url: string, payload: object): Promise<{ statusCode: number; answer: PublishAnswer }> {
    const started = await post(person, url, payload);
    if (started.statusCode !== 202) return { statusCode: started.statusCode, answer: started.json() as PublishAnswer };
    const run = await followRunToEnd(app, { ...person.headers, 'x-csrf-token': person.csrf }, started);
    return { statusCode: started.statusCode, answer: run.answer! };
  }

  /** Publishes what the publish screen shows, as the screen does; `changes`: what a screen showed earlier. */
  async function publish(person: Person, changes?: Changes) {
    return publishing(person, '/api/publish', { files: seen(changes ?? (await shown(person))) });
  }

  /** Approves review request `id` and publishes it now, as the review screen does. */
  const approve = (person: Person, id: string) => publishing(person, '/api/reviews/approve', { id });

  /** Schedules what the publish screen shows for `at`, as the screen does. */
  async function schedule(person: Person, at: string, changes?: Changes) {
    return post(person, '/api/schedule', { at, files: seen(changes ?? (await shown(person))) });
  }

  /** The review requests as the studio keeps them. */
  const stored = () =>
    (JSON.parse(readFileSync(path.join(project.root, '.studio', 'reviews.json'), 'utf8')) as { requests: ReviewRequest[] }).requests;

  /** The texts an open request keeps, apart from the list. */
  const storedTexts = (id: string) =>
    (
      JSON.parse(readFileSync(path.join(project.root, '.studio', 'review-texts', `${id}.json`), 'utf8')) as {
        files: { path: string; text: string | null; baseVersion: string | null }[];
      }
    ).files;

  async function close() {
    await app.close();
    await team?.remove();
    project.remove();
  }

  return { app, project, team, clock, signIn, get, post, editHome, discard, shown, publish, approve, schedule, stored, storedTexts, close };
}
