// /api/session with a body or an address of the wrong shape: a plain 400 naming the field, before
// anything runs. A malformed sign-in is not an attempt (nothing was checked), and a malformed sign-out
// ends no session.
import { afterEach, describe, expect, it } from 'vitest';
import { createStudioProject, fakeStudioAppDir, type StudioProject } from '../../testing/studio-project.ts';
import { buildStudioApp } from '../app.ts';
import { createTeamStore, TEAM_PASSWORD as PASSWORD, type TeamStore } from '../../testing/team-accounts.ts';

let project: StudioProject;
let team: TeamStore;
let app: ReturnType<typeof buildStudioApp>;
afterEach(async () => {
  await app?.close();
  await team?.remove();
  project?.remove();
});

async function setup() {
  project = createStudioProject();
  team = await createTeamStore({ 'maria@example.com': 'editor' });
  app = buildStudioApp({
    root: project.root,
    appDir: fakeStudioAppDir(project.root),
    distDir: project.distDir,
    accounts: team.store,
    logLevel: 'silent',
  });
}

const signIn = (payload: unknown) =>
  app.inject({ method: 'POST', url: '/api/session', payload: JSON.stringify(payload), headers: { 'content-type': 'application/json' } });

describe('POST /api/session with a body of the wrong shape', () => {
  it.each([
    [{ email: 'maria@example.com' }, '"password" is missing from the request.'],
    [{ name: 'maria@example.com', password: PASSWORD }, '"email" is missing from the request.'],
    [{ email: ['maria@example.com'], password: PASSWORD }, '"email" in the request must be text.'],
    [{ email: 'maria@example.com', password: 12345678901234 }, '"password" in the request must be text.'],
    ['maria@example.com', 'The request must carry a JSON object.'],
  ])('%j is refused with 400, saying why', async (body, message) => {
    await setup();
    const answer = await signIn(body);
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ message });
    expect(answer.headers['set-cookie']).toBeUndefined();
  });

  it('is not counted as an attempt: the right password still signs in after many', async () => {
    await setup();
    for (let i = 0; i < 10; i++) expect((await signIn({ email: 'maria@example.com', password: i })).statusCode).toBe(400);
    expect((await signIn({ email: 'maria@example.com', password: PASSWORD })).statusCode).toBe(200);
  });
});

describe('DELETE /api/session with an address of the wrong shape', () => {
  it('refuses ?everywhere=maybe with 400, and the session stays open', async () => {
    await setup();
    const signedIn = await signIn({ email: 'maria@example.com', password: PASSWORD });
    const cookie = String(signedIn.headers['set-cookie']).split(';')[0]!;
    const headers = { cookie, 'x-csrf-token': (signedIn.json() as { csrfToken: string }).csrfToken };
    const answer = await app.inject({ method: 'DELETE', url: '/api/session?everywhere=maybe', headers });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ message: '"everywhere" in the address must be "true" or "false".' });
    expect(answer.headers['set-cookie']).toBeUndefined();
    expect((await app.inject({ url: '/api/entries', headers: { cookie } })).statusCode).toBe(200);
  });
});
