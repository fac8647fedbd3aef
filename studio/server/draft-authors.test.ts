// Whose changes a draft holds survives every way a text can move to another draft: a copy of a page,
// and "Keep my version" after the draft it came from was discarded. Under required review an admin's
// own publish then leaves such a draft out (held, naming the editor) instead of taking it live.
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
