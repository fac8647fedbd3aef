// The studio app on a project copy, for one person on this computer (no accounts), with the headers
// of its one session: the cookie and the CSRF token every change carries. Builds are the quick
// stand-in, so a publish takes milliseconds.
import { buildStudioApp, type StudioOptions } from '../server/app.ts';
import { fakeStudioAppDir, quickBuild, type StudioProject } from './studio-project.ts';

export async function openLocalStudio(project: StudioProject, options: Partial<StudioOptions> = {}) {
  const app = buildStudioApp({
    root: project.root,
    appDir: fakeStudioAppDir(project.root),
    distDir: project.distDir,
    localEditor: 'local',
    logLevel: 'silent',
    build: quickBuild,
    ...options,
  });
  const session = await app.inject({ url: '/api/session' });
  const cookie = String(session.headers['set-cookie']).split(';')[0]!;
  const { csrfToken } = session.json() as { csrfToken: string };
  return { app, headers: { cookie, 'x-csrf-token': csrfToken } };
}
