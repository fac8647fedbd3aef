// Scheduled publishes kept in the lead database, on every engine (PostgreSQL with TEST_DATABASE_URL):
// a studio that scheduled a change stops and its checkout is gone; a studio on another host, a fresh
// clone of the same site repository on the same database, starts after the time passed and publishes
// it once, and started again publishes nothing more. A run a studio left half done is never run
// again, and an upgrade brings the schedule kept in the checkout's file into the database.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../server/store/database.ts';
import { announceSkip, STORE_HARNESSES, type StoreDatabase } from '../../server/testing/store-harness.ts';
import type { Changes, ScheduleAnswer } from '../api-types.ts';
import { createFakeClock, type FakeClock } from '../testing/fake-clock.ts';
import { openLocalStudio } from '../testing/local-studio.ts';
import { cloneStudioProject, createStudioProject, type StudioProject } from '../testing/studio-project.ts';
import type { Publisher } from './publish.ts';
import { resolveGitRemote } from './remote.ts';
import { createScheduler, databaseKeeping, INTERRUPTED, type ScheduledPublish } from './schedule.ts';
import { createWorkspace, versionOf } from './workspace.ts';

const HOME = 'content/pages/home.yaml';
const HOUR = 60 * 60 * 1000;
const heading = (text: string) => /^ {4}heading: (.*)$/m.exec(text)?.[1];

function editHome(root: string, text: string) {
  const workspace = createWorkspace({ root });
  const opened = workspace.open(HOME);
  const current = workspace.currentText(opened)!;
  workspace.saveDraft(
    HOME,
    current.replace(/^( {4}heading: ).*$/m, `$1${text}`),
    { revision: opened.draft?.revision ?? 0, diskVersion: opened.disk?.version ?? null },
    'maria@example.com',
  );
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

for (const harness of STORE_HARNESSES) {
  announceSkip(harness);

  describe.skipIf(harness.skipReason !== undefined)(`scheduled publishes in the lead database: ${harness.kind}`, () => {
    let database: StoreDatabase;
    let store: Database;
    const projects: StudioProject[] = [];
    const cleanups: (() => Promise<unknown> | unknown)[] = [];

    beforeEach(async () => {
      database = await harness.createDatabase();
      store = await database.open();
    });
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
      for (const project of projects.splice(0)) project.remove();
      await database.remove();
    });

    /** A studio on `project`, with its remote and the database's schedule, at `clock`'s time. */
    async function studioOn(project: StudioProject, clock: FakeClock) {
      const studio = await openLocalStudio(project, {
        schedule: store,
        remote: await resolveGitRemote(project.root, undefined),
        clock,
        timeZone: 'UTC',
      });
      cleanups.push(() => studio.app.close());
      const schedule = async () => (await studio.app.inject({ url: '/api/schedule', headers: studio.headers })).json() as ScheduleAnswer;
      return { ...studio, schedule };
    }

    it('publishes on another host, from a fresh clone, what a stopped studio scheduled, and once only', async () => {
      const first = createStudioProject({ git: true, remote: true });
      projects.push(first);
      const remote = first.remote!;
      const commitsBefore = remote.git('rev-list', '--count', 'main').trim();
      const a = await studioOn(first, createFakeClock('2026-11-30T12:00:00Z'));
      editHome(first.root, 'Spring is here');
      const files = ((await a.app.inject({ url: '/api/changes', headers: a.headers })).json() as Changes).files.map(
        ({ path: file, fingerprint }) => ({ path: file, fingerprint }),
      );
      const made = await a.app.inject({
        method: 'POST',
        url: '/api/schedule',
        headers: a.headers,
        payload: { at: '2026-12-01T09:00', files },
      });
      expect(made.statusCode, made.body).toBe(200);
      await a.app.close();
      // The first host is gone, workspace and all: only the database and the site repository remain.
      rmSync(first.root, { recursive: true, force: true });
      expect(existsSync(path.join(first.root, '.studio'))).toBe(false);

      const second = cloneStudioProject(remote);
      projects.push(second);
      const later = createFakeClock('2026-12-01T10:00:00Z');
      const b = await studioOn(second, later);
      later.advance(0);
      const after = await until(b.schedule, (answer) => answer.scheduled[0]?.status !== 'waiting');
      expect(after.scheduled).toMatchObject([{ status: 'published', scheduledBy: 'local', files: [{ path: HOME }] }]);
      expect(heading(remote.show(HOME))).toBe('Spring is here');
      expect(remote.git('rev-list', '--count', 'main').trim()).toBe(String(Number(commitsBefore) + 1));
      expect(remote.git('log', '-1', '--format=%an', 'main').trim()).toBe('local');
      const published = remote.head();

      // Started again (a restart, or a third host), nothing is published a second time.
      await b.app.close();
      const again = await studioOn(second, later);
      later.advance(HOUR);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await again.schedule()).scheduled).toMatchObject([{ status: 'published' }]);
      expect(remote.head()).toBe(published);
      expect(later.pending()).toBe(0);
    });

    it('never runs again a publish a studio stopped in the middle of, and tells whoever scheduled it', async () => {
      const project = createStudioProject({ git: true });
      projects.push(project);
      const clock = createFakeClock('2026-11-30T12:00:00Z');
      const workspace = createWorkspace({ root: project.root });
      const publishes: string[] = [];
      // The first studio's publish never ends: it stands for a process killed while publishing.
      const stuck = { publish: async (user: string) => (publishes.push(user), new Promise(() => {})) } as unknown as Publisher;
      const text = project.read(HOME).replace(/^( {4}heading: ).*$/m, '$1Spring is here');
      const files = [{ path: HOME, title: 'Home', change: 'changed' as const, text, baseVersion: versionOf(project.read(HOME)) }];
      const keeping = () => databaseKeeping(store, { stateDir: path.join(project.root, '.studio') });
      const first = createScheduler({
        stateDir: path.join(project.root, '.studio'),
        keeping: keeping(),
        workspace,
        publisher: stuck,
        timeZone: 'UTC',
        clock,
      });
      await first.start();
      cleanups.push(() => first.stop());
      await first.schedule('maria@example.com', '2026-11-30T13:00', { files });
      clock.advance(HOUR);
      await until(
        async () => publishes.length,
        (count) => count > 0,
      );
      expect(publishes).toEqual(['maria@example.com']);
      first.stop();

      const finished: ScheduledPublish[] = [];
      const second = createScheduler({
        stateDir: path.join(project.root, '.studio'),
        keeping: keeping(),
        workspace,
        publisher: stuck,
        timeZone: 'UTC',
        clock,
        onFinished: (entry) => finished.push(entry),
      });
      await second.start();
      cleanups.push(() => second.stop());
      clock.advance(HOUR);
      await second.idle();
      expect(publishes).toEqual(['maria@example.com']);
      expect(second.list()).toMatchObject([{ status: 'failed', message: INTERRUPTED }]);
      expect(finished).toMatchObject([{ status: 'failed', scheduledBy: 'maria@example.com' }]);
      expect((await store.listStudioSchedule()).map(({ status, startedAt }) => ({ status, startedAt }))).toEqual([
        { status: 'failed', startedAt: null },
      ]);
    });

    it('moves the schedule a checkout kept in its file into the database at first start, once', async () => {
      const project = createStudioProject({ git: true });
      projects.push(project);
      const stateDir = path.join(project.root, '.studio');
      const text = project.read(HOME).replace(/^( {4}heading: ).*$/m, '$1Kept in the file');
      const waiting: ScheduledPublish = {
        id: '4f1c8a52-0d47-4d8e-9b8a-3c1f0e2d9a11',
        at: '2026-12-01T09:00:00.000Z',
        scheduledBy: 'maria@example.com',
        scheduledAt: '2026-11-29T09:00:00.000Z',
        files: [{ path: HOME, title: 'Home', change: 'changed', text, baseVersion: versionOf(project.read(HOME)) }],
        status: 'waiting',
      };
      mkdirSync(stateDir, { recursive: true });
      writeFileSync(path.join(stateDir, 'schedule.json'), JSON.stringify({ scheduled: [waiting] }));
      const clock = createFakeClock('2026-11-30T12:00:00Z');
      const studio = await studioOn(project, clock);

      expect((await studio.schedule()).scheduled).toMatchObject([{ id: waiting.id, status: 'waiting', scheduledBy: 'maria@example.com' }]);
      expect(existsSync(path.join(stateDir, 'schedule.json'))).toBe(false);
      expect(existsSync(path.join(stateDir, 'schedule.json.imported'))).toBe(true);
      expect((await store.listStudioSchedule()).map((row) => row.id)).toEqual([waiting.id]);

      clock.advance(21 * HOUR);
      await until(studio.schedule, (answer) => answer.scheduled[0]?.status !== 'waiting');
      expect(heading(project.read(HOME))).toBe('Kept in the file');
      expect((await store.listStudioSchedule()).map((row) => row.status)).toEqual(['published']);
    });
  });
}
