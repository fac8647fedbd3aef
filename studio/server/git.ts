// The studio's git plumbing: a publish is one commit naming the pages and the editor, with the
// pictures the published texts use, so a fresh clone of the repository builds the same site.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { uploadsNamedIn } from '../../content-model/uploads.ts';

const run = promisify(execFile);

/** One file a publish writes: its text before and after (null where it did not or does not exist). */
export type PublishedFile = { path: string; before: string | null; after: string | null; title: string };

/** Runs git in `root`; stdout and stderr as text. */
export function gitIn(root: string) {
  return (args: readonly string[]) => run('git', ['-C', root, ...args], { maxBuffer: 16 * 1024 * 1024 });
}

/** Whether `root` is inside a git work tree. */
export async function isRepository(root: string): Promise<boolean> {
  try {
    await gitIn(root)(['rev-parse', '--is-inside-work-tree']);
    return true;
  } catch {
    return false;
  }
}

/** Text on one line: line breaks and other control characters become spaces. */
export function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what this removes
  return text.replace(/[\u0000-\u001F\u007F-\u009F\u2028\u2029]+/g, ' ').trim();
}

/** Commits exactly these files, when the project is a git repository; returns the commit id. */
export async function commitFiles(
  root: string,
  files: readonly PublishedFile[],
  subject: string,
  user: string,
): Promise<string | undefined> {
  const git = gitIn(root);
  if (!(await isRepository(root))) return undefined; // not a repository: the files on disk are the record
  // Pictures uploaded in the studio and used by the published files go into the same commit: without
  // them, a fresh clone would not build.
  const pictures = uploadsUsedBy(root, files);
  const paths = [...files.map((file) => file.path), ...pictures];
  const identity = await git(['config', 'user.email']).then(
    () => [],
    () => ['-c', 'user.name=Content studio', '-c', 'user.email=studio@localhost'],
  );
  const editor = oneLine(user).replace(/[<>]/g, '');
  await git(['add', '-A', '--', ...paths]);
  await git([
    ...identity,
    'commit',
    '--quiet',
    '-m',
    subject,
    '-m',
    [
      ...files.map((file) => `${file.before === null ? 'added' : file.after === null ? 'deleted' : 'changed'}: ${file.path}`),
      ...pictures.map((picture) => `picture: ${picture}`),
    ].join('\n'),
    '-m',
    `Published in the content studio by ${editor}.`,
    '--author',
    `${editor} <${editor.includes('@') ? editor : `${editor}@studio`}>`,
    '--',
    ...paths,
  ]);
  return (await git(['rev-parse', 'HEAD'])).stdout.trim();
}

/** The uploaded pictures (public/images/uploads/…) the published texts name and that exist on disk. */
function uploadsUsedBy(root: string, files: readonly PublishedFile[]): string[] {
  const found = new Set<string>();
  for (const file of files) {
    for (const name of uploadsNamedIn(file.after ?? '')) {
      const relative = `public/images/uploads/${name}`;
      if (existsSync(path.join(root, relative))) found.add(relative);
    }
  }
  return [...found].sort();
}
