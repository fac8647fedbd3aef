// /api/session with a body or an address of the wrong shape: a plain 400 naming the field, before
// anything runs. A malformed sign-in is not an attempt (nothing was checked), and a malformed sign-out
// ends no session.
import { afterEach, describe, expect, it } from 'vitest';
import { createStudioProject, fakeStudioAppDir, type StudioProject } from '../../testing/studio-project.ts';
import { buildStudioApp } from '../app.ts';
import { hashPassword } from '../../../server/accounts/passwords.ts';

let project: StudioProject;
let app: ReturnType<typeof buildStudioApp>;
afterEach(async () => {
  await app?.close();
  project?.remove();
});

const PASSWORD = 'correct horse battery staple';
const HASH = await hashPassword(PASSWORD);

function setup() {
  project = createStudioProject();
  app = buildStudioApp({
    root: project.root,
    appDir: fakeStudioAppDir(project.root),
    distDir: project.distDir,
    users: new Map([['maria', HASH]]),
    logLevel: 'silent',
  });
}

const signIn = (payload: unknown) =>
  app.inject({ method: 'POST', url: '/api/session', payload: JSON.stringify(payload), headers: { 'content-type': 'application/json' } });

describe('POST /api/session with a body of the wrong shape', () => {
  it.each([
    [{ name: 'maria' }, '"password" is missing from the request.'],
    [{ name: ['maria'], password: PASSWORD }, '"name" in the request must be text.'],
    [{ name: 'maria', password: 12345678901234 }, '"password" in the request must be text.'],
    ['maria', 'The request must carry a JSON object.'],
  ])('%j is refused with 400, saying why', async (body, message) => {
    setup();
    const answer = await signIn(body);
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ message });
    expect(answer.headers['set-cookie']).toBeUndefined();
  });

  it('is not counted as an attempt: the right password still signs in after many', async () => {
    setup();
    for (let i = 0; i < 10; i++) expect((await signIn({ name: 'maria', password: i })).statusCode).toBe(400);
    expect((await signIn({ name: 'maria', password: PASSWORD })).statusCode).toBe(200);
  });
});

describe('DELETE /api/session with an address of the wrong shape', () => {
  it('refuses ?everywhere=maybe with 400, and the session stays open', async () => {
    setup();
    const signedIn = await signIn({ name: 'maria', password: PASSWORD });
    const cookie = String(signedIn.headers['set-cookie']).split(';')[0]!;
    const headers = { cookie, 'x-csrf-token': (signedIn.json() as { csrfToken: string }).csrfToken };
    const answer = await app.inject({ method: 'DELETE', url: '/api/session?everywhere=maybe', headers });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ message: '"everywhere" in the address must be "true" or "false".' });
    expect(answer.headers['set-cookie']).toBeUndefined();
    expect((await app.inject({ url: '/api/entries', headers: { cookie } })).statusCode).toBe(200);
  });
});
