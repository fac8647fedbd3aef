// A publish takes as long as its build, longer than a quiet connection stays open: the studio answers
// at once with the run, tells each step as it is reached (to the tab that started it and to one
// opened or reloaded meanwhile), and then what the publish came to.
import { afterEach, describe, expect, it } from 'vitest';
import type { PublishRunView } from '../../api-types.ts';
import { openLocalStudio } from '../../testing/local-studio.ts';
import { followRunToEnd, shownDrafts } from '../../testing/publish-run.ts';
import { createStudioProject, quickBuild, type StudioProject } from '../../testing/studio-project.ts';
import { createWorkspace } from '../workspace.ts';
import { UNKNOWN_RUN_MESSAGE } from './publish.ts';

const HOME = 'content/pages/home.yaml';

let project: StudioProject;
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
  project?.remove();
});

/** A build that waits until the test lets it finish, as a full build on a slow machine would. */
function slowBuild() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let started!: () => void;
  const building = new Promise<void>((resolve) => (started = resolve));
  return {
    release,
    building,
    build: async (outDir: string) => {
      started();
      await released;
      await quickBuild(outDir);
    },
  };
}

async function setup(build: (outDir: string) => Promise<void> = quickBuild) {
  project = createStudioProject({ git: true });
  const studio = await openLocalStudio(project, { build });
  close = () => studio.app.close();
  return studio;
}

function draftHeading(heading: string) {
  const workspace = createWorkspace({ root: project.root });
  const opened = workspace.open(HOME);
  const text = workspace.currentText(opened)!.replace(/^( {4}heading: ).*$/m, `$1${heading}`);
  workspace.saveDraft(HOME, text, { revision: opened.draft?.revision ?? 0, diskVersion: opened.disk?.version ?? null }, 'local');
}

const stepsOf = (run: PublishRunView) => run.steps.map((step) => `${step.label}: ${step.state}`);

describe('a publish that takes a while', () => {
  it('is answered at once, shows its steps while it builds (also to a reloaded screen), then its result', async () => {
    const slow = slowBuild();
    const { app, headers } = await setup(slow.build);
    draftHeading('Published while you wait');

    const files = await shownDrafts(app, headers);
    const started = await app.inject({ method: 'POST', url: '/api/publish', headers, payload: { files } });
    expect(started.statusCode).toBe(202);
    const { run } = started.json() as { run: PublishRunView };
    expect(run).toMatchObject({ action: 'publish', user: 'local', done: false });
    await slow.building;

    const during = (await app.inject({ url: `/api/publish-runs/${run.id}`, headers })).json() as { run: PublishRunView };
    expect(stepsOf(during.run)).toEqual([
      'Checking the content: done',
      'Building the site: now',
      'Putting the new pages on the live site: next',
      'Saving the version: next',
    ]);
    // A screen opened now (a reload) finds it still running; nothing is live or committed yet.
    const status = (await app.inject({ url: '/api/publish-status', headers })).json() as { running: PublishRunView[]; history: unknown[] };
    expect(status.running.map((running) => running.id)).toEqual([run.id]);
    expect(status.history).toEqual([]);
    expect(project.git('log', '--oneline').trim().split('\n')).toHaveLength(1);

    // A second publish of the same changes asked for meanwhile (another tab) waits its turn, and says so.
    const second = (await app.inject({ method: 'POST', url: '/api/publish', headers, payload: { files } })).json() as {
      run: PublishRunView;
    };
    expect(stepsOf(second.run)[0]).toBe('Waiting for the publish before it to finish: now');

    slow.release();
    const ended = await followRunToEnd(app, headers, started);
    expect(ended.done).toBe(true);
    expect(stepsOf(ended).every((step) => step.endsWith(': done'))).toBe(true);
    expect(ended.answer).toMatchObject({ ok: true, record: { action: 'publish', files: [{ path: HOME, change: 'changed' }] } });
    expect(project.read(HOME)).toContain('Published while you wait');
    expect(project.git('log', '-1', '--format=%s').trim()).toMatch(/^Publish /);

    // The second found what it showed live already, and says so where it stopped.
    const secondEnded = await followRunToEnd(app, headers, { statusCode: 202, json: () => second, body: '' } as never);
    expect(secondEnded.answer).toEqual({
      ok: false,
      reason: 'nothing',
      message: 'Home is live already, as shown: there is nothing more to publish.',
    });
    expect(stepsOf(secondEnded)).toEqual(['Waiting for the publish before it to finish: done', 'Checking the content: stopped']);
    const after = (await app.inject({ url: '/api/publish-status', headers })).json() as { running: PublishRunView[] };
    expect(after.running).toEqual([]);
  });

  it('says plainly when it does not know a run, and refuses what is not a run id', async () => {
    const { app, headers } = await setup();
    const unknown = await app.inject({ url: '/api/publish-runs/1b4e28ba-2fa1-41d2-883f-0016d3cca427', headers });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: UNKNOWN_RUN_MESSAGE });
    const malformed = await app.inject({ url: '/api/publish-runs/latest', headers });
    expect(malformed.statusCode).toBe(400);
    expect((malformed.json() as { message: string }).message).toContain('A publish is named by the id the studio gave it when it started.');
  });
});
