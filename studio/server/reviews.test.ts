// Review before publish, through the studio's API as the browser uses it: with STUDIO_REVIEW=required
// an editor's publish is refused and they ask for review instead; an admin sends the request back
// with a comment the editor sees beside the draft, the editor changes the draft and asks again, and
// the admin publishes it, the commit naming both. Without accounts, or with review off, nothing changes.
// And what an editor cannot do however they use it: stop scheduled publishing by pushing an admin's
// scheduled approval out of the list, keep more than a set number of requests open, or make the
// review file grow with the texts of decided requests.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Changes, PublishRunView, ReviewFeedback, ReviewRequestDetail, ReviewsAnswer, ScheduleAnswer } from '../api-types.ts';
import { MAX_OPEN_REQUESTS_EACH, REVIEW_MESSAGES, REVIEW_PAGE_SIZE } from './reviews.ts';
import { createWorkspace } from './workspace.ts';
import { NO_LONGER_ALLOWED } from './schedule.ts';
import { ADMIN, EDITOR, HOME, startReviewStudio, type ReviewStudio } from '../testing/review-studio.ts';
import { followRunToEnd } from '../testing/publish-run.ts';
import { quickBuild } from '../testing/studio-project.ts';

const HOUR = 60 * 60 * 1000;

let studio: ReviewStudio | undefined;
afterEach(async () => {
  await studio?.close();
  studio = undefined;
});

/** Starts the studio for one test; its helpers are used through the names below. */
async function setup(options: Parameters<typeof startReviewStudio>[0] = {}) {
  studio = await startReviewStudio(options);
  return { clock: studio.clock };
}
const signIn = (email?: string) => studio!.signIn(email);
const get: ReviewStudio['get'] = (person, url) => studio!.get(person, url);
const post: ReviewStudio['post'] = (person, url, payload) => studio!.post(person, url, payload);
const editHome: ReviewStudio['editHome'] = (person, heading) => studio!.editHome(person, heading);
const stored = () => studio!.stored();
const publish: ReviewStudio['publish'] = (person, changes) => studio!.publish(person, changes);
const approve: ReviewStudio['approve'] = (person, id) => studio!.approve(person, id);
const schedule: ReviewStudio['schedule'] = (person, at, changes) => studio!.schedule(person, at, changes);

describe('review required', () => {
  it('refuses an editor’s publish and undo (403) and keeps their request for review with a snapshot of the drafts', async () => {
    await setup();
    const maria = await signIn(EDITOR);
    await editHome(maria, 'Spring is here');

    const refused = await publish(maria);
    expect(refused.statusCode).toBe(403);
    expect(refused.answer).toEqual({ message: REVIEW_MESSAGES.publishRefused });
    expect((await post(maria, '/api/undo')).statusCode).toBe(403);
    expect((await schedule(maria, '2026-12-01T09:00')).statusCode).toBe(403);
    // Restoring an older version is a publish too.
    const shipped = studio!.project.git('rev-parse', 'HEAD').trim();
    const restore = await post(maria, '/api/history/restore', { version: shipped, path: HOME });
    expect(restore.statusCode).toBe(403);
    expect(restore.json()).toEqual({ message: REVIEW_MESSAGES.restoreRefused });
    expect(studio!.project.read(HOME)).not.toContain('Spring is here');

    const rights = (await get(maria, '/api/reviews')).json() as ReviewsAnswer;
    expect(rights).toMatchObject({ required: true, mayPublish: false, mayReview: false, requests: [] });

    const asked = await post(maria, '/api/reviews', { note: 'New headline for spring' });
    expect(asked.statusCode, asked.body).toBe(200);
    const [request] = stored();
    expect(request).toMatchObject({
      status: 'waiting',
      note: 'New headline for spring',
      requestedBy: EDITOR,
      files: [{ path: HOME, change: 'changed', changedBy: [EDITOR] }],
    });
    expect(studio!.storedTexts(request!.id)).toEqual([
      { path: HOME, text: expect.stringContaining('Spring is here'), baseVersion: expect.stringMatching(/^[\w-]{22}$/) },
    ]);
    expect(Date.parse(request!.requestedAt)).not.toBeNaN();
    // The request is the editor's to see; they may not decide it.
    expect(((await get(maria, '/api/reviews')).json() as ReviewsAnswer).requests).toHaveLength(1);
    expect((await post(maria, '/api/reviews/approve', { id: request!.id })).statusCode).toBe(403);
    expect((await post(maria, '/api/reviews/send-back', { id: request!.id, comment: 'Fine by me' })).statusCode).toBe(403);
    expect(studio!.project.read(HOME)).not.toContain('Spring is here');
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
    expect(first).toMatchObject({ status: 'waiting', requestedBy: EDITOR, files: [{ path: HOME, title: 'Home', change: 'changed' }] });
    // The reviewer opens it and sees the diff and what the preview draws.
    const opened = (await get(ana, `/api/reviews/request?id=${first!.id}`)).json() as { request: ReviewRequestDetail };
    expect(opened.request).toMatchObject({ id: first!.id, files: [{ path: HOME, kind: 'page', change: 'changed' }] });
    expect(JSON.stringify(opened.request.files[0]!.hunks)).toContain('Spring is here');
    expect(JSON.stringify(opened.request.files[0]!.data)).toContain('Spring is here');
    // And the page as it is live, which the change list compares the request with.
    expect(JSON.stringify(opened.request.files[0]!.before)).toContain('"blocks"');
    expect(JSON.stringify(opened.request.files[0]!.before)).not.toContain('Spring is here');

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

    const approved = await approve(ana, second!.id);
    expect(approved.statusCode).toBe(202);
    expect(approved.answer).toMatchObject({
      ok: true,
      record: { user: ADMIN, changedBy: [EDITOR], note: `Asked for by ${EDITOR}; approved by ${ADMIN}. Changes by ${EDITOR}.` },
    });
    expect(studio!.project.read(HOME)).toContain('Spring 2027 is here');
    const commit = studio!.project.git('log', '-1', '--format=%an <%ae>%n%B');
    expect(commit).toContain(`${ADMIN} <${ADMIN}>`);
    expect(commit).toContain(`Asked for by ${EDITOR}; approved by ${ADMIN}.`);
    expect(commit).toContain(`Published in the content studio by ${ADMIN}.`);
    expect(stored().find((request) => request.id === second!.id)).toMatchObject({ status: 'published', decidedBy: ADMIN });
    // A decided request shows no change: its texts are no longer kept.
    const decided = (await get(ana, `/api/reviews/request?id=${second!.id}`)).json() as { request: ReviewRequestDetail };
    expect(decided.request.files[0]).toMatchObject({ hunks: [], before: null });
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
    studio!.project.write(HOME, `${studio!.project.read(HOME)}\n# changed by a git pull\n`);
    const approved = await approve(ana, request!.id);
    expect(approved.answer).toMatchObject({ ok: false, reason: 'conflict' });
    expect(stored()[0]!.status).toBe('waiting');

    expect((await studio!.discard(ana, HOME)).statusCode).toBe(200);
    await editHome(ana, 'Published by an admin');
    const direct = await publish(ana);
    expect(direct.answer, JSON.stringify(direct)).toMatchObject({ ok: true });
    expect(studio!.project.read(HOME)).toContain('Published by an admin');
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
    expect(studio!.project.read(HOME)).not.toContain('Spring is here');
    clock.advance(1);
    await studio!.app.inject({ url: '/api/session', headers: { host: '127.0.0.1:4322' } }); // let the publish start
    await waitFor(() => studio!.project.read(HOME).includes('Spring is here'));
    await waitFor(() => stored()[0]!.status === 'published');
    expect(studio!.project.git('log', '-1', '--format=%B')).toContain(`Asked for by ${EDITOR}; approved by ${ADMIN}.`);
  });

  it('refuses to approve now a second request for a page a scheduled approval already carries, so it goes live once', async () => {
    await setup();
    const maria = await signIn(EDITOR);
    const ana = await signIn(ADMIN);
    await editHome(maria, 'Spring is here');
    await post(maria, '/api/reviews');
    const [first] = stored();
    expect((await post(ana, '/api/reviews/approve', { id: first!.id, at: '2026-12-01T09:00' })).statusCode).toBe(200);
    // The page list says the draft is scheduled, so the header does not count it as waiting to be published.
    const { entries } = (await get(maria, '/api/entries')).json() as { entries: { path: string; scheduled?: boolean }[] };
    expect(entries.find((entry) => entry.path === HOME)?.scheduled).toBe(true);
    expect(entries.filter((entry) => entry.scheduled)).toHaveLength(1);
    // The editor asks again with the same draft: a new request holding the page the schedule carries.
    expect((await post(maria, '/api/reviews')).statusCode).toBe(200);
    const second = stored().find((request) => request.status === 'waiting');
    const now = await post(ana, '/api/reviews/approve', { id: second!.id });
    expect(now.statusCode, now.body).toBe(409);
    expect(now.json().message).toMatch(/^Home is already scheduled to go live .*, so it is not published now\./);
    expect(studio!.project.read(HOME)).not.toContain('Spring is here');
    expect(stored().find((request) => request.id === second!.id)?.status).toBe('waiting');
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
    expect((await publish(maria)).answer).toMatchObject({ ok: true });
    expect(studio!.project.read(HOME)).toContain('Spring is here');
  });

  it('lets the one person of a studio without accounts publish, even with STUDIO_REVIEW=required', async () => {
    await setup({ accounts: false });
    const local = await signIn();
    await editHome(local, 'Spring is here');
    expect((await get(local, '/api/reviews')).json() as ReviewsAnswer).toMatchObject({ required: false, mayPublish: true });
    expect((await publish(local)).answer).toMatchObject({ ok: true });
    expect(existsSync(path.join(studio!.project.root, '.studio', 'reviews.json'))).toBe(false);
  });
});

async function waitFor(check: () => boolean | Promise<boolean>, ms = 5000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
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

    // A later change of the same page by the admin waits: the scheduled approval carries the page, so
    // it is shown as scheduled and not offered for publishing (or scheduling) until that has run.
    await studio!.discard(ana, HOME);
    await editHome(ana, 'Later change');
    const meanwhile = (await get(ana, '/api/changes')).json() as Changes;
    expect(meanwhile.files).toEqual([]);
    expect(meanwhile.scheduled?.map((change) => change.path)).toEqual([HOME]);

    // The scheduled approval is still kept, to be marked published when it runs.
    expect(stored().find((request) => request.id === approved!.id)?.status).toBe('scheduled');
    clock.advance(21 * HOUR);
    await waitFor(() => studio!.project.read(HOME).includes('Spring is here'));
    // Then the admin's change is offered again, and a publish scheduled for later runs too.
    await waitFor(async () => ((await get(ana, '/api/changes')).json() as Changes).files.length === 1);
    expect((await schedule(ana, '2026-12-01T11:00')).statusCode).toBe(200);
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
    expect((await schedule(ana, '2026-12-01T09:00')).statusCode).toBe(200);
    await studio!.team!.store.setAccountRole(ADMIN, 'editor', Date.now());
    clock.advance(21 * HOUR);
    await waitFor(() => {
      const [entry] = (
        JSON.parse(readFileSync(path.join(studio!.project.root, '.studio', 'schedule.json'), 'utf8')) as {
          scheduled: { status: string; message?: string }[];
        }
      ).scheduled;
      return entry?.status === 'failed' && entry.message === NO_LONGER_ALLOWED;
    });
    expect(studio!.project.read(HOME)).not.toContain('Scheduled by an admin');
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
    expect(replaced).toMatchObject({ status: 'replaced', files: [{ path: HOME, textDropped: true }] });
    expect(existsSync(path.join(studio!.project.root, '.studio', 'review-texts', `${replaced!.id}.json`))).toBe(false);
    expect(studio!.storedTexts(waiting!.id)[0]!.text).toContain('Second try');
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
      await studio!.discard(maria, `content/pages/offer-${page}.yaml`);
    }
    expect(stored().filter((request) => request.status === 'waiting')).toHaveLength(MAX_OPEN_REQUESTS_EACH);
  });
});

describe('a publish makes live exactly what the person publishing saw', () => {
  const OFFER = 'content/pages/spring-offer.yaml';

  it('refuses a publish when a draft was saved after the publish screen loaded, and publishes nothing else', async () => {
    await setup({ review: 'off' });
    const maria = await signIn(EDITOR);
    const ana = await signIn(ADMIN);
    await editHome(maria, 'Spring is here');
    const shownToAna = await studio!.shown(ana);
    expect(shownToAna.files.map((file) => file.path)).toEqual([HOME]);

    // Saved after Ana's publish screen loaded: another version of the same page, and a new page.
    await editHome(maria, 'Spring, unchecked');
    expect((await post(maria, '/api/file', { kind: 'page', name: 'spring-offer' })).statusCode).toBe(200);
    const refused = await publish(ana, shownToAna);
    expect(refused.statusCode).toBe(409);
    expect(refused.answer).toMatchObject({
      ok: false,
      reason: 'changed-since',
      message: 'Home changed since you opened the publish screen: look at the changes again before publishing. Nothing was published.',
    });
    expect(studio!.project.read(HOME)).not.toContain('Spring');

    // Looking again: Ana publishes the home page as she now sees it, and only that.
    const again = await studio!.shown(ana);
    const homeOnly = { ...again, files: again.files.filter((file) => file.path === HOME) };
    expect((await publish(ana, homeOnly)).answer).toMatchObject({ ok: true });
    expect(studio!.project.read(HOME)).toContain('Spring, unchecked');
    expect(existsSync(path.join(studio!.project.root, OFFER))).toBe(false);
    // The same publish sent again (a second click, a browser retrying) publishes nothing, and says it is live.
    const twice = await publish(ana, homeOnly);
    expect(twice.statusCode).toBe(409);
    expect(twice.answer).toMatchObject({ reason: 'nothing', message: 'Home is live already, as shown: there is nothing more to publish.' });
    expect((await studio!.shown(ana)).files.map((file) => file.path)).toEqual([OFFER]);
  });

  it('never carries a draft an admin sent back, nor another editor’s unapproved draft, and says why when asked to', async () => {
    await setup();
    const maria = await signIn(EDITOR);
    const ana = await signIn(ADMIN);
    await editHome(maria, 'Spring is here');
    await post(maria, '/api/reviews', { note: '' });
    const [request] = stored();
    expect((await post(ana, '/api/reviews/send-back', { id: request!.id, comment: 'Not yet.' })).statusCode).toBe(200);
    expect((await post(ana, '/api/file', { kind: 'page', name: 'spring-offer' })).statusCode).toBe(200);

    // Ana's publish screen shows her own change, and Maria's apart, as not published from there.
    const shownToAna = await studio!.shown(ana);
    expect(shownToAna.files.map((file) => [file.path, file.changedBy])).toEqual([[OFFER, [ADMIN]]]);
    expect(shownToAna.held).toEqual([{ path: HOME, title: 'Home', changedBy: [EDITOR] }]);
    expect((await publish(ana, shownToAna)).answer).toMatchObject({ ok: true });
    expect(studio!.project.read(OFFER)).toContain('spring-offer');
    expect(studio!.project.read(HOME)).not.toContain('Spring is here');

    // Naming Maria's draft anyway, now or for later, is refused: it goes live by its review.
    const home = (await studio!.shown(maria)).files.find((file) => file.path === HOME)!;
    const direct = await post(ana, '/api/publish', { files: [{ path: HOME, fingerprint: home.fingerprint }] });
    expect(direct.statusCode).toBe(403);
    expect(direct.json()).toMatchObject({
      reason: 'needs-review',
      message:
        'Nothing was published: Home (changed by maria@example.com) holds changes by someone else, which need a review first. Publish your own changes, and approve theirs from the review requests.',
    });
    const later = await post(ana, '/api/schedule', { at: '2026-12-01T09:00', files: [{ path: HOME, fingerprint: home.fingerprint }] });
    expect(later.statusCode).toBe(403);
    expect(studio!.project.read(HOME)).not.toContain('Spring is here');

    // A draft Ana changed after Maria holds Maria's change too.
    await editHome(ana, 'Spring, edited by the admin');
    expect((await studio!.shown(ana)).held).toEqual([{ path: HOME, title: 'Home', changedBy: [EDITOR, ADMIN] }]);
    const mixed = (await studio!.shown(maria)).files.find((file) => file.path === HOME)!;
    expect((await post(ana, '/api/publish', { files: [{ path: HOME, fingerprint: mixed.fingerprint }] })).statusCode).toBe(403);
    expect(studio!.project.read(HOME)).not.toContain('Spring');
  });

  it('publishes a scheduled approval with the approved texts, not the drafts at its time, naming everyone whose change it carries', async () => {
    const { clock } = await setup();
    const maria = await signIn(EDITOR);
    const ana = await signIn(ADMIN);
    await editHome(maria, 'Spring is here');
    await post(maria, '/api/reviews');
    const [request] = stored();
    expect((await post(ana, '/api/reviews/approve', { id: request!.id, at: '2026-12-01T09:00' })).statusCode).toBe(200);
    await editHome(maria, 'Spring, never reviewed');

    clock.advance(21 * HOUR);
    await waitFor(() => studio!.project.read(HOME).includes('Spring is here'));
    await waitFor(() => stored()[0]!.status === 'published');
    expect(studio!.project.read(HOME)).not.toContain('never reviewed');
    const commit = studio!.project.git('log', '-1', '--format=%B');
    expect(commit).toContain(`Asked for by ${EDITOR}; approved by ${ADMIN}.`);
    expect(commit).toContain(`Changes by ${EDITOR}.`);
    // The later edit is still a draft, waiting for a review of its own.
    expect((await studio!.shown(maria)).files).toMatchObject([{ path: HOME, changedBy: [EDITOR] }]);
  });
});

describe('the list of review requests', () => {
  it('answers a page at a time without any draft text, quickly however large the requests, and opens one with its changes', async () => {
    await setup();
    const maria = await signIn(EDITOR);
    const ana = await signIn(ADMIN);
    const workspace = createWorkspace({ root: studio!.project.root });
    const filler = 'x'.repeat(200_000);
    // Twenty requests of Maria's (as many as she may have open) and one of Ana's, each of a page with a long comment.
    for (const [index, person] of [...Array.from({ length: 20 }, () => maria), ana].entries()) {
      const file = `content/pages/offer-${index}.yaml`;
      expect((await post(person, '/api/file', { kind: 'page', name: `offer-${index}` })).statusCode).toBe(200);
      const draft = workspace.open(file).draft!;
      workspace.saveDraft(
        file,
        `${draft.text}# ${filler}\n`,
        { revision: draft.revision, diskVersion: null },
        person === ana ? ADMIN : EDITOR,
      );
      expect((await post(person, '/api/reviews')).statusCode).toBe(200);
      await studio!.discard(person, file);
    }

    let fastest = Infinity;
    let first;
    for (let run = 0; run < 3; run++) {
      const started = performance.now();
      first = await get(ana, '/api/reviews');
      fastest = Math.min(fastest, performance.now() - started);
    }
    expect(first!.statusCode).toBe(200);
    expect(first!.body).not.toContain('xxxxxxxxxx');
    expect(first!.body.length).toBeLessThan(20_000);
    expect(fastest).toBeLessThan(300);
    const page = first!.json() as ReviewsAnswer;
    expect(page).toMatchObject({ waiting: 21, nextOffset: REVIEW_PAGE_SIZE });
    expect(page.requests).toHaveLength(REVIEW_PAGE_SIZE);
    expect(page.requests[0]!.files).toEqual([
      { path: 'content/pages/offer-20.yaml', title: expect.any(String), change: 'added', changedBy: [ADMIN] },
    ]);
    const rest = (await get(ana, `/api/reviews?offset=${REVIEW_PAGE_SIZE}`)).json() as ReviewsAnswer;
    expect(rest.requests.map((found) => found.files[0]!.path)).toEqual(['content/pages/offer-0.yaml']);
    expect(rest.nextOffset).toBeNull();
    // Maria sees her own twenty only.
    expect(((await get(maria, '/api/reviews')).json() as ReviewsAnswer).waiting).toBe(20);

    const opened = await get(ana, `/api/reviews/request?id=${page.requests[0]!.id}`);
    expect(opened.statusCode).toBe(200);
    expect(JSON.stringify((opened.json() as { request: ReviewRequestDetail }).request.files[0]!.hunks)).toContain(filler);
    // Maria may open hers, not Ana's.
    expect((await get(maria, `/api/reviews/request?id=${page.requests[0]!.id}`)).statusCode).toBe(404);
    expect((await get(ana, '/api/reviews?offset=soon')).statusCode).toBe(400);
  });
});

describe('an approval that takes a while to publish', () => {
  it('is answered at once with the run, shows its steps, and cannot be approved again while it publishes', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let building!: () => void;
    const started = new Promise<void>((resolve) => (building = resolve));
    await setup({
      build: async (outDir) => {
        building();
        await released;
        await quickBuild(outDir);
      },
    });
    const maria = await signIn(EDITOR);
    const ana = await signIn(ADMIN);
    await editHome(maria, 'Spring is here');
    await post(maria, '/api/reviews');
    const [request] = stored();

    const approved = await post(ana, '/api/reviews/approve', { id: request!.id });
    expect(approved.statusCode).toBe(202);
    const { run } = approved.json() as { run: PublishRunView };
    expect(run).toMatchObject({ action: 'publish', user: ADMIN, done: false });
    await started;
    const during = (await get(ana, `/api/publish-runs/${run.id}`)).json() as { run: PublishRunView };
    expect(during.run.steps.find((step) => step.state === 'now')?.label).toBe('Building the site');
    // A publish screen opened now finds it running; the request cannot be approved twice.
    expect(((await get(ana, '/api/publish-status')).json() as { running: PublishRunView[] }).running.map((found) => found.id)).toEqual([
      run.id,
    ]);
    const again = await post(ana, '/api/reviews/approve', { id: request!.id });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: REVIEW_MESSAGES.busy });
    expect(studio!.project.git('log', '-1', '--format=%B')).not.toContain('approved by');
    expect(stored()[0]!.status).toBe('waiting');

    release();
    const ended = await followRunToEnd(studio!.app, { ...ana.headers, 'x-csrf-token': ana.csrf }, approved);
    expect(ended.answer).toMatchObject({ ok: true, record: { user: ADMIN, changedBy: [EDITOR] } });
    expect(studio!.project.read(HOME)).toContain('Spring is here');
    expect(stored()[0]).toMatchObject({ status: 'published', decidedBy: ADMIN });
  });
});

describe('a review file written before texts were kept apart', () => {
  it('lists its requests without their texts, and still opens and publishes them', async () => {
    await setup();
    const maria = await signIn(EDITOR);
    const ana = await signIn(ADMIN);
    await editHome(maria, 'Spring is here');
    await post(maria, '/api/reviews');
    // The same request as the studio used to keep it: its texts inline.
    const [request] = stored();
    const reviewsFile = path.join(studio!.project.root, '.studio', 'reviews.json');
    const inline = { ...request!, files: request!.files.map((file) => ({ ...file, ...studio!.storedTexts(request!.id)[0]! })) };
    writeFileSync(reviewsFile, JSON.stringify({ requests: [inline] }));
    rmSync(path.join(studio!.project.root, '.studio', 'review-texts'), { recursive: true });

    const listed = await get(ana, '/api/reviews');
    expect(listed.body).not.toContain('Spring is here');
    expect(readFileSync(reviewsFile, 'utf8')).not.toContain('Spring is here');
    expect((await approve(ana, request!.id)).answer).toMatchObject({ ok: true });
    expect(studio!.project.read(HOME)).toContain('Spring is here');
  });
});
