// What one person of a team can do to another's work. Whose changes a draft holds survives every way
// a text can move to another draft (a copy of a page, "Keep my version" after the draft it came from
// was discarded), so under required review an admin's own publish leaves it out (held, naming the
// editor); a draft is discarded only as it was seen, and under review only by its authors or an
// admin; a review request is never taken over by someone else; a publish run is its starter's.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN, EDITOR, HOME, startReviewStudio, type ReviewStudio } from '../testing/review-studio.ts';

const SITE = 'content/site.yaml';

let studio: ReviewStudio | undefined;
afterEach(async () => {
  await studio?.close();
  studio = undefined;
});

type Opened = { data: Record<string, unknown> & { company: Record<string, unknown> }; revision: number; diskVersion: string };

describe('an editor’s unreviewed text cannot go live credited to an admin alone', () => {
  it('keeps the editor’s name on a copy of their draft, so the admin’s publish holds the copy back', async () => {
    studio = await startReviewStudio();
    const maria = await studio.signIn(EDITOR);
    const ana = await studio.signIn(ADMIN);
    await studio.editHome(maria, 'Unreviewed words by the editor');

    const copied = await studio.post(ana, '/api/file', { kind: 'page', name: 'home-twin', copyFrom: HOME });
    expect(copied.statusCode, copied.body).toBe(200);
    const copy = 'content/pages/home-twin.yaml';

    const changes = await studio.shown(ana);
    expect(changes.files.map((file) => file.path)).not.toContain(copy);
    expect(changes.held).toContainEqual(expect.objectContaining({ path: copy, changedBy: [EDITOR, ADMIN] }));
  });

  it('keeps the editor’s name on "Keep my version" after their draft was discarded, and refuses a version of a draft it has no record of', async () => {
    studio = await startReviewStudio();
    const maria = await studio.signIn(EDITOR);
    const ana = await studio.signIn(ADMIN);
    const open = async (person: typeof ana) => (await studio!.get(person, `/api/file?path=${SITE}`)).json() as Opened;

    const before = await open(maria);
    const tagged = { ...before.data, company: { ...before.data.company, tagline: 'Unreviewed tagline by the editor' } };
    const saved = await studio.app.inject({
      method: 'PUT',
      url: '/api/file',
      headers: { ...maria.headers, 'x-csrf-token': maria.csrf },
      payload: { path: SITE, data: tagged, revision: before.revision, diskVersion: before.diskVersion },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const seenByAdmin = await open(ana);
    expect((await studio.post(maria, '/api/discard', { path: SITE, revision: seenByAdmin.revision })).statusCode).toBe(200);

    const data = { ...seenByAdmin.data, company: { ...seenByAdmin.data.company, shortName: 'Premier AI!' } };
    const kept = await studio.post(ana, '/api/keep-both', { path: SITE, data, revision: seenByAdmin.revision });
    expect(kept.statusCode, kept.body).toBe(200);
    const changes = await studio.shown(ana);
    expect(changes.files.map((file) => file.path)).not.toContain(SITE);
    expect(changes.held).toContainEqual(expect.objectContaining({ path: SITE, changedBy: [EDITOR, ADMIN] }));

    // A revision the studio never had: nothing is known of whose text it holds, so it is refused.
    const unknown = await studio.post(maria, '/api/keep-both', { path: HOME, data: {}, revision: 7 });
    expect(unknown.statusCode).toBe(409);
    expect(unknown.json()).toMatchObject({ message: expect.stringMatching(/was discarded or published since you opened it/) });
  });
});

describe('discarding a draft', () => {
  it('refuses a discard made without seeing the latest save, and lets an editor drop only their own changes under review', async () => {
    studio = await startReviewStudio();
    const maria = await studio.signIn(EDITOR);
    const ana = await studio.signIn(ADMIN);
    await studio.editHome(ana, 'The admin’s heading');
    const seen = ((await studio.get(maria, `/api/file?path=${HOME}`)).json() as { revision: number }).revision;

    // The editor may not drop the admin's change: it stays, and the message says whose it is.
    const refused = await studio.post(maria, '/api/discard', { path: HOME, revision: seen });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      message: `These changes hold work by ${ADMIN}. Only they or an admin can discard it; ask them, or ask an admin.`,
    });
    expect((await studio.shown(ana)).files.map((file) => file.path)).toEqual([HOME]);

    // A save the admin made since the page was opened is not dropped unseen.
    await studio.editHome(ana, 'The admin’s later heading');
    const stale = await studio.post(ana, '/api/discard', { path: HOME, revision: seen });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({
      message: `"Home" was saved by ${ADMIN} since you opened it. Reload it to see that change before discarding.`,
    });
    expect((await studio.shown(ana)).files).toHaveLength(1);

    expect((await studio.discard(ana, HOME)).statusCode).toBe(200);
    expect((await studio.shown(ana)).files).toEqual([]);
    // Nor may the editor delete a page the admin made that exists only as a draft.
    expect((await studio.post(ana, '/api/file', { kind: 'page', name: 'spring-offer' })).statusCode).toBe(200);
    const offer = 'content/pages/spring-offer.yaml';
    const deleting = await studio.app.inject({
      method: 'DELETE',
      url: `/api/file?path=${offer}&revision=1`,
      headers: { ...maria.headers, 'x-csrf-token': maria.csrf },
    });
    expect(deleting.statusCode).toBe(403);
    expect((await studio.shown(ana)).files.map((file) => file.path)).toContain(offer);
    // Who dropped whose draft is kept.
    const record = JSON.parse(readFileSync(path.join(studio.project.root, '.studio', 'discarded-drafts.json'), 'utf8')) as unknown[];
    expect(record.at(-1)).toMatchObject({ path: HOME, changedBy: [ADMIN], discardedBy: ADMIN });
  });
});

describe('asking for review', () => {
  it('never lets another person take over a sent-back request: theirs stays with its comment, and a new one names whose changes it holds', async () => {
    studio = await startReviewStudio();
    const maria = await studio.signIn(EDITOR);
    const ana = await studio.signIn(ADMIN);
    await studio.editHome(maria, 'A claim the reviewer refused');
    const asked = (await studio.post(maria, '/api/reviews', { note: 'New headline' })).json() as { request: { id: string } };
    expect(
      (await studio.post(ana, '/api/reviews/send-back', { id: asked.request.id, comment: 'No: do not publish this claim' })).statusCode,
    ).toBe(200);

    const nothingOwn = await studio.post(ana, '/api/reviews', { note: 'Small typo fix' });
    expect(nothingOwn.statusCode).toBe(409);
    expect(nothingOwn.json()).toEqual({
      message: 'There is nothing of yours to review: the unpublished changes are other people’s, and they ask for their own review.',
    });

    await studio.editHome(ana, 'A claim the reviewer refused, retyped');
    const theirs = await studio.post(ana, '/api/reviews', { note: 'Small typo fix' });
    expect(theirs.statusCode, theirs.body).toBe(200);
    expect(theirs.json()).toMatchObject({ request: { requestedBy: ADMIN, files: [{ path: HOME, changedBy: [EDITOR, ADMIN] }] } });
    expect(studio.stored().find((request) => request.id === asked.request.id)).toMatchObject({
      status: 'sent-back',
      comment: 'No: do not publish this claim',
    });
  });
});

describe('a publish run is its starter’s', () => {
  it('answers another person’s run as unknown, and lists it to them only as under way', async () => {
    studio = await startReviewStudio();
    const maria = await studio.signIn(EDITOR);
    const ana = await studio.signIn(ADMIN);
    await studio.editHome(ana, 'The admin’s heading');
    const started = await studio.post(ana, '/api/publish', {
      files: (await studio.shown(ana)).files.map(({ path: file, fingerprint }) => ({ path: file, fingerprint })),
    });
    expect(started.statusCode, started.body).toBe(202);
    const { run } = started.json() as { run: { id: string } };

    const status = (await studio.get(maria, '/api/publish-status')).json() as { running: unknown[]; elsewhere: unknown[] };
    expect(JSON.stringify(status)).not.toContain(run.id);
    expect((await studio.get(maria, `/api/publish-runs/${run.id}`)).statusCode).toBe(404);
    expect((await studio.get(ana, `/api/publish-runs/${run.id}`)).statusCode).toBe(200);
  });
});
