// A git remote for studio tests: a bare repository in a temp folder that a checkout pushes to, with
// clones that stand for another person pushing in between.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export type Clone = {
  root: string;
  read(relative: string): string;
  write(relative: string, text: string): void;
  git(...args: string[]): string;
  /** Commits every change as `author`, takes in what the remote has meanwhile, and pushes. */
  commitAndPush(message: string, author?: string): string;
};

export type BareRemote = {
  /** The bare repository's folder (its address for git). */
  dir: string;
  git(...args: string[]): string;
  /** A file's text on the remote's main branch. */
  show(relative: string, branch?: string): string;
  /** The commit the remote's branch points at. */
  head(branch?: string): string;
  clone(): Clone;
  remove(): void;
};

function runGit(cwd: string, args: readonly string[]): string {
  return execFileSync('git', ['-C', cwd, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * Makes a bare repository, pushes `checkout`'s main branch to it as `origin`, and makes that its
 * upstream, as a clone from a hosted repository would be.
 */
export function addBareRemote(checkout: string): BareRemote {
  const home = mkdtempSync(path.join(tmpdir(), 'studio-remote-'));
  const dir = path.join(home, 'site.git');
  execFileSync('git', ['init', '--quiet', '--bare', '--initial-branch=main', dir]);
  runGit(checkout, ['remote', 'add', 'origin', dir]);
  runGit(checkout, ['push', '--quiet', 'origin', 'main']);
  runGit(checkout, ['branch', '--quiet', '--set-upstream-to=origin/main', 'main']);
  let clones = 0;
  return {
    dir,
    git: (...args) => runGit(dir, args),
    show: (relative, branch = 'main') => runGit(dir, ['show', `${branch}:${relative}`]),
    head: (branch = 'main') => runGit(dir, ['rev-parse', branch]).trim(),
    clone() {
      const root = path.join(home, `clone-${++clones}`);
      execFileSync('git', ['clone', '--quiet', dir, root]);
      runGit(root, ['config', 'user.email', 'ana@example.com']);
      runGit(root, ['config', 'user.name', 'Ana']);
      return {
        root,
        read: (relative) => readFileSync(path.join(root, relative), 'utf8'),
        write: (relative, text) => writeFileSync(path.join(root, relative), text),
        git: (...args) => runGit(root, args),
        commitAndPush(message, author = 'Ana') {
          runGit(root, ['add', '-A']);
          runGit(root, ['-c', `user.name=${author}`, 'commit', '--quiet', '-m', message]);
          runGit(root, ['pull', '--quiet', '--rebase']);
          runGit(root, ['push', '--quiet']);
          return runGit(root, ['rev-parse', 'HEAD']).trim();
        },
      };
    },
    remove: () => rmSync(home, { recursive: true, force: true }),
  };
}
