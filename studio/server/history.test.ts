// The history of every publish: read from git (the studio's commits and developers' alike), or
// without git from the publish log and the texts each publish kept; a file as a version left it; and
// a restore, which is a new publish that leaves every later version in the history and can be undone.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { openLocalStudio } from '../testing/local-studio.ts';
import { createStudioProject, quickBuild, type StudioProject } from '../testing/studio-project.ts';
import type { buildStudioApp } from './app.ts';
import { createHistory } from './history.ts';
import { createPublisher } from './publish.ts';
import { createWorkspace, type Workspace } from './workspace.ts';

let project: StudioProject;
let app: ReturnType<typeof buildStudioApp> | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
  project?.remove();
});

const HOME = 'content/pages/home.yaml';
const FAQS = 'content/pages/faqs.yaml';

function setup(options: { git?: boolean } = { git: true }) {
  project = createStudioProject(options);
  const workspace = createWorkspace({ root: project.root });
  const publisher = createPublisher({ root: project.root, workspace, distDir: project.distDir, build: quickBuild });
  const history = createHistory({ root: project.root, workspace, publisher });
  return { workspace, publisher, history };
}

const headingOf = (text: string) => /^ {4}heading: (.*)$/m.exec(text)![1]!;

/** Saves a draft of the home page with its first heading changed to `heading`, as `user`. */
function draftHome(workspace: Workspace, heading: string, user: string) {
  const opened = workspace.open(HOME);
  const text = workspace.currentText(opened)!;
  workspace.saveDraft(
    HOME,
    text.replace(/^ {4}heading: .*$/m, `    heading: ${heading}`),
    { revision: opened.draft?.revision ?? 0, diskVersion: opened.disk?.version ?? null },
    user,
  );
}

/** Three publishes of the home page, by three editors; returns the commits (oldest first). */
async function publishThree({ workspace, publisher }: ReturnType<typeof setup>) {
  const commits: (string | undefined)[] = [];
  for (const [heading, user] of [
    ['First spring', 'maria@example.com'],
    ['Second spring', 'li@example.com'],
    ['Third spring', 'ana@example.com'],
  ] as const) {
    draftHome(workspace, heading, user);
    const result = await publisher.publish(user);
    expect(result.ok).toBe(true);
    commits.push(result.ok ? result.record.commit : undefined);
  }
  return commits;
}

describe('the history from git', () => {
  it('lists three publishes newest first, with who, when, which pages and the commit', async () => {
    const studio = setup();
    const commits = await publishThree(studio);
    const { versions, head, nextOffset, git } = await studio.history.list();
    expect(git).toBe(true);
    expect(versions.slice(0, 3).map((version) => [version.action, version.user, version.commit])).toEqual([
      ['publish', 'ana@example.com', commits[2]],
      ['publish', 'li@example.com', commits[1]],
      ['publish', 'maria@example.com', commits[0]],
    ]);
    // The page is named as the navigator names it (Entry.name), not by its search-engine title.
    const homeName = studio.workspace.listEntries().find((entry) => entry.path === HOME)!.name;
    expect(versions[0]!.files).toEqual([{ path: HOME, name: homeName, change: 'changed' }]);
    expect(Date.parse(versions[0]!.at)).toBeGreaterThan(Date.now() - 60_000);
    // The commit that shipped the content is a developer's, by its author.
    expect(versions.at(-1)).toMatchObject({ action: 'commit', user: 'Developer', subject: 'Content as shipped' });
    expect(head).toBe(commits[2]);
    expect(nextOffset).toBeNull();
  });

  it('lists a developer’s commit that changed content, with its author, and names undos and restores', async () => {
    const studio = setup();
    await publishThree(studio);
    project.write(FAQS, project.read(FAQS).replace(/^title: .*$/m, 'title: Questions, answered'));
    project.git('-c', 'user.name=Dev Eloper', '-c', 'user.email=dev@example.com', 'commit', '--quiet', '-am', 'Retitle the FAQ page');
    // A commit outside content/ is no version of the content.
    project.write('notes.txt', 'not content');
    project.git('add', 'notes.txt');
    project.git('commit', '--quiet', '-m', 'Notes');
    const { versions } = await studio.history.list();
    expect(versions[0]).toMatchObject({ action: 'commit', user: 'Dev Eloper', subject: 'Retitle the FAQ page', files: [{ path: FAQS }] });
    expect(versions.map((version) => version.subject)).not.toContain('Notes');

    const first = versions.find((version) => version.user === 'maria@example.com')!;
    const restored = await studio.history.restore('li@example.com', { version: first.id, path: HOME });
    expect(restored.ok).toBe(true);
    expect((await studio.publisher.undoLast('li@example.com')).ok).toBe(true);
    const after = await studio.history.list();
    expect(after.versions.slice(0, 2).map((version) => version.action)).toEqual(['undo', 'restore']);
  });

  it('names who published from the studio’s publish log, never from a commit message anyone can write', async () => {
    const studio = setup();
    const commits = await publishThree(studio);
    // A developer's commit whose message reads like the studio's, naming an admin who never published it.
    project.write(FAQS, project.read(FAQS).replace(/^title: .*$/m, 'title: Questions, forged'));
    project.git(
      '-c',
      'user.name=Dev Eloper',
      '-c',
      'user.email=dev@example.com',
      'commit',
      '--quiet',
      '-am',
      'Publish FAQs',
      '-m',
      'Published in the content studio by ana@example.com.',
    );
    const { versions } = await studio.history.list();
    expect(versions[0]).toMatchObject({ action: 'commit', user: 'Dev Eloper', subject: 'Publish FAQs' });
    const forged = await studio.history.version(versions[0]!.id, FAQS);
    expect(forged.version).toMatchObject({ action: 'commit', user: 'Dev Eloper' });
    // The studio's own publishes keep who published them, and whose changes they carried.
    expect(versions[1]).toMatchObject({ action: 'publish', user: 'ana@example.com', changedBy: ['ana@example.com'], commit: commits[2] });
  });

  it('pages the history: 20 at a time by default, and later pages are not shifted by a new publish', async () => {
    const studio = setup();
    await publishThree(studio);
    const first = await studio.history.list({ limit: 2 });
    expect(first.versions.map((version) => version.user)).toEqual(['ana@example.com', 'li@example.com']);
    expect(first.nextOffset).toBe(2);
    draftHome(studio.workspace, 'Fourth spring', 'maria@example.com');
    await studio.publisher.publish('maria@example.com');
    const second = await studio.history.list({ limit: 2, head: first.head!, offset: first.nextOffset! });
    expect(second.versions.map((version) => version.user)).toEqual(['maria@example.com', 'Developer']);
    expect(second.nextOffset).toBeNull();
  });

  it('lists only one file’s versions when asked for a path', async () => {
    const studio = setup();
    await publishThree(studio);
    project.write(FAQS, `${project.read(FAQS)}# a note\n`);
    project.git('commit', '--quiet', '-am', 'Note in the FAQ page');
    const { versions } = await studio.history.list({ path: HOME });
    expect(versions.map((version) => version.subject)).not.toContain('Note in the FAQ page');
    expect(versions).toHaveLength(4); // three publishes and the content as shipped
  });

  it('shows a file as a version left it, with what a restore would change today', async () => {
    const studio = setup();
    const shipped = project.read(HOME);
    const commits = await publishThree(studio);
    const version = await studio.history.version(commits[0]!, HOME);
    expect(headingOf(version.text!)).toBe('First spring');
    expect(version.text).toBe(shipped.replace(/^ {4}heading: .*$/m, '    heading: First spring'));
    expect((version.data as { blocks: { heading?: string }[] }).blocks[0]!.heading).toBe('First spring');
    expect(version.version).toMatchObject({ action: 'publish', user: 'maria@example.com', commit: commits[0] });
    expect(version.same).toBe(false);
    expect(version.hasDraft).toBe(false);
    const changed = version.hunks.flatMap((hunk) => hunk.lines).filter((line) => line.kind !== 'same');
    expect(changed.map((line) => [line.kind, line.text.trim()])).toEqual([
      ['removed', 'heading: Third spring'],
      ['added', 'heading: First spring'],
    ]);
    expect((await studio.history.version(commits[2]!, HOME)).same).toBe(true);
    // A file that did not exist in a version has no text there.
    expect((await studio.history.version(commits[0]!, 'content/pages/spring.yaml')).text).toBeNull();
  });

  it('gives the file just before a version, so the history can say what that version changed', async () => {
    const studio = setup();
    const shipped = project.read(HOME);
    const commits = await publishThree(studio);
    const heading = (data: unknown) => (data as { blocks: { heading?: string }[] }).blocks[0]!.heading;
    const second = await studio.history.version(commits[1]!, HOME);
    expect(heading(second.previousData)).toBe('First spring');
    expect(heading(second.data)).toBe('Second spring');
    expect(heading((await studio.history.version(commits[0]!, HOME)).previousData)).toBe(heading(parse(shipped)));
    // The commit that added the content had no file before it.
    const { versions } = await studio.history.list();
    expect((await studio.history.version(versions.at(-1)!.id, HOME)).previousData).toBeNull();
  });

  it('restores a version as a new commit whose file equals it, keeping every later commit; undo puts it back', async () => {
    const studio = setup();
    const commits = await publishThree(studio);
    const first = await studio.history.version(commits[0]!, HOME);
    const third = project.read(HOME);

    const result = await studio.history.restore('li@example.com', { version: commits[0]!, path: HOME, liveVersion: first.liveVersion });

    expect(result).toMatchObject({ ok: true, record: { action: 'restore', user: 'li@example.com', files: [{ path: HOME }] } });
    expect(project.read(HOME)).toBe(first.text);
    expect(project.git('show', `HEAD:${HOME}`)).toBe(first.text);
    const log = project.git('log', '--format=%H %s').trim().split('\n');
    expect(log[0]).toMatch(/ Restore .* as published \d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
    expect(log.slice(1, 4).map((line) => line.split(' ')[0])).toEqual([...commits].reverse());
    expect((await studio.history.list()).versions[0]).toMatchObject({ action: 'restore', user: 'li@example.com' });

    const undone = await studio.publisher.undoLast('li@example.com');
    expect(undone).toMatchObject({ ok: true, record: { action: 'undo' } });
    expect(project.read(HOME)).toBe(third);
    expect(project.git('log', '-1', '--format=%s')).toMatch(/^Undo publish of /);
  });

  it('leaves a draft of the page as it is, and refuses a restore of what is live or after a publish since', async () => {
    const studio = setup();
    const commits = await publishThree(studio);
    const seen = await studio.history.version(commits[0]!, HOME);
    await expect(studio.history.restore('li', { version: commits[2]!, path: HOME })).rejects.toThrow(/is what the site has now/);

    draftHome(studio.workspace, 'Fourth spring', 'maria@example.com');
    expect((await studio.history.version(commits[0]!, HOME)).hasDraft).toBe(true);
    await studio.publisher.publish('maria@example.com');
    await expect(studio.history.restore('li', { version: commits[0]!, path: HOME, liveVersion: seen.liveVersion })).rejects.toThrow(
      /was published again since you opened this version/,
    );

    draftHome(studio.workspace, 'Fifth spring (a draft)', 'maria@example.com');
    const result = await studio.history.restore('li', { version: commits[0]!, path: HOME });
    expect(result.ok).toBe(true);
    expect(headingOf(project.read(HOME))).toBe('First spring');
    expect(studio.workspace.listDrafts().map((draft) => [draft.path, headingOf(draft.text!)])).toEqual([[HOME, 'Fifth spring (a draft)']]);
  });

  it('brings back a file deleted since, and deletes one that did not exist in the version', async () => {
    const studio = setup();
    const shipped = project.git('rev-parse', 'HEAD').trim();
    const spring = 'content/pages/spring.yaml';
    studio.workspace.createDraft(
      spring,
      'path: /spring\ntitle: Spring offer\ndescription: Our spring offer for businesses that want to try an AI voice agent this season.\nblocks:\n  - type: hero\n    heading: Spring\n',
      'maria',
    );
    const added = await studio.publisher.publish('maria');
    expect(added.ok).toBe(true);
    const addedCommit = added.ok ? added.record.commit! : '';

    const removed = await studio.history.restore('li', {
      version: shipped,
      path: spring,
      liveVersion: studio.workspace.readDisk(studio.workspace.contentFile(spring))!.version,
    });
    expect(removed).toMatchObject({ ok: true, record: { action: 'restore', files: [{ path: spring, change: 'deleted' }] } });
    expect(existsSync(path.join(project.root, spring))).toBe(false);
    // Gone from the site, it keeps the name it had.
    const deletedVersion = (await studio.history.list()).versions[0]!;
    expect(deletedVersion.files).toEqual([{ path: spring, name: 'Spring', change: 'deleted' }]);

    const back = await studio.history.restore('li', { version: addedCommit, path: spring, liveVersion: null });
    expect(back).toMatchObject({ ok: true, record: { files: [{ path: spring, change: 'added' }] } });
    expect(headingOf(project.read(spring))).toBe('Spring');
    expect(project.git('status', '--porcelain')).toBe('');
  });
});

describe('the history without git', () => {
  it('keeps the texts of every publish, so each version is listed, shown and restored', async () => {
    const studio = setup({ git: false });
    const shipped = project.read(HOME);
    await publishThree(studio);
    expect(readdirSync(path.join(project.root, '.studio', 'versions'))).toHaveLength(3);

    const { versions, git, head } = await studio.history.list();
    expect(git).toBe(false);
    expect(versions.map((version) => [version.action, version.user, version.commit])).toEqual([
      ['publish', 'ana@example.com', undefined],
      ['publish', 'li@example.com', undefined],
      ['publish', 'maria@example.com', undefined],
    ]);
    expect(head).toBe(versions[0]!.id);
    const first = await studio.history.version(versions[2]!.id, HOME);
    expect(headingOf(first.text!)).toBe('First spring');
    // A file no publish touched is shown as it is.
    expect((await studio.history.version(versions[2]!.id, FAQS)).same).toBe(true);
    expect(
      first.hunks
        .flatMap((hunk) => hunk.lines)
        .filter((line) => line.kind === 'added')
        .map((line) => line.text.trim()),
    ).toEqual(['heading: First spring']);

    // What each publish changed: the text it kept from before.
    const heading = (data: unknown) => (data as { blocks: { heading?: string }[] }).blocks[0]!.heading;
    expect(heading((await studio.history.version(versions[1]!.id, HOME)).previousData)).toBe('First spring');
    expect(heading(first.previousData)).toBe(heading(parse(shipped)));
    const restored = await studio.history.restore('li', { version: versions[2]!.id, path: HOME });
    expect(restored).toMatchObject({ ok: true, record: { action: 'restore' } });
    expect(project.read(HOME)).toBe(first.text);
    expect((await studio.history.list()).versions.map((version) => version.action)).toEqual(['restore', 'publish', 'publish', 'publish']);
    expect((await studio.publisher.undoLast('li')).ok).toBe(true);
    expect(headingOf(project.read(HOME))).toBe('Third spring');
    expect(shipped).not.toBe(project.read(HOME));
  });
});

describe('GET /api/history/version and POST /api/history/restore refuse what is not a version of a content file', () => {
  async function session() {
    project = createStudioProject({ git: true });
    const opened = await openLocalStudio(project);
    app = opened.app;
    return opened.headers;
  }

  it.each([
    ['a commit id that is not one', 'HEAD', HOME, 400, /"HEAD" is not a version of the site: a version is named by its commit id/],
    ['an option in place of a commit', '--output=/tmp/x', HOME, 400, /is not a version of the site/],
    ['a commit that is not in the history', 'a'.repeat(40), HOME, 404, /is not in the site’s history/],
    ['a path outside content/', 'HEAD-COMMIT', 'package.json', 400, /"package.json" is not a content file the studio edits/],
    ['a path that climbs out of content/', 'HEAD-COMMIT', 'content/pages/../../package.json', 400, /is not a content file/],
  ])('refuses %s', async (_what, version, file, status, message) => {
    const headers = await session();
    const commit = version === 'HEAD-COMMIT' ? project.git('rev-parse', 'HEAD').trim() : version;
    const shown = await app!.inject({
      url: `/api/history/version?version=${encodeURIComponent(commit)}&path=${encodeURIComponent(file)}`,
      headers,
    });
    expect(shown.statusCode).toBe(status);
    expect((shown.json() as { message: string }).message).toMatch(message);
    const restored = await app!.inject({ method: 'POST', url: '/api/history/restore', headers, payload: { version: commit, path: file } });
    expect(restored.statusCode).toBe(status);
    expect((restored.json() as { message: string }).message).toMatch(message);
    expect(project.git('log', '--oneline').trim().split('\n')).toHaveLength(1);
  });

  it('refuses a commit on another branch, and answers a version and a restore for one in the history', async () => {
    const headers = await session();
    const shipped = project.git('rev-parse', 'HEAD').trim();
    project.git('checkout', '--quiet', '-b', 'elsewhere');
    project.write(HOME, `${project.read(HOME)}# elsewhere\n`);
    project.git('commit', '--quiet', '-am', 'Elsewhere');
    const elsewhere = project.git('rev-parse', 'HEAD').trim();
    project.git('checkout', '--quiet', 'main');
    const refused = await app!.inject({ url: `/api/history/version?version=${elsewhere}&path=${HOME}`, headers });
    expect(refused.statusCode).toBe(404);

    const list = await app!.inject({ url: '/api/history', headers });
    expect(list.json()).toMatchObject({ git: true, head: shipped, versions: [{ action: 'commit', user: 'Developer' }] });
    const bad = await app!.inject({ url: '/api/history?offset=-1', headers });
    expect(bad.statusCode).toBe(400);
    expect((bad.json() as { message: string }).message).toBe('The offset must be a whole number of 0 or more.');
    const same = await app!.inject({ method: 'POST', url: '/api/history/restore', headers, payload: { version: shipped, path: HOME } });
    expect(same.statusCode).toBe(409);
    expect((same.json() as { message: string }).message).toMatch(/is what the site has now: there is nothing to restore/);
  });
});
