// A throwaway copy of the project's content for studio tests: content/ copied (so tests may change
// it), schema/ and public/ linked, optionally a git repository with the content committed, and a bare
// repository as its remote.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROUTES_FILE } from '../../content-model/load/build-files.ts';
import { addBareRemote, type BareRemote } from './bare-remote.ts';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

export type StudioProject = {
  root: string;
  distDir: string;
  read(relative: string): string;
  write(relative: string, text: string): void;
  git(...args: string[]): string;
  /** With `remote: true`: the bare repository the checkout's main branch tracks as origin/main. */
  remote?: BareRemote;
  remove(): void;
};

export function createStudioProject(options: { git?: boolean; copyPublic?: boolean; remote?: boolean } = {}): StudioProject {
  const root = mkdtempSync(path.join(tmpdir(), 'studio-project-'));
  cpSync(path.join(REPO_ROOT, 'content'), path.join(root, 'content'), { recursive: true });
  symlinkSync(path.join(REPO_ROOT, 'schema'), path.join(root, 'schema'));
  symlinkSync(path.join(REPO_ROOT, 'blocks'), path.join(root, 'blocks'));
  if (options.copyPublic) cpSync(path.join(REPO_ROOT, 'public'), path.join(root, 'public'), { recursive: true });
  else symlinkSync(path.join(REPO_ROOT, 'public'), path.join(root, 'public'));
  const git = (...args: string[]) => execFileSync('git', ['-C', root, ...args], { encoding: 'utf8' });
  if (options.git) {
    git('init', '--quiet', '--initial-branch=main');
    git('config', 'user.email', 'developer@example.com');
    git('config', 'user.name', 'Developer');
    writeFileSync(path.join(root, '.gitignore'), '.studio/\n/dist\n/dist.studio-next\n/schema\n/blocks\n/public\n');
    git('add', '.gitignore', 'content');
    git('commit', '--quiet', '-m', 'Content as shipped');
  }
  const remote = options.git && options.remote ? addBareRemote(root) : undefined;
  mkdirSync(path.join(root, 'dist'), { recursive: true });
  writeFileSync(path.join(root, 'dist', ROUTES_FILE), '{"first": true}\n');
  return {
    root,
    distDir: path.join(root, 'dist'),
    read: (relative) => readFileSync(path.join(root, relative), 'utf8'),
    write: (relative, text) => writeFileSync(path.join(root, relative), text),
    git,
    ...(remote ? { remote } : {}),
    remove: () => {
      rmSync(root, { recursive: true, force: true });
      remote?.remove();
    },
  };
}

/**
 * Another host's checkout of the same site: a fresh clone of `remote` (the site's repository), with
 * nothing of the first checkout's workspace (no drafts, no .studio/), schema/, blocks/ and public/
 * linked and a first build, as `createStudioProject` makes them. `remove` removes the clone only.
 */
export function cloneStudioProject(remote: BareRemote): StudioProject {
  const home = mkdtempSync(path.join(tmpdir(), 'studio-clone-'));
  const root = path.join(home, 'site');
  execFileSync('git', ['clone', '--quiet', remote.dir, root]);
  const git = (...args: string[]) => execFileSync('git', ['-C', root, ...args], { encoding: 'utf8' });
  git('config', 'user.email', 'developer@example.com');
  git('config', 'user.name', 'Developer');
  for (const linked of ['schema', 'blocks', 'public']) symlinkSync(path.join(REPO_ROOT, linked), path.join(root, linked));
  mkdirSync(path.join(root, 'dist'), { recursive: true });
  writeFileSync(path.join(root, 'dist', ROUTES_FILE), '{"first": true}\n');
  return {
    root,
    distDir: path.join(root, 'dist'),
    read: (relative) => readFileSync(path.join(root, relative), 'utf8'),
    write: (relative, text) => writeFileSync(path.join(root, relative), text),
    git,
    remote,
    remove: () => rmSync(home, { recursive: true, force: true }),
  };
}

/** The studio's browser app as tests need it: an index.html in `<root>/app` (the real app is not built). */
export function fakeStudioAppDir(root: string): string {
  const appDir = path.join(root, 'app');
  mkdirSync(appDir, { recursive: true });
  writeFileSync(path.join(appDir, 'index.html'), '<!doctype html><title>Content studio</title>');
  return appDir;
}

/** A stand-in for the site build: a route table only, so a publish takes milliseconds. */
export async function quickBuild(outDir: string): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  writeFileSync(path.join(outDir, ROUTES_FILE), '{}');
}
