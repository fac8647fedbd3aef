// The team's e-mails as the studio stores them in the lead store's outbox, through its API as the
// browser uses it: a review request to each admin, a sent-back or approved request to the editor
// who asked, a failed scheduled publish to whoever scheduled it, each with the link that opens it.
// The site's server sends them (server/notify/studio-notices.test.ts); a studio without accounts
// stores none.
import { afterEach, describe, expect, it } from 'vitest';
import type { ScheduleAnswer } from '../api-types.ts';
import { ADMIN, EDITOR, startReviewStudio, STUDIO_URL, type ReviewStudio } from '../testing/review-studio.ts';
import { createStudioProject, fakeStudioAppDir, quickBuild } from '../testing/studio-project.ts';
import { createFakeClock } from '../testing/fake-clock.ts';
import { createTeamStore } from '../testing/team-accounts.ts';
import { buildStudioApp } from './app.ts';
import { STUDIO_NOTICE_ASKS_PER_HOUR } from './notices.ts';

const HOUR = 60 * 60 * 1000;
const SAM = 'sam@example.com';

let studio: ReviewStudio | undefined;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  await studio?.close();
  studio = undefined;
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A build that fails while `failing.now` is true, as a broken site would. */
const failing = { now: false };
async function failingBuild(outDir: string) {
  if (failing.now) throw Object.assign(new Error('build failed'), { stderr: 'The home page has no title.' });
  await quickBuild(outDir);
}

async function setup() {
  failing.now = false;
  studio = await startReviewStudio({
    more: { [SAM]: 'admin', 'bo@example.com': 'viewer', 'li@example.com': 'editor' },
    build: failingBuild,
  });
  const accounts = new Map((await studio.team!.store.listAccounts()).map((account) => [account.id, account.email]));
  /** The stored e-mails: kind, to whom (by address), and their facts. */
  const outbox = async () =>
    (await studio!.team!.store.listNotifications()).map((row) => ({
      kind: row.kind,
      channel: row.channel,
      to: accounts.get(String(row.detail.accountId)),
      detail: row.detail,
    }));
  return { ...studio, outbox };
}

async function waitFor(check: () => boolean | Promise<boolean>) {
  await expect.poll(check, { timeout: 10_000 }).toBe(true);
}

describe("the team's e-mails", () => {
  it('stores one e-mail for each admin when an editor asks for a review, naming the pages and the editor, with the link to it', async () => {
    const { signIn, editHome, post, stored, outbox } = await setup();
    const maria = await signIn(EDITOR);
    await editHome(maria, 'Spring is here');
    expect((await post(maria, '/api/reviews', { note: 'New heading for spring.' })).statusCode).toBe(200);
    const [request] = stored();

    const rows = await outbox();
    expect(rows.map((row) => row.to).sort()).toEqual([ADMIN, SAM]);
    for (const row of rows) {
      expect(row).toMatchObject({
        kind: 'studio-review-asked',
        channel: 'email',
        detail: {
          eventId: request!.id,
          pages: 'Home',
          by: EDITOR,
          text: 'New heading for spring.',
          link: `${STUDIO_URL}/?review=${request!.id}`,
        },
      });
    }
  });

  it('stores a bounded number of review e-mails when an editor asks again and again', async () => {
    const { signIn, editHome, post, outbox } = await setup();
    const maria = await signIn(EDITOR);
    await editHome(maria, 'Spring is here');
    // Each ask replaces the one before with a new request: without a limit, each was an e-mail to every admin.
    for (let ask = 0; ask < 30; ask++) expect((await post(maria, '/api/reviews', { note: `Ask ${ask}` })).statusCode).toBe(200);
    const rows = (await outbox()).filter((row) => row.kind === 'studio-review-asked');
    for (const admin of [ADMIN, SAM]) {
      const theirs = rows.filter((row) => row.to === admin);
      expect(theirs.length).toBeGreaterThan(0);
      expect(theirs.length).toBeLessThanOrEqual(STUDIO_NOTICE_ASKS_PER_HOUR);
    }
  });

  it("stores the editor's e-mail when their request is sent back, with the reviewer's comment", async () => {
    const { signIn, editHome, post, stored, outbox } = await setup();
    const maria = await signIn(EDITOR);
    const ana = await signIn(ADMIN);
    await editHome(maria, 'Spring is here');
    await post(maria, '/api/reviews');
    const [request] = stored();
    expect((await post(ana, '/api/reviews/send-back', { id: request!.id, comment: 'Shorter, please.' })).statusCode).toBe(200);

    const sentBack = (await outbox()).filter((row) => row.kind === 'studio-review-sent-back');
    expect(sentBack).toEqual([
      {
        kind: 'studio-review-sent-back',
        channel: 'email',
        to: EDITOR,
        detail: expect.objectContaining({ by: ADMIN, pages: 'Home', text: 'Shorter, please.', link: `${STUDIO_URL}/?publish` }),
      },
    ]);
  });

  it("stores the editor's e-mail once their approved request is live, or scheduled", async () => {
    const { signIn, editHome, post, stored, approve, outbox } = await setup();
    const maria = await signIn(EDITOR);
    const ana = await signIn(ADMIN);
    await editHome(maria, 'Spring is here');
    await post(maria, '/api/reviews');
    const [first] = stored();
    expect((await approve(ana, first!.id)).answer).toMatchObject({ ok: true });
    expect((await outbox()).filter((row) => row.kind === 'studio-review-approved')).toEqual([
      {
        kind: 'studio-review-approved',
        channel: 'email',
        to: EDITOR,
        detail: expect.objectContaining({ outcome: 'published', by: ADMIN, pages: 'Home', link: `${STUDIO_URL}/?history=all` }),
      },
    ]);

    await editHome(maria, 'Summer is here');
    await post(maria, '/api/reviews');
    const second = stored().find((request) => request.status === 'waiting')!;
    const scheduled = await post(ana, '/api/reviews/approve', { id: second.id, at: '2026-12-01T09:00' });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    const when = (scheduled.json() as { scheduled: { when: string } }).scheduled.when;
    const approvals = (await outbox()).filter((row) => row.kind === 'studio-review-approved' && row.detail.eventId === second.id);
    expect(approvals).toEqual([
      {
        kind: 'studio-review-approved',
        channel: 'email',
        to: EDITOR,
        detail: expect.objectContaining({ outcome: 'scheduled', when, by: ADMIN, link: `${STUDIO_URL}/?publish` }),
      },
    ]);
  });

  it('stores an e-mail for whoever scheduled a publish that failed, saying why', async () => {
    const { signIn, editHome, get, schedule, clock, outbox } = await setup();
    const ana = await signIn(ADMIN);
    await editHome(ana, 'Scheduled by an admin');
    const answer = await schedule(ana, '2026-12-01T09:00');
    expect(answer.statusCode, answer.body).toBe(200);
    const when = (answer.json() as { scheduled: { when: string } }).scheduled.when;
    failing.now = true;
    clock.advance(21 * HOUR);
    await waitFor(async () => ((await get(ana, '/api/schedule')).json() as ScheduleAnswer).scheduled[0]?.status === 'failed');

    const rows = await outbox();
    expect(rows).toEqual([
      {
        kind: 'studio-schedule-failed',
        channel: 'email',
        to: ADMIN,
        detail: expect.objectContaining({ pages: 'Home', when, link: `${STUDIO_URL}/?publish` }),
      },
    ]);
    expect(String(rows[0]!.detail.text)).toContain('The home page has no title.');
  });

  it('stores nothing in a studio without accounts, even when its one person is named as an account is', async () => {
    const project = createStudioProject({ git: true });
    const team = await createTeamStore({ [ADMIN]: 'admin' });
    cleanups.push(
      () => project.remove(),
      () => team.remove(),
    );
    const clock = createFakeClock('2026-11-30T12:00:00Z');
    failing.now = false;
    const app = buildStudioApp({
      root: project.root,
      appDir: fakeStudioAppDir(project.root),
      distDir: project.distDir,
      notices: { outbox: team.store, studioUrl: STUDIO_URL },
      localEditor: ADMIN,
      logLevel: 'silent',
      build: failingBuild,
      timeZone: 'Europe/Berlin',
      clock,
    });
    cleanups.unshift(() => app.close());
    await app.ready();
    const session = await app.inject({ url: '/api/session', headers: { host: '127.0.0.1:4322' } });
    const person = {
      cookie: String(session.headers['set-cookie']).split(';')[0]!,
      host: '127.0.0.1:4322',
      'x-csrf-token': (session.json() as { csrfToken: string }).csrfToken,
    };
    const opened = (await app.inject({ url: '/api/file?path=content/pages/home.yaml', headers: person })).json() as {
      data: { blocks: { heading?: string }[] };
      revision: number;
      diskVersion: string;
    };
    const blocks = opened.data.blocks.map((block, index) => (index === 0 ? { ...block, heading: 'Alone' } : block));
    const saved = await app.inject({
      method: 'PUT',
      url: '/api/file',
      headers: person,
      payload: {
        path: 'content/pages/home.yaml',
        data: { ...opened.data, blocks },
        revision: opened.revision,
        diskVersion: opened.diskVersion,
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const changes = (await app.inject({ url: '/api/changes', headers: person })).json() as {
      files: { path: string; fingerprint: string }[];
    };
    const scheduled = await app.inject({
      method: 'POST',
      url: '/api/schedule',
      headers: person,
      payload: { at: '2026-12-01T09:00', files: changes.files.map(({ path, fingerprint }) => ({ path, fingerprint })) },
    });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    failing.now = true;
    clock.advance(21 * HOUR);
    await waitFor(
      async () =>
        ((await app.inject({ url: '/api/schedule', headers: person })).json() as ScheduleAnswer).scheduled[0]?.status === 'failed',
    );
    expect(await team.store.listNotifications()).toEqual([]);
  });
});
