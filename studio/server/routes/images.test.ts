// /api/images with an address of the wrong shape: a plain 400 naming the field, before the picture
// is looked at, and nothing stored.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createStudioProject, fakeStudioAppDir, type StudioProject } from '../../testing/studio-project.ts';
import { buildStudioApp } from '../app.ts';

let project: StudioProject;
let app: ReturnType<typeof buildStudioApp>;
afterEach(async () => {
  await app?.close();
  project?.remove();
});

// The smallest PNG: one transparent pixel.
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

describe('POST /api/images with an address of the wrong shape', () => {
  it('refuses a name given twice with 400, and stores nothing', async () => {
    project = createStudioProject({ copyPublic: true });
    app = buildStudioApp({ root: project.root, appDir: fakeStudioAppDir(project.root), distDir: project.distDir, logLevel: 'silent' });
    const session = await app.inject({ url: '/api/session' });
    const headers = {
      cookie: String(session.headers['set-cookie']).split(';')[0]!,
      'x-csrf-token': (session.json() as { csrfToken: string }).csrfToken,
      'content-type': 'image/png',
    };
    const uploads = path.join(project.root, 'public', 'images', 'uploads');
    const stored = () => (existsSync(uploads) ? readdirSync(uploads) : []);
    const before = stored();

    const answer = await app.inject({ method: 'POST', url: '/api/images?name=a.png&name=b.png', headers, payload: PIXEL });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ message: '"name" must be given once in the address.' });
    expect(stored()).toEqual(before);

    // The same picture with one name is stored.
    const accepted = await app.inject({ method: 'POST', url: '/api/images?name=a.png', headers, payload: PIXEL });
    expect(accepted.statusCode).toBe(200);
    expect(stored()).toHaveLength(before.length + 1);
  });
});
