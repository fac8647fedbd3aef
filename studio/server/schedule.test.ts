// Scheduled publishing with a fake clock: a publish runs at its time and not a moment before, a
// restart (a new publisher and scheduler on the same state folder) keeps it, it can be cancelled by
// whoever scheduled it or an admin, a time that has passed or is more than a year away is refused,
// and a publish that fails is kept, with why, for the person who scheduled it.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeClock, type FakeClock } from '../testing/fake-clock.ts';
import { createStudioProject, fakeStudioAppDir, quickBuild, type StudioProject } from '../testing/studio-project.ts';
import type { Changes, ScheduleAnswer } from '../api-types.ts';
import { buildStudioApp } from './app.ts';
import { createPublisher } from './publish.ts';
import {
  createScheduler,
  describeTime,
  instantOf,
  localText,
  MAX_WAITING,
  ScheduleError,
  type ScheduledPublish,
  type ScheduleKeeping,
} from './schedule.ts';
import { createWorkspace } from './workspace.ts';

const HOME = 'content/pages/home.yaml';
const ZONE = 'Europe/Berlin';
const HOUR = 60 * 60 * 1000;

let project: StudioProject;
let stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops) stop();
  stops = [];
  project?.remove();
});

/** A studio's publisher and scheduler on the project's state folder, as a start of the studio makes them. */
async function startStudio(clock: FakeClock, options: { failBuild?: boolean; keeping?: ScheduleKeeping } = {}) {
  const workspace = createWorkspace({ root: project.root });
  const publisher = createPublisher({
    root: project.root,
    workspace,
    distDir: project.distDir,
    build: options.failBuild
      ? async () => {
          throw Object.assign(new Error('build failed'), { stderr: 'The home page has no title.' });
        }
      : quickBuild,
  });
  const finished: ScheduledPublish[] = [];
  const scheduler = createScheduler({
    stateDir: path.join(project.root, '.studio'),
    workspace,
    publisher,
    timeZone: ZONE,
    clock,
    onFinished: (entry) => finished.push(entry),
    ...(options.keeping ? { keeping: options.keeping } : {}),
  });
  await scheduler.start();
  stops.push(() => scheduler.stop());
  return { workspace, publisher, scheduler, finished };
}

function editHome(workspace: ReturnType<typeof createWorkspace>, heading: string) {
  const opened = workspace.open(HOME);
  const text = workspace.currentText(opened)!;
  workspace.saveDraft(
    HOME,
    text.replace(/^( {4}heading: ).*$/m, `$1${heading}`),
    { revision: opened.draft?.revision ?? 0, diskVersion: opened.disk?.version ?? null },
    'maria@example.com',
  );
}

function setup(start = '2026-11-30T12:00:00Z') {
  project = createStudioProject({ git: true });
  return createFakeClock(start);
}

describe('times in the site’s time zone', () => {
  it('reads a date and time in the zone, across the change of clocks, and says it back in words', () => {
    expect(new Date(instantOf('2026-12-01T09:00', ZONE)).toISOString()).toBe('2026-12-01T08:00:00.000Z');
    expect(new Date(instantOf('2026-07-01T09:00', ZONE)).toISOString()).toBe('2026-07-01T07:00:00.000Z');
    expect(new Date(instantOf('2026-12-01T09:00:30', 'UTC')).toISOString()).toBe('2026-12-01T09:00:30.000Z');
    expect(instantOf('2026-02-30T09:00', ZONE)).toBeNaN();
    expect(instantOf('tomorrow', ZONE)).toBeNaN();
    expect(localText(Date.parse('2026-12-01T08:00:00Z'), ZONE)).toBe('2026-12-01T09:00');
    const now = Date.parse('2026-11-30T12:00:00Z');
    expect(describeTime(Date.parse('2026-12-01T08:00:00Z'), ZONE, now)).toBe('Tue 1 Dec, 09:00 (Europe/Berlin)');
    expect(describeTime(Date.parse('2027-01-05T08:00:00Z'), ZONE, now)).toBe('Tue, 5 Jan 2027, 09:00 (Europe/Berlin)');
  });
});

describe('a scheduled publish', () => {
  it('runs at its time, not before, with the drafts as they were when it was scheduled', async () => {
    const clock = setup();
    const { workspace, scheduler } = await startStudio(clock);
    editHome(workspace, 'Spring is here');
    const entry = await scheduler.schedule('maria@example.com', '2026-12-01T09:00');
    expect(scheduler.describe(entry.at)).toBe('Tue 1 Dec, 09:00 (Europe/Berlin)');
    // A later edit is not part of it.
    editHome(workspace, 'Changed after scheduling');

    clock.advance(20 * HOUR - 1);
    await scheduler.idle();
    expect(project.read(HOME)).not.toContain('Spring is here');
    expect(scheduler.list()[0]!.status).toBe('waiting');

    clock.advance(1);
    await scheduler.idle();
    expect(project.read(HOME)).toContain('heading: Spring is here');
    expect(scheduler.list()[0]).toMatchObject({ status: 'published', publishId: expect.any(String) });
    expect(project.git('log', '-1', '--format=%an')).toBe('maria@example.com\n');
    // The later edit stays a draft.
    expect(workspace.listDrafts()[0]!.text).toContain('Changed after scheduling');
    expect(clock.pending()).toBe(0);
  });

  it('survives a restart: the new scheduler runs it at its time, and one whose time passed meanwhile at once', async () => {
    const clock = setup();
    const first = await startStudio(clock);
    editHome(first.workspace, 'Spring is here');
    await first.scheduler.schedule('maria@example.com', '2026-12-01T09:00');
    first.scheduler.stop();
    expect(clock.pending()).toBe(0);

    const second = await startStudio(clock);
    expect(clock.pending()).toBe(1);
    clock.advance(19 * HOUR);
    await second.scheduler.idle();
    expect(project.read(HOME)).not.toContain('Spring is here');
    second.scheduler.stop();

    // Stopped past its time: the next start publishes it at once.
    clock.advance(2 * HOUR);
    const third = await startStudio(clock);
    clock.advance(0);
    await third.scheduler.idle();
    expect(project.read(HOME)).toContain('heading: Spring is here');
    expect(third.scheduler.list()[0]!.status).toBe('published');
  });

  it('can be cancelled by who scheduled it or an admin, and then never runs', async () => {
    const clock = setup();
    const { workspace, scheduler } = await startStudio(clock);
    editHome(workspace, 'Spring is here');
    const entry = await scheduler.schedule('maria@example.com', '2026-12-01T09:00');
    await expect(scheduler.cancel(entry.id, 'li@example.com', false)).rejects.toThrow(
      'Only maria@example.com, who scheduled it, or an admin may cancel it.',
    );
    expect(await scheduler.cancel(entry.id, 'ana@example.com', true)).toMatchObject({
      status: 'cancelled',
      cancelledBy: 'ana@example.com',
    });
    await expect(scheduler.cancel(entry.id, 'maria@example.com', false)).rejects.toThrow('no longer waiting');
    expect(clock.pending()).toBe(0);
    clock.advance(48 * HOUR);
    await scheduler.idle();
    expect(project.read(HOME)).not.toContain('Spring is here');

    const own = await scheduler.schedule('maria@example.com', '2026-12-04T09:00');
    expect((await scheduler.cancel(own.id, 'maria@example.com', false)).status).toBe('cancelled');
  });

  it('refuses a time that has passed, one more than a year ahead, nothing to publish, and more than its limit waiting', async () => {
    const clock = setup();
    const { workspace, scheduler } = await startStudio(clock);
    await expect(scheduler.schedule('maria@example.com', '2026-12-01T09:00')).rejects.toThrow('There is nothing to schedule');
    editHome(workspace, 'Spring is here');
    const refusal = async (local: string) => {
      try {
        await scheduler.schedule('maria@example.com', local);
      } catch (error) {
        return error instanceof ScheduleError ? { status: error.status, message: error.message } : error;
      }
      return undefined;
    };
    expect(await refusal('2026-11-30T12:59')).toEqual({
      status: 400,
      message: 'That time has passed: choose a time after now (Mon 30 Nov, 13:00 (Europe/Berlin)).',
    });
    expect(await refusal('2027-12-01T13:01')).toEqual({
      status: 400,
      message: 'A publish can be scheduled at most a year ahead: choose an earlier date.',
    });
    expect(await refusal('2027-11-30T12:59')).toBeUndefined();
    expect(scheduler.list()).toHaveLength(1);
    for (let day = 2; day <= MAX_WAITING; day++)
      await scheduler.schedule('maria@example.com', `2027-01-${String(day % 28 || 28).padStart(2, '0')}T09:00`);
    expect(await refusal('2027-02-01T09:00')).toEqual({
      status: 409,
      message: `${MAX_WAITING} publishes are scheduled already: cancel one before scheduling another.`,
    });
  });

  it('reports a failure with its reason to whoever scheduled it, until they have read it', async () => {
    const clock = setup();
    const { workspace, scheduler, finished } = await startStudio(clock, { failBuild: true });
    editHome(workspace, 'Spring is here');
    const entry = await scheduler.schedule('maria@example.com', '2026-12-01T09:00');
    clock.advance(21 * HOUR);
    await scheduler.idle();
    expect(finished).toHaveLength(1);
    const [failed] = scheduler.list();
    expect(failed).toMatchObject({ id: entry.id, status: 'failed', scheduledBy: 'maria@example.com' });
    expect(failed!.message).toContain('the site could not be built');
    expect(failed!.message).toContain('The home page has no title.');
    expect(project.read(HOME)).not.toContain('Spring is here');
    // Only the person who scheduled it marks it read.
    await expect(scheduler.dismiss(entry.id, 'ana@example.com')).rejects.toThrow(ScheduleError);
    await scheduler.dismiss(entry.id, 'maria@example.com');
    expect(scheduler.list()[0]!.seen).toBe(true);
  });
});

describe('the schedule API', () => {
  it('shows a scheduled change as scheduled in the team’s zone and the person’s language, never offers it again, and offers it once cancelled', async () => {
    project = createStudioProject({ git: true });
    const clock = createFakeClock('2026-11-30T12:00:00Z');
    const app = buildStudioApp({
      root: project.root,
      appDir: fakeStudioAppDir(project.root),
      distDir: project.distDir,
      localEditor: 'mia.lopez@example.com',
      logLevel: 'silent',
      build: quickBuild,
      timeZone: 'America/Chicago',
      clock,
    });
    stops.push(() => void app.close());
    await app.ready();
    const session = await app.inject({ url: '/api/session', headers: { host: '127.0.0.1' } });
    // The browser is told the team's zone, to word every time on every screen in it.
    expect(session.json()).toMatchObject({ timeZone: 'America/Chicago' });
    const headers = {
      cookie: String(session.headers['set-cookie']).split(';')[0]!,
      host: '127.0.0.1',
      'accept-language': 'en-US,en;q=0.9',
    };
    const change = { ...headers, 'x-csrf-token': (session.json() as { csrfToken: string }).csrfToken };
    editHome(createWorkspace({ root: project.root }), 'Spring is here');
    const changes = async (language = 'en-US') =>
      (await app.inject({ url: '/api/changes', headers: { ...headers, 'accept-language': language } })).json() as Changes;
    const files = (await changes()).files.map(({ path, fingerprint }) => ({ path, fingerprint }));
    expect(files.map((file) => file.path)).toEqual([HOME]);

    // 09:00 in Chicago on 1 December is 15:00 UTC.
    const made = await app.inject({ method: 'POST', url: '/api/schedule', headers: change, payload: { at: '2026-12-01T09:00', files } });
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json()).toMatchObject({ scheduled: { at: '2026-12-01T15:00:00.000Z', when: 'Tue, Dec 1, 9:00 AM (America/Chicago)' } });

    const scheduled = await changes();
    expect(scheduled.files).toEqual([]);
    expect(scheduled.publishable).toBe(false);
    expect(scheduled.scheduled).toEqual([
      {
        path: HOME,
        title: 'Home',
        scheduleId: expect.any(String),
        when: 'Tue, Dec 1, 9:00 AM (America/Chicago)',
        scheduledBy: 'mia.lopez@example.com',
        mayCancel: true,
      },
    ]);
    // Worded in the language the browser asks in, the same moment in the same zone.
    expect((await changes('de-DE')).scheduled![0]!.when).toBe('Di., 1. Dez., 09:00 (America/Chicago)');

    // Publishing it now too, or scheduling it again, is refused with a sentence.
    const again = await app.inject({ method: 'POST', url: '/api/publish', headers: change, payload: { files } });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      ok: false,
      reason: 'scheduled',
      message:
        'Home is already scheduled to go live Tue, Dec 1, 9:00 AM (America/Chicago), by Mia Lopez, so it is not published now. To publish it at another time, cancel that scheduled publish first.',
    });
    const twice = await app.inject({ method: 'POST', url: '/api/schedule', headers: change, payload: { at: '2026-12-02T09:00', files } });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toMatch(/^Home is already scheduled to go live .*, so it is not scheduled again\./);
    expect(project.read(HOME)).not.toContain('Spring is here');

    // Cancelled, it is offered again.
    const id = scheduled.scheduled![0]!.scheduleId;
    expect((await app.inject({ method: 'POST', url: '/api/schedule/cancel', headers: change, payload: { id } })).statusCode).toBe(200);
    const offered = await changes();
    expect(offered.files.map((file) => file.path)).toEqual([HOME]);
    expect(offered.scheduled).toBeUndefined();
    expect(offered.publishable).toBe(true);
  });

  it('lists what is scheduled in the site’s time zone, refuses a past time, and shows a failure to its author', async () => {
    project = createStudioProject({ git: true });
    const clock = createFakeClock('2026-11-30T12:00:00Z');
    const app = buildStudioApp({
      root: project.root,
      appDir: fakeStudioAppDir(project.root),
      distDir: project.distDir,
      localEditor: 'local',
      logLevel: 'silent',
      build: async () => {
        throw new Error('no build today');
      },
      timeZone: ZONE,
      clock,
    });
    stops.push(() => void app.close());
    await app.ready();
    const session = await app.inject({ url: '/api/session', headers: { host: '127.0.0.1' } });
    const headers = { cookie: String(session.headers['set-cookie']).split(';')[0]!, host: '127.0.0.1' };
    const change = { ...headers, 'x-csrf-token': (session.json() as { csrfToken: string }).csrfToken };
    editHome(createWorkspace({ root: project.root }), 'Spring is here');

    // The changes as the publish screen shows them, sent back with each text's fingerprint.
    const files = ((await app.inject({ url: '/api/changes', headers })).json() as Changes).files.map(({ path, fingerprint }) => ({
      path,
      fingerprint,
    }));
    const past = await app.inject({ method: 'POST', url: '/api/schedule', headers: change, payload: { at: '2026-11-30T09:00', files } });
    expect(past.statusCode).toBe(400);
    expect(past.json()).toEqual({ message: 'That time has passed: choose a time after now (Mon 30 Nov, 13:00 (Europe/Berlin)).' });
    const bad = await app.inject({ method: 'POST', url: '/api/schedule', headers: change, payload: { at: 'soon', files } });
    expect(bad.statusCode).toBe(400);

    const made = await app.inject({ method: 'POST', url: '/api/schedule', headers: change, payload: { at: '2026-12-01T09:00', files } });
    expect(made.statusCode, made.body).toBe(200);
    const listed = (await app.inject({ url: '/api/schedule', headers })).json() as ScheduleAnswer;
    expect(listed).toMatchObject({
      timeZone: ZONE,
      now: '2026-11-30T13:00',
      mayPublish: true,
      scheduled: [{ when: 'Tue 1 Dec, 09:00 (Europe/Berlin)', scheduledBy: 'local', status: 'waiting', mayCancel: true }],
    });
    expect(listed.scheduled[0]!.files[0]!.path).toBe(HOME);

    clock.advance(21 * HOUR);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const after = (await app.inject({ url: '/api/schedule', headers })).json() as ScheduleAnswer;
    expect(after.scheduled[0]).toMatchObject({ status: 'failed', seen: false, mayCancel: false });
    expect(after.scheduled[0]!.message).toContain('no build today');
    const dismissed = await app.inject({
      method: 'POST',
      url: '/api/schedule/dismiss',
      headers: change,
      payload: { id: after.scheduled[0]!.id },
    });
    expect(dismissed.statusCode).toBe(200);
    expect(((await app.inject({ url: '/api/schedule', headers })).json() as ScheduleAnswer).scheduled[0]!.seen).toBe(true);
  });
});
