// The studio and the lead console on one lead store, as on a server: each app accepts only the
// sessions it started itself (a studio session id sent as the console's cookie, or the other way
// round, is signed out), while ending an account's sessions (sign out everywhere, a new password,
// removal) ends them in both apps at once, and a role change reaches both. They share the sign-in
// limits too, kept in the store: guesses made in one app count in the other. On every store engine.
import { afterEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../../../back-office/accounts/passwords.ts';
import { HOST, PASSWORD, startConsoleServer, type ConsoleTestServer } from '../../../server/testing/console-client.ts';
import { announceSkip, STORE_HARNESSES, type StoreDatabase } from '../../../server/testing/store-harness.ts';
import { createStudioProject, fakeStudioAppDir, quickBuild, type StudioProject } from '../../testing/studio-project.ts';
import { buildStudioApp } from '../app.ts';

const ANA = 'ana@example.com';

let database: StoreDatabase | undefined;
let consoleServer: ConsoleTestServer | undefined;
let studio: ReturnType<typeof buildStudioApp> | undefined;
let project: StudioProject | undefined;
afterEach(async () => {
  await studio?.close();
  await consoleServer?.close();
  await database?.remove();
  project?.remove();
  [database, consoleServer, studio, project] = [undefined, undefined, undefined, undefined];
});

for (const harness of STORE_HARNESSES) {
  announceSkip(harness);

  describe.skipIf(harness.skipReason !== undefined)(`the console and the studio on one store: ${harness.kind}`, () => {
    async function start() {
      database = await harness.createDatabase();
      const console = await startConsoleServer({ database });
      consoleServer = console;
      await console.addAccount(ANA, 'admin');
      project = createStudioProject();
      const app = buildStudioApp({
        root: project.root,
        appDir: fakeStudioAppDir(project.root),
        distDir: project.distDir,
        accounts: await database.open(),
        logLevel: 'silent',
        build: quickBuild,
      });
      studio = app;

      const studioSignIn = async (password = PASSWORD) => {
        const answer = await app.inject({ method: 'POST', url: '/api/session', payload: { email: ANA, password } });
        expect(answer.statusCode).toBe(200);
        const id = String(answer.headers['set-cookie'])
          .split(';')[0]!
          .replace(/^studio_session=/, '');
        return { id, csrf: (answer.json() as { csrfToken: string }).csrfToken };
      };
      const consoleSignIn = async () => (await console.signedIn(ANA)).cookie.replace(/^console_session=/, '');
      /** The studio's answer to a request carrying `id` as its session cookie. */
      const inStudio = async (id: string) =>
        (await app.inject({ url: '/api/entries', headers: { cookie: `studio_session=${id}` } })).statusCode;
      /** The console's answer to a request carrying `id` as its session cookie. */
      const inConsole = async (id: string) =>
        (await console.app.inject({ url: '/console/api/session', headers: { host: HOST, cookie: `console_session=${id}` } })).statusCode;
      return { console, studio: app, studioSignIn, consoleSignIn, inStudio, inConsole };
    }

    it('counts wrong passwords in the console against sign-in to the studio, and the other way round', async () => {
      const { console, studio: app } = await start();
      const studioAttempt = (password: string) => app.inject({ method: 'POST', url: '/api/session', payload: { email: ANA, password } });
      for (let i = 0; i < 5; i++) expect((await console.signIn(ANA, `wrong password ${i}`)).statusCode).toBe(401);
      const refused = await studioAttempt(PASSWORD);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(800);

      // The other way round, from a clean slate.
      await database!.execute('DELETE FROM sign_in_attempts');
      for (let i = 0; i < 5; i++) expect((await studioAttempt(`wrong password ${i}`)).statusCode).toBe(401);
      const refusedInConsole = await console.signIn(ANA);
      expect(refusedInConsole.statusCode).toBe(429);
      expect(Number(refusedInConsole.headers['retry-after'])).toBeGreaterThan(800);
    });

    it('a studio session is refused by the console, and a console session by the studio', async () => {
      const { studio: app, studioSignIn, consoleSignIn, inStudio, inConsole } = await start();
      const fromStudio = (await studioSignIn()).id;
      const fromConsole = await consoleSignIn();
      expect(await inStudio(fromStudio)).toBe(200);
      expect(await inConsole(fromConsole)).toBe(200);

      expect(await inConsole(fromStudio)).toBe(401);
      expect(await inStudio(fromConsole)).toBe(401);
      const studioAnswer = await app.inject({ url: '/api/session', headers: { cookie: `studio_session=${fromConsole}` } });
      expect(studioAnswer.json()).toMatchObject({ signInRequired: true, user: null });

      // Refused elsewhere, each is still signed in where it was started.
      expect(await inStudio(fromStudio)).toBe(200);
      expect(await inConsole(fromConsole)).toBe(200);
    });

    it("ending an account's sessions ends them in both apps, and so does a new role, for good", async () => {
      const { console, studio: app, studioSignIn, consoleSignIn, inStudio, inConsole } = await start();

      // The studio's "sign out everywhere".
      let fromStudio = await studioSignIn();
      let fromConsole = await consoleSignIn();
      const ended = await app.inject({
        method: 'DELETE',
        url: '/api/session?everywhere=true',
        headers: { cookie: `studio_session=${fromStudio.id}`, 'x-csrf-token': fromStudio.csrf },
      });
      expect(ended.json()).toEqual({ user: null, ended: 2 });
      expect(await inStudio(fromStudio.id)).toBe(401);
      expect(await inConsole(fromConsole)).toBe(401);

      // A new password.
      fromStudio = await studioSignIn();
      fromConsole = await consoleSignIn();
      const newPassword = 'a brand new passphrase';
      await console.store.setAccountPassword(ANA, await hashPassword(newPassword), Date.now());
      expect(await inStudio(fromStudio.id)).toBe(401);
      expect(await inConsole(fromConsole)).toBe(401);
      await console.store.setAccountPassword(ANA, await hashPassword(PASSWORD), Date.now());

      // A new role: out of both at once, and promoted back, neither old session returns.
      fromStudio = await studioSignIn();
      fromConsole = await consoleSignIn();
      await console.store.setAccountRole(ANA, 'viewer', Date.now());
      expect(await inStudio(fromStudio.id)).toBe(401);
      expect(await inConsole(fromConsole)).toBe(401);
      await console.store.setAccountRole(ANA, 'admin', Date.now());
      expect(await inStudio(fromStudio.id)).toBe(401);
      expect(await inConsole(fromConsole)).toBe(401);
      const consoleAnswer = await console.app.inject({
        url: '/console/api/session',
        headers: { host: HOST, cookie: `console_session=${await consoleSignIn()}` },
      });
      expect(consoleAnswer.json()).toMatchObject({ email: ANA, role: 'admin' });

      // Removal.
      fromStudio = await studioSignIn();
      fromConsole = await consoleSignIn();
      await console.store.removeAccount(ANA);
      expect(await inStudio(fromStudio.id)).toBe(401);
      expect(await inConsole(fromConsole)).toBe(401);
    });
  });
}
