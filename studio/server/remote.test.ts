// Publishing to a git remote, against a real bare repository: the commit reaches the remote; a change
// pushed by someone else in between is taken in (another file) or shown to the editor to choose (the
// same file); an unreachable remote leaves the publish here, says so, and the next publish pushes it.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Clone } from '../testing/bare-remote.ts';
import { createStudioProject, quickBuild, type StudioProject } from '../testing/studio-project.ts';
import { createDelivery } from './delivery.ts';
import { createPublisher } from './publish.ts';
import { plainGitMessage, resolveGitRemote } from './remote.ts';
import { createWorkspace, type Workspace } from './workspace.ts';

let project: StudioProject;
afterEach(() => project?.remove());

const HOME = 'content/pages/home.yaml';
const FAQS = 'content/pages/faqs.yaml';

async function setup(options: { build?: (outDir: string) => Promise<void> } = {}) {
  project = createStudioProject({ git: true, remote: true });
  const remote = await resolveGitRemote(project.root, undefined);
  const workspace = createWorkspace({ root: project.root });
  const delivery = createDelivery({ root: project.root, workspace, stateDir: path.join(project.root, '.studio'), remote });
  const publisher = createPublisher({
    root: project.root,
    workspace,
    distDir: project.distDir,
    build: options.build ?? quickBuild,
    delivery,
  });
  return { remote, workspace, publisher };
}

/** Sets the home page's first heading in a draft, as the editor would. */
function draftHeading(workspace: Workspace, heading: string) {
  const opened = workspace.open(HOME);
  const text = workspace.currentText(opened)!.replace(/^( {4}heading: ).*$/m, `$1${heading}`);
  workspace.saveDraft(HOME, text, { revision: opened.draft?.revision ?? 0, diskVersion: opened.disk?.version ?? null }, 'maria');
}

function draftFaqTitle(workspace: Workspace, title: string) {
  const opened = workspace.open(FAQS);
  const text = workspace.currentText(opened)!.replace(/^title: .*$/m, `title: ${title}`);
  workspace.saveDraft(FAQS, text, { revision: opened.draft?.revision ?? 0, diskVersion: opened.disk?.version ?? null }, 'maria');
}

/** Another person changes a file in their own clone and pushes it. */
function pushFromClone(clone: Clone, file: string, change: (text: string) => string, message: string): string {
  clone.write(file, change(clone.read(file)));
  return clone.commitAndPush(message);
}

const heading = (text: string) => /^ {4}heading: (.*)$/m.exec(text)?.[1];

describe('publishing to a git remote', () => {
  it('takes the remote from the branch upstream and pushes the publish commit there', async () => {
    const { remote, workspace, publisher } = await setup();
    expect(remote).toEqual({ name: 'origin', branch: 'main' });
    draftHeading(workspace, 'Pushed to the remote');

    const result = await publisher.publish('maria');

    expect(result).toMatchObject({
      ok: true,
      record: {
        remote: { name: 'origin', branch: 'main', pushed: true },
        status: { remote: { pushed: true, text: "Sent to the team's copy of the site" } },
      },
    });
    const commit = result.ok ? result.record.commit : '';
    expect(project.remote!.head()).toBe(commit);
    expect(heading(project.remote!.show(HOME))).toBe('Pushed to the remote');
    // The live build names the publish's commit, though it was built before the commit was made.
    const info = JSON.parse(readFileSync(path.join(project.distDir, 'client', 'build.json'), 'utf8')) as { commit: string };
    expect(info.commit).toBe(commit);
  });

  it('goes through when someone pushed a change to another file in between: both changes are on the remote', async () => {
    const { workspace, publisher } = await setup();
    draftHeading(workspace, 'Mine');
    const theirs = pushFromClone(
      project.remote!.clone(),
      FAQS,
      (text) => text.replace(/^title: .*$/m, 'title: Questions, answered'),
      'Retitle the FAQ',
    );

    const result = await publisher.publish('maria');

    expect(result).toMatchObject({ ok: true, record: { remote: { pushed: true } } });
    expect(project.remote!.git('rev-parse', `${project.remote!.head()}^`).trim()).toBe(theirs);
    expect(heading(project.remote!.show(HOME))).toBe('Mine');
    expect(project.remote!.show(FAQS)).toMatch(/^title: Questions, answered$/m);
    // The checkout has their change too.
    expect(project.read(FAQS)).toMatch(/^title: Questions, answered$/m);
    expect(project.git('status', '--porcelain', '--', 'content')).toBe('');
  });

  it('stops when someone pushed a change to the same file: says which file and who, and keeps both versions', async () => {
    const { workspace, publisher } = await setup();
    draftHeading(workspace, 'Mine');
    const before = project.remote!.head();
    const theirs = pushFromClone(project.remote!.clone(), HOME, (text) => text.replace(/^( {4}heading: ).*$/m, '$1Theirs'), 'New headline');

    const result = await publisher.publish('maria');

    expect(result).toMatchObject({ ok: false, reason: 'conflict' });
    expect(result.ok ? '' : result.message).toBe(
      `Nothing was published: ${HOME} was changed in the repository by Ana ("New headline") since it was opened in the studio. Open it to compare both versions and choose which to keep, then publish again.`,
    );
    expect(!result.ok && result.issues?.map((issue) => issue.file)).toEqual([HOME]);
    // Nothing lost: their version is on disk and on the remote, the editor's is still the draft.
    expect(project.remote!.head()).toBe(theirs);
    expect(project.remote!.git('rev-parse', `${theirs}^`).trim()).toBe(before);
    expect(heading(project.read(HOME))).toBe('Theirs');
    const opened = workspace.open(HOME);
    expect(heading(opened.draft!.text!)).toBe('Mine');
    expect(opened.draft!.baseVersion).not.toBe(opened.disk!.version);

    // The editor chooses theirs for the heading and publishes another change: it goes through.
    workspace.discardDraft(HOME);
    draftFaqTitle(workspace, 'Questions people ask');
    expect(await publisher.publish('maria')).toMatchObject({ ok: true, record: { remote: { pushed: true } } });
    expect(heading(project.remote!.show(HOME))).toBe('Theirs');
  });

  it('publishes here when the remote cannot be reached, says so plainly, and pushes it with the next publish', async () => {
    const { workspace, publisher } = await setup();
    const address = project.remote!.dir;
    const before = project.remote!.head();
    project.git('remote', 'set-url', 'origin', '/nowhere/site.git');
    draftHeading(workspace, 'Published while offline');

    const offline = await publisher.publish('maria');

    expect(offline).toMatchObject({ ok: true, record: { remote: { pushed: false }, status: { remote: { pushed: false } } } });
    const text = offline.ok ? offline.record.status!.remote!.text : '';
    // Plain words, without git's: the reason stays in the record for developers.
    expect(text).toBe("Not in the team's copy of the site yet: it could not be reached. It is live here, and the next publish sends it.");
    expect(offline.ok && offline.record.remote!.reason).toMatch(/^origin could not be reached \(.+\)$/);
    expect(text).not.toContain('/nowhere');
    expect(heading(project.read(HOME))).toBe('Published while offline');
    expect(project.remote!.head()).toBe(before);

    project.git('remote', 'set-url', 'origin', address);
    draftFaqTitle(workspace, 'Questions people ask');
    const online = await publisher.publish('maria');

    expect(online).toMatchObject({ ok: true, record: { remote: { pushed: true } } });
    expect(heading(project.remote!.show(HOME))).toBe('Published while offline');
    expect(project.remote!.show(FAQS)).toMatch(/^title: Questions people ask$/m);
    const [latest, earlier] = publisher.history();
    expect(latest!.status!.remote!.text).toBe("Sent to the team's copy of the site");
    expect(earlier!.status!.remote).toMatchObject({
      pushed: true,
      text: expect.stringMatching(/^Sent to the team's copy of the site with the publish of \d\d:\d\d$/),
    });
  });

  it('keeps an unpushed publish as a draft to compare when the remote changed the same file meanwhile', async () => {
    const { workspace, publisher } = await setup();
    const address = project.remote!.dir;
    project.git('remote', 'set-url', 'origin', '/nowhere/site.git');
    draftHeading(workspace, 'Mine, never pushed');
    expect(await publisher.publish('maria')).toMatchObject({ ok: true, record: { remote: { pushed: false } } });
    pushFromClone(project.remote!.clone(), HOME, (text) => text.replace(/^( {4}heading: ).*$/m, '$1Theirs'), 'New headline');
    project.git('remote', 'set-url', 'origin', address);

    draftFaqTitle(workspace, 'Questions people ask');
    const result = await publisher.publish('li');

    expect(result).toMatchObject({ ok: true, record: { remote: { pushed: true } } });
    expect(heading(project.remote!.show(HOME))).toBe('Theirs');
    expect(project.remote!.show(FAQS)).toMatch(/^title: Questions people ask$/m);
    expect(heading(project.read(HOME))).toBe('Theirs');
    const opened = workspace.open(HOME);
    expect(heading(opened.draft!.text!)).toBe('Mine, never pushed');
    expect(opened.draft!.baseVersion).not.toBe(opened.disk!.version);
    // Not only a draft: the commit that published it stays in the repository, named.
    const kept = project.git('for-each-ref', '--format=%(objectname)', 'refs/studio/replaced/').trim();
    expect(heading(project.git('show', `${kept}:${HOME}`))).toBe('Mine, never pushed');
    // The earlier publish is never said to be pushed with the later one: its version was not sent.
    const [latest, earlier] = publisher.history();
    expect(earlier!.status!.remote).toEqual({
      pushed: false,
      text: "Not sent to the team's copy of the site: Home changed there meanwhile. This version is kept here and as a draft of the page, to compare and choose.",
    });
    expect(latest!.status!.remote!.text).toBe(
      "Sent to the team's copy of the site. Home changed in the team's copy of the site meanwhile: the version an earlier publish made here, not sent, is kept as a draft, to compare and choose.",
    );
  });

  it('keeps an unpushed publish as a draft, not merged, when the remote changed another line of the same file meanwhile', async () => {
    const { workspace, publisher } = await setup();
    const address = project.remote!.dir;
    project.git('remote', 'set-url', 'origin', '/nowhere/site.git');
    draftHeading(workspace, 'Mine, never pushed');
    expect(await publisher.publish('maria')).toMatchObject({ ok: true, record: { remote: { pushed: false } } });
    pushFromClone(project.remote!.clone(), HOME, (text) => text.replace(/^title: .*$/m, 'title: Their title'), 'Retitle the home page');
    project.git('remote', 'set-url', 'origin', address);

    draftFaqTitle(workspace, 'Questions people ask');
    expect(await publisher.publish('li')).toMatchObject({ ok: true, record: { remote: { pushed: true } } });

    expect(project.remote!.show(HOME)).toMatch(/^title: Their title$/m);
    expect(heading(project.remote!.show(HOME))).not.toBe('Mine, never pushed');
    expect(heading(workspace.open(HOME).draft!.text!)).toBe('Mine, never pushed');
    // Credited to the person whose publish it was, not to the one publishing now.
    expect(workspace.open(HOME).draft!.changedBy).toEqual(['maria']);
  });

  it('keeps an unpushed publish here, and the draft as it is, when the same file changed on the remote and has a draft', async () => {
    const { workspace, publisher } = await setup();
    const address = project.remote!.dir;
    project.git('remote', 'set-url', 'origin', '/nowhere/site.git');
    draftHeading(workspace, 'Mine, never pushed');
    expect(await publisher.publish('maria')).toMatchObject({ ok: true, record: { remote: { pushed: false } } });
    const mine = project.git('rev-parse', 'HEAD').trim();
    pushFromClone(project.remote!.clone(), HOME, (text) => text.replace(/^( {4}heading: ).*$/m, '$1Theirs'), 'New headline');
    project.git('remote', 'set-url', 'origin', address);
    draftHeading(workspace, 'A newer draft');

    // Another page goes live on its own (as a restore does), with the home page's draft left waiting.
    const faqs = project.read(FAQS).replace(/^title: .*$/m, 'title: Questions people ask');
    const result = await publisher.publish('li', { changes: [{ path: FAQS, text: faqs }] });

    expect(result).toMatchObject({ ok: true, record: { remote: { pushed: false } } });
    const text = result.ok ? JSON.stringify(result.record) : '';
    expect(text).toContain("Home changed both here and in the team's copy of the site, and has an unpublished draft");
    expect(heading(workspace.open(HOME).draft!.text!)).toBe('A newer draft');
    expect(project.git('log', '--format=%H').split('\n')).toContain(mine);
    expect(heading(project.git('show', `${mine}:${HOME}`))).toBe('Mine, never pushed');
  });

  it('fetches, replays and pushes again when the remote moves on while the site is built', async () => {
    const other: { clone?: Clone } = {};
    const { workspace, publisher } = await setup({
      build: async (outDir) => {
        if (other.clone)
          pushFromClone(other.clone, FAQS, (text) => text.replace(/^title: .*$/m, 'title: Pushed during the build'), 'Retitle the FAQ');
        await quickBuild(outDir);
      },
    });
    other.clone = project.remote!.clone();
    draftHeading(workspace, 'Mine');

    const result = await publisher.publish('maria');

    expect(result).toMatchObject({ ok: true, record: { remote: { pushed: true } } });
    expect(result.ok && result.record.commit).toBe(project.remote!.head());
    expect(heading(project.remote!.show(HOME))).toBe('Mine');
    expect(project.remote!.show(FAQS)).toMatch(/^title: Pushed during the build$/m);
  });
});

describe('a push that loses a race with the remote', () => {
  /**
   * Makes `clone` push a change to `file` right after the studio's next commit, before the studio
   * pushes it (a git hook of the checkout, run once).
   */
  function competeAfterNextCommit(clone: Clone, file: string, sedScript: string, message: string) {
    const hook = path.join(project.root, '.git', 'hooks', 'post-commit');
    writeFileSync(
      hook,
      [
        '#!/bin/sh',
        'unset GIT_DIR GIT_INDEX_FILE GIT_WORK_TREE GIT_PREFIX GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_AUTHOR_DATE',
        `rm -f "${hook}"`,
        `cd "${clone.root}" || exit 1`,
        'git pull --quiet --rebase',
        `sed -i '${sedScript}' "${file}"`,
        `git -c user.name=Ana commit --quiet -am '${message}'`,
        'git push --quiet',
        '',
      ].join('\n'),
    );
    chmodSync(hook, 0o755);
  }
  const THEIR_HEADING = '0,/^    heading: /s/^\\(    heading: \\).*/\\1Theirs/';

  it('of the same file: says plainly it is not sent, keeps the text in its commit here (not a draft), and never says "Pushed"', async () => {
    const { workspace, publisher } = await setup();
    competeAfterNextCommit(project.remote!.clone(), HOME, THEIR_HEADING, 'New headline');
    draftHeading(workspace, 'Mine');

    const result = await publisher.publish('maria');

    expect(result).toMatchObject({ ok: true, record: { remote: { pushed: false, changedThere: [HOME] } } });
    const record = result.ok ? result.record : undefined;
    expect(record!.status!.remote).toEqual({
      pushed: false,
      text: "Not sent to the team's copy of the site: Home changed there while this was published. It is live here and kept here; the next publish brings in their change and shows both versions, to compare and choose.",
    });
    // The remote has their version; the studio's text is in the commit here, on the branch, not in a draft.
    expect(heading(project.remote!.show(HOME))).toBe('Theirs');
    expect(project.git('rev-parse', 'HEAD').trim()).toBe(record!.commit);
    expect(heading(project.git('show', `${record!.commit}:${HOME}`))).toBe('Mine');
    expect(heading(project.read(HOME))).toBe('Mine');
    expect(workspace.open(HOME).draft).toBeUndefined();
    expect(publisher.history()[0]!.status!.remote!.pushed).toBe(false);
  });

  it('of another line of the same file: is not merged line by line nor said to be pushed; the remote keeps only their change', async () => {
    const { workspace, publisher } = await setup();
    competeAfterNextCommit(project.remote!.clone(), HOME, 's/^title: .*$/title: Their title/', 'Retitle the home page');
    draftHeading(workspace, 'Mine');

    const result = await publisher.publish('maria');

    expect(result).toMatchObject({ ok: true, record: { remote: { pushed: false, changedThere: [HOME] } } });
    expect(result.ok && result.record.status!.remote!.text).toMatch(/^Not sent to the team's copy of the site: Home changed there/);
    const theirs = project.remote!.show(HOME);
    expect(theirs).toMatch(/^title: Their title$/m);
    expect(heading(theirs)).not.toBe('Mine');
    expect(heading(project.read(HOME))).toBe('Mine');
  });

  it('of another file: replays the commit over theirs, pushes it again, and says "Pushed" once the remote holds it', async () => {
    const { workspace, publisher } = await setup();
    competeAfterNextCommit(project.remote!.clone(), FAQS, 's/^title: .*$/title: Pushed meanwhile/', 'Retitle the FAQ');
    draftHeading(workspace, 'Mine');

    const result = await publisher.publish('maria');

    expect(result).toMatchObject({
      ok: true,
      record: { remote: { pushed: true }, status: { remote: { text: "Sent to the team's copy of the site" } } },
    });
    expect(result.ok && result.record.commit).toBe(project.remote!.head());
    expect(heading(project.remote!.show(HOME))).toBe('Mine');
    expect(project.remote!.show(FAQS)).toMatch(/^title: Pushed meanwhile$/m);
  });

  it('says it is not on the remote when git reports a push done that the remote does not hold', async () => {
    const { workspace, publisher } = await setup();
    // Pushes go to another repository than the one fetched from: git says "done", the remote has nothing.
    const elsewhere = mkdtempSync(path.join(tmpdir(), 'studio-elsewhere-'));
    execFileSync('git', ['init', '--quiet', '--bare', elsewhere]);
    project.git('remote', 'set-url', '--push', 'origin', elsewhere);
    draftHeading(workspace, 'Mine');

    const result = await publisher.publish('maria');

    rmSync(elsewhere, { recursive: true, force: true });
    expect(result).toMatchObject({ ok: true, record: { remote: { pushed: false }, status: { remote: { pushed: false } } } });
    expect(result.ok ? result.record.status!.remote!.text : '').toBe(
      "Not in the team's copy of the site yet: it could not be sent. It is live here, and the next publish sends it.",
    );
  });
});

describe('the live site after a push', () => {
  it('says "Waiting for the live site…" after the push, then "Live since …" once the site serves the commit', async () => {
    project = createStudioProject({ git: true, remote: true });
    const served = { commit: project.remote!.head() };
    const site = (async () => Response.json({ commit: served.commit, builtAt: new Date().toISOString() })) as unknown as typeof fetch;
    const workspace = createWorkspace({ root: project.root });
    const delivery = createDelivery({
      root: project.root,
      workspace,
      stateDir: path.join(project.root, '.studio'),
      remote: await resolveGitRemote(project.root, undefined),
      live: { url: 'https://www.example.com/', timeoutMs: 60_000 },
      fetch: site,
      pollMs: 20,
      timeZone: 'UTC',
    });
    const publisher = createPublisher({ root: project.root, workspace, distDir: project.distDir, build: quickBuild, delivery });
    draftHeading(workspace, 'Soon live');

    const result = await publisher.publish('maria');

    expect(result).toMatchObject({
      ok: true,
      record: { status: { remote: { text: "Sent to the team's copy of the site" }, live: { state: 'waiting' } } },
    });
    await expect
      .poll(() => publisher.history()[0]!.status!.live!.text)
      .toMatch(/^Waiting for the live site… The site still shows the version built at \d\d:\d\d\.$/);
    // The deploy arrives: the site now serves the pushed commit.
    served.commit = project.remote!.head();
    await expect.poll(() => publisher.history()[0]!.status!.live!.text, { timeout: 5_000 }).toMatch(/^Live since \d\d:\d\d$/);
    delivery.stop();
  });
});

describe('the remote setting', () => {
  it('refuses a STUDIO_GIT_REMOTE the checkout does not have, saying what to do', async () => {
    project = createStudioProject({ git: true, remote: true });
    await expect(resolveGitRemote(project.root, 'upstream')).rejects.toThrow(
      'STUDIO_GIT_REMOTE is "upstream", but the checkout has no remote of that name (it has origin): add it with `git remote add upstream <address>` or correct the setting.',
    );
    await expect(resolveGitRemote(project.root, 'origin')).resolves.toEqual({ name: 'origin', branch: 'main' });
  });

  it('pushes nowhere without an upstream or a setting', async () => {
    project = createStudioProject({ git: true });
    await expect(resolveGitRemote(project.root, undefined)).resolves.toBeNull();
  });
});

describe('git messages shown to editors', () => {
  const where = { root: '/srv/site', remoteName: 'origin', remoteUrl: 'https://deploy:s3cret@git.example.com/team/site.git' };

  it.each([
    [
      "fatal: unable to access 'https://deploy:s3cret@git.example.com/team/site.git/': Could not resolve host: git.example.com",
      "fatal: unable to access 'origin/': Could not resolve host: git.example.com",
    ],
    ["fatal: '/srv/backups/site.git' does not appear to be a git repository", "fatal: '…' does not appear to be a git repository"],
    [
      'error: failed to push some refs to https://bot:token@other.example.com/x.git',
      'error: failed to push some refs to https://other.example.com/x.git',
    ],
    ["error: cannot open '/srv/site/.git/FETCH_HEAD': Permission denied", "error: cannot open './.git/FETCH_HEAD': Permission denied"],
  ])('%s', (stderr, shown) => {
    expect(plainGitMessage(Object.assign(new Error('Command failed'), { stderr }), where)).toBe(shown);
  });
});
