// The studio's log: one line per request, none at info for its own files (the app, its scripts, the
// site's pictures).
import { afterEach, expect, it } from 'vitest';
import { createStudioProject, fakeStudioAppDir, quickBuild, type StudioProject } from '../testing/studio-project.ts';
import { buildStudioApp } from './app.ts';

type Entry = { level: number; msg: string; method?: string; url?: string; statusCode?: number };

let project: StudioProject | undefined;
let app: ReturnType<typeof buildStudioApp> | undefined;
afterEach(async () => {
  await app?.close();
  project?.remove();
});

it('has one line for an API request and none at info for the app’s own files', async () => {
  project = createStudioProject({ git: false });
  const lines: Entry[] = [];
  app = buildStudioApp({
    root: project.root,
    appDir: fakeStudioAppDir(project.root),
    distDir: project.distDir,
    localEditor: 'local',
    logLevel: 'info',
    logStream: { write: (line) => void lines.push(JSON.parse(line) as Entry) },
    build: quickBuild,
  });
  await app.ready();
  lines.length = 0;
  expect((await app.inject({ url: '/' })).statusCode).toBe(200);
  expect((await app.inject({ url: '/assets/not-built.js' })).statusCode).toBe(404);
  expect(lines).toEqual([]);
  expect((await app.inject({ url: '/api/session' })).statusCode).toBe(200);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatchObject({ level: 30, msg: 'request completed', method: 'GET', url: '/api/session', statusCode: 200 });
});
