import { existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Changes, PublishRunView } from '../api-types.ts';
import { createStudioProject, fakeStudioAppDir, quickBuild, type StudioProject } from '../testing/studio-project.ts';
import { buildStudioApp } from './app.ts';
import { readSchemaModel } from '../../content-model/load/schema-files.ts';
import { blockTypeOf, buildFormModel } from '../app/fields/form-model.ts';
import { createPublisher } from './publish.ts';
import { createWorkspace } from './workspace.ts';

let project: StudioProject;
afterEach(() => project?.remove());

/** A stand-in for `npm run build`: writes a routes.json naming the home headline it saw, so tests can tell builds apart. */
function fakeBuild(root: string, options: { fail?: string; delayMs?: number; log?: string[] } = {}) {
  return async (outDir: string) => {
    options.log?.push(`start ${path.basename(outDir)}`);
    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    if (options.fail) throw Object.assign(new Error('build failed'), { stderr: options.fail });
    mkdirSync(outDir, { recursive: true });
    const home = readFileSync(path.join(root, 'content/pages/home.yaml'), 'utf8');
    writeFileSync(path.join(outDir, 'routes.json'), JSON.stringify({ headline: /^ {4}heading: (.*)/m.exec(home)?.[1] ?? '' }));
    options.log?.push(`end ${path.basename(outDir)}`);
  };
}

function setup(options: Parameters<typeof fakeBuild>[1] = {}) {
  project = createStudioProject({ git: true });
  const workspace = createWorkspace({ root: project.root });
  const publisher = createPublisher({ root: project.root, workspace, distDir: project.distDir, build: fakeBuild(project.root, options) });
  return { workspace, publisher };
}

function editHome(workspace: ReturnType<typeof createWorkspace>, from: string, to: string, user = 'maria') {
  const opened = workspace.open('content/pages/home.yaml');
  const text = workspace.currentText(opened)!;
  expect(text).toContain(from);
  return workspace.saveDraft(
    opened.file.path,
    text.replace(from, to),
    { revision: opened.draft?.revision ?? 0, diskVersion: opened.disk?.version ?? null },
    user,
  );
}

const liveBuild = () => JSON.parse(readFileSync(path.join(project.distDir, 'routes.json'), 'utf8')) as Record<string, unknown>;

describe('publish', () => {
  it('writes the drafts, builds, points dist at the new build and commits the files naming the page and the editor', async () => {
    const { workspace, publisher } = setup();
    const before = project.read('content/pages/home.yaml');
    const headline = /^ {4}heading: (.*)/m.exec(before)![1]!;
    editHome(workspace, `heading: ${headline}`, 'heading: Spring is here');

    const result = await publisher.publish('maria');

    expect(result).toMatchObject({
      ok: true,
      record: { action: 'publish', user: 'maria', files: [{ path: 'content/pages/home.yaml', change: 'changed' }] },
    });
    expect(project.read('content/pages/home.yaml')).toBe(before.replace(`heading: ${headline}`, 'heading: Spring is here'));
    expect(lstatSync(project.distDir).isSymbolicLink()).toBe(true);
    expect(liveBuild()).toEqual({ headline: 'Spring is here' });
    expect(workspace.listDrafts()).toEqual([]);
    const log = project.git('log', '-1', '--format=%an|%s%n%b');
    expect(log).toContain('maria|Publish ');
    expect(log).toContain('Published in the content studio by maria.');
    expect(log).toContain('changed: content/pages/home.yaml');
    expect(project.git('show', '--stat', '--format=', 'HEAD').trim()).toMatch(/^content\/pages\/home\.yaml \| 2 \+-/);
    // The build that was live before (the one `npm run build` wrote) is kept for undo.
    expect(publisher.canUndo()).toBe(true);
  });

  it('refuses content with a mistake and writes nothing', async () => {
    const { workspace, publisher } = setup();
    const before = project.read('content/pages/home.yaml');
    editHome(workspace, 'path: /', 'path: /\nnonsense: true');
    const result = await publisher.publish('maria');
    expect(result).toMatchObject({ ok: false, reason: 'invalid' });
    expect(result.ok === false && result.issues?.[0]?.message).toContain('"nonsense" is not something this part of the form has');
    expect(project.read('content/pages/home.yaml')).toBe(before);
    expect(lstatSync(project.distDir).isSymbolicLink()).toBe(false);
    expect(workspace.listDrafts()).toHaveLength(1);
  });

  it('names the place of a mistake that stops a publish as the form does, and the page as the studio does', async () => {
    const { workspace, publisher } = setup();
    const home = project.read('content/pages/home.yaml');
    const heading = /^ {4}heading: .*$/m.exec(home)![0];
    editHome(workspace, heading, '    heading: ""');
    const result = await publisher.publish('maria');
    const issue = result.ok === false ? result.issues?.[0] : undefined;
    const hero = blockTypeOf(buildFormModel(readSchemaModel(project.root).files), 'hero')!;
    const headingLabel = hero.fields.find((field) => field.key === 'heading')!.label;
    const homeName = workspace.listEntries().find((entry) => entry.path === 'content/pages/home.yaml')!.name;
    expect(issue).toMatchObject({ place: `Block 1, ${hero.title} › ${headingLabel}`, fileName: homeName });
    expect(issue?.message).toBe('A heading is needed here: write one.');
    expect(lstatSync(project.distDir).isSymbolicLink()).toBe(false);
    expect(workspace.listDrafts()).toHaveLength(1);
  });

  it('refuses brand colours the site would draw unreadable text with, naming the colour', async () => {
    const { workspace, publisher } = setup();
    const opened = workspace.open('content/site.yaml');
    const before = workspace.currentText(opened)!;
    const text = before.replace('primary: "#4F46E5"', 'primary: "#8B9CF7"');
    workspace.saveDraft(opened.file.path, text, { revision: 0, diskVersion: opened.disk!.version }, 'maria');
    const result = await publisher.publish('maria');
    expect(result).toMatchObject({ ok: false, reason: 'invalid' });
    expect(result.ok === false && result.issues?.[0]).toMatchObject({
      segments: ['brand', 'primary'],
      message: expect.stringContaining('The primary colour (#8B9CF7) is too faint for white text on buttons') as unknown,
    });
    expect(project.read('content/site.yaml')).toBe(before);
  });

  it('leaves the live site as it was when the build fails, and says why', async () => {
    const { workspace, publisher } = setup({ fail: 'Content check failed (1 problem): the picture is missing.' });
    const before = project.read('content/pages/home.yaml');
    const headline = /^ {4}heading: (.*)/m.exec(before)![1]!;
    editHome(workspace, `heading: ${headline}`, 'heading: Never live');
    const result = await publisher.publish('maria');
    expect(result).toMatchObject({ ok: false, reason: 'build-failed' });
    expect(result.ok === false && result.message).toContain('the picture is missing');
    expect(project.read('content/pages/home.yaml')).toBe(before);
    expect(liveBuild()).toEqual({ first: true });
    expect(workspace.listDrafts()).toHaveLength(1);
  });

  it('says why a build failed without showing where the project lives on the server', async () => {
    project = createStudioProject({ git: true });
    const workspace = createWorkspace({ root: project.root });
    const stderr = [
      `Error: ENOENT: no such file or directory, open '${project.root}/public/images/uploads/missing.png'`,
      `    at readFileSync (node:fs:441:20)`,
      `    at file://${project.root}/scripts/build.ts:12:3`,
      `The build stopped; nothing in ${project.root}/dist was changed.`,
    ].join('\n');
    const publisher = createPublisher({
      root: project.root,
      workspace,
      distDir: project.distDir,
      build: async () => {
        throw Object.assign(new Error('Command failed'), { stderr });
      },
    });
    editHome(workspace, 'heading: ', 'heading: Never live ');
    const result = await publisher.publish('maria');
    expect(result.ok).toBe(false);
    const message = result.ok ? '' : result.message;
    expect(message).not.toContain(project.root);
    expect(message).not.toMatch(/^\s*at /m);
    expect(message).toContain("open 'public/images/uploads/missing.png'");
    expect(message).toContain('nothing in dist was changed');
  });

  it('keeps page names out of the commit message trailers (one line each in the subject)', async () => {
    const { workspace, publisher } = setup();
    // A page no link names is named by its first heading, which anyone editing it writes.
    const opened = workspace.open('content/pages/thankyou.yaml');
    const text = workspace
      .currentText(opened)!
      .replace(/^ {4}heading: .*$/m, '    heading: "About\\n\\nSigned-off-by: M <m@evil.example>"');
    workspace.saveDraft(opened.file.path, text, { revision: 0, diskVersion: opened.disk!.version }, 'maria');
    const result = await publisher.publish('maria');
    expect(result).toMatchObject({ ok: true });
    const message = project.git('log', '-1', '--format=%B');
    expect(message.split('\n')[0]).toBe('Publish About Signed-off-by: M <m@evil.example>');
    expect(project.git('log', '-1', '--format=%(trailers)').trim()).toBe('');
  });

  it('refuses a draft whose file changed on disk after it was opened', async () => {
    const { workspace, publisher } = setup();
    const before = project.read('content/pages/home.yaml');
    const headline = /^ {4}heading: (.*)/m.exec(before)![1]!;
    editHome(workspace, `heading: ${headline}`, 'heading: Mine');
    project.write('content/pages/home.yaml', `${before}# pulled from git\n`);
    const result = await publisher.publish('maria');
    expect(result).toMatchObject({ ok: false, reason: 'conflict' });
    expect(project.read('content/pages/home.yaml')).toBe(`${before}# pulled from git\n`);
  });

  it('queues concurrent publishes: one build at a time, never interleaved', async () => {
    const log: string[] = [];
    const { workspace, publisher } = setup({ delayMs: 50, log });
    const headline = /^ {4}heading: (.*)/m.exec(project.read('content/pages/home.yaml'))![1]!;
    editHome(workspace, `heading: ${headline}`, 'heading: First');
    const first = publisher.publish('maria');
    const second = publisher.publish('li');
    expect((await first).ok).toBe(true);
    expect(await second).toMatchObject({ ok: false, reason: 'nothing' });
    expect(log.map((line) => line.split(' ')[0])).toEqual(['start', 'end']);
  });

  it('undoes the last publish: the files, the live build and a commit saying so', async () => {
    const { workspace, publisher } = setup();
    const before = project.read('content/pages/home.yaml');
    const headline = /^ {4}heading: (.*)/m.exec(before)![1]!;
    editHome(workspace, `heading: ${headline}`, 'heading: Short-lived');
    await publisher.publish('maria');
    const published = realpathSync(project.distDir);

    const result = await publisher.undoLast('li');

    expect(result).toMatchObject({ ok: true, record: { action: 'undo', user: 'li' } });
    expect(project.read('content/pages/home.yaml')).toBe(before);
    expect(liveBuild()).toEqual({ first: true });
    expect(realpathSync(project.distDir)).not.toBe(published);
    expect(project.git('log', '-1', '--format=%an|%s')).toMatch(/^li\|Undo publish of /);
    expect(publisher.canUndo()).toBe(false);
    expect(publisher.history().map((record) => record.action)).toEqual(['undo', 'publish']);
  });

  it('publishes a new page and a deletion', async () => {
    const { workspace, publisher } = setup();
    workspace.createDraft(
      'content/pages/spring.yaml',
      'path: /spring\ntitle: Spring offer\ndescription: Our spring offer for businesses that want to try an AI voice agent this season.\nblocks:\n  - type: hero\n    heading: Spring\n',
      'maria',
    );
    const landing = workspace.open('content/pages/ai-transformation.yaml');
    workspace.saveDraft(landing.file.path, null, { revision: 0, diskVersion: landing.disk!.version }, 'maria');
    const result = await publisher.publish('maria');
    expect(result).toMatchObject({ ok: true });
    expect(result.ok && result.record.files.map((file) => file.change).sort()).toEqual(['added', 'deleted']);
    expect(existsSync(path.join(project.root, 'content/pages/spring.yaml'))).toBe(true);
    expect(existsSync(path.join(project.root, 'content/pages/ai-transformation.yaml'))).toBe(false);
    expect(project.git('status', '--porcelain')).toBe('');
  });

  it('publishes only the texts it is given, leaving the other drafts as they are', async () => {
    const { workspace, publisher } = setup();
    editHome(workspace, 'heading: ', 'heading: Draft ');
    const faq = 'content/pages/faqs.yaml';
    const faqText = project.read(faq);
    const result = await publisher.publish('li', {
      action: 'restore',
      changes: [{ path: faq, text: faqText.replace(/^title: .*/m, 'title: Questions people ask') }],
      subject: 'Restore Frequently asked questions',
    });
    expect(result).toMatchObject({ ok: true, record: { action: 'restore', files: [{ path: faq, change: 'changed' }] } });
    expect(project.read(faq)).toMatch(/^title: Questions people ask$/m);
    expect(workspace.listDrafts().map((draft) => draft.path)).toEqual(['content/pages/home.yaml']);
    expect(project.git('log', '-1', '--format=%s').trim()).toBe('Restore Frequently asked questions');
  });
});

describe('a publish whose build takes longer than a quiet connection may last', () => {
  it('is answered before the connection goes quiet, and its run then says it was published, once', async () => {
    project = createStudioProject({ git: true });
    const limits = { headersTimeoutMs: 800, requestTimeoutMs: 1_500, idleTimeoutMs: 300, keepAliveTimeoutMs: 200, checkIntervalMs: 100 };
    const app = buildStudioApp({
      root: project.root,
      appDir: fakeStudioAppDir(project.root),
      distDir: project.distDir,
      logLevel: 'silent',
      connectionLimits: limits,
      build: async (outDir) => {
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        await quickBuild(outDir);
      },
    });
    try {
      await app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = app.server.address() as { port: number };
      const base = `http://127.0.0.1:${port}`;
      const session = await fetch(`${base}/api/session`);
      const cookie = session.headers.get('set-cookie')!.split(';')[0]!;
      const { csrfToken } = (await session.json()) as { csrfToken: string };
      editHome(createWorkspace({ root: project.root }), 'Transform Your Business with Premier AI', 'Spring is here');
      const { files } = (await (await fetch(`${base}/api/changes`, { headers: { cookie } })).json()) as Changes;
      const commits = project.git('rev-list', '--count', 'HEAD').trim();

      const asked = performance.now();
      const published = await fetch(`${base}/api/publish`, {
        method: 'POST',
        headers: { cookie, 'x-csrf-token': csrfToken, 'content-type': 'application/json' },
        body: JSON.stringify({ files: files.map(({ path: file, fingerprint }) => ({ path: file, fingerprint })) }),
      });
      expect(published.status).toBe(202);
      // Answered while the build still runs (an answer after the idle limit would never have come).
      expect(performance.now() - asked).toBeLessThan(1_000);
      let { run } = (await published.json()) as { run: PublishRunView };
      while (!run.done) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        run = ((await (await fetch(`${base}/api/publish-runs/${run.id}`, { headers: { cookie } })).json()) as { run: PublishRunView }).run;
      }
      expect(run.answer).toMatchObject({ ok: true });
      expect(project.read('content/pages/home.yaml')).toContain('Spring is here');
      expect(Number(project.git('rev-list', '--count', 'HEAD').trim())).toBe(Number(commits) + 1);
    } finally {
      await app.close();
    }
  });
});
