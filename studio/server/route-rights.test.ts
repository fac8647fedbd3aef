// Every route of the console's API and of the studio's API declares its right where it is added
// (`config: { right }`, back-office/front-door/access.ts), so a new route without one fails here
// rather than falling back on whatever the app does with an undeclared route. Only signing in (and
// reading whether one is signed in) is open to anyone, and only the console API's not-found answer
// and the apps' own files are public.
import { afterEach, describe, expect, it } from 'vitest';
import { startConsoleServer, type ConsoleTestServer } from '../../server/testing/console-client.ts';
import type { DeclaredRoute } from '../../back-office/front-door/access.ts';
import { openLocalStudio } from '../testing/local-studio.ts';
import { buildStudioApp } from './app.ts';
import { createStudioProject, type StudioProject } from '../testing/studio-project.ts';

let console: ConsoleTestServer | undefined;
let studio: Awaited<ReturnType<typeof openLocalStudio>>['app'] | undefined;
let project: StudioProject | undefined;

afterEach(async () => {
  await console?.close();
  await studio?.close();
  project?.remove();
  console = undefined;
  studio = undefined;
  project = undefined;
});

const named = (routes: readonly Pick<DeclaredRoute, 'method' | 'url'>[]) => routes.map((route) => `${route.method} ${route.url}`);

describe('every back-office API route declares its right', () => {
  it('in the console', async () => {
    console = await startConsoleServer();
    const api = console.app.consoleRoutes.filter((route) => route.url.startsWith('/console/api'));
    expect(api.length).toBeGreaterThan(20);
    expect(named(api.filter((route) => route.access === undefined))).toEqual([]);
    expect(new Set(named(api.filter((route) => route.access === 'anyone')))).toEqual(
      new Set(['GET /console/api/session', 'HEAD /console/api/session', 'POST /console/api/session']),
    );
    for (const route of api.filter((each) => each.access === 'public'))
      expect(['/console/api', '/console/api/', '/console/api/*']).toContain(route.url);
  });

  it('in the studio, where publishing and reviewing are rights of their routes, not checks in their handlers', async () => {
    project = createStudioProject();
    studio = (await openLocalStudio(project)).app;
    const api = studio.studioRoutes.filter((route) => route.url.startsWith('/api/'));
    expect(api.length).toBeGreaterThan(30);
    expect(named(api.filter((route) => route.right === undefined))).toEqual([]);
    expect(named(api.filter((route) => route.right === 'public'))).toEqual([]);
    expect(new Set(named(api.filter((route) => route.right === 'anyone')))).toEqual(
      new Set(['GET /api/session', 'HEAD /api/session', 'POST /api/session']),
    );
    const byRight = (right: string) => new Set(named(api.filter((route) => route.right === right)));
    expect(byRight('studio:publish')).toEqual(
      new Set(['POST /api/publish', 'POST /api/undo', 'POST /api/history/restore', 'POST /api/schedule']),
    );
    expect(byRight('studio:review')).toEqual(new Set(['POST /api/reviews/send-back', 'POST /api/reviews/approve']));
  });

  it('and a route added without one is found', async () => {
    project = createStudioProject();
    const app = buildStudioApp({ root: project.root, appDir: project.root, distDir: project.distDir, logLevel: 'silent' });
    studio = app;
    // Added as the studio adds its routes: in a plugin, after the access check is installed.
    app.register(async (scope) => {
      scope.get('/api/undeclared', async () => ({}));
    });
    await app.ready();
    expect(named(app.studioRoutes.filter((route) => route.url.startsWith('/api/') && route.right === undefined))).toEqual([
      'GET /api/undeclared',
      'HEAD /api/undeclared',
    ]);
  });
});
