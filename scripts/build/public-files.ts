// The files of public/ that go into the built site: all of them, except pictures uploaded in the
// content studio (public/images/uploads/) that no published page, article or site setting uses. The
// studio stores an upload there as soon as it is sent, under a name taken from the uploaded file; if
// every build copied them all, an unpublished picture would be on the live site for anyone who guesses
// its name, and the live site would hold files git does not.
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { isReallyInside } from '../../content-model/load/content-files.ts';
import type { ContentBundle } from '../../content-model/load/load-content.ts';
import { uploadsNamedIn } from '../../content-model/uploads.ts';

const UPLOADS = path.join('images', 'uploads');

/** The uploads (paths below public/images/uploads/, with `/`) that the content, drafts left out, names. */
export function uploadsUsedBy(content: ContentBundle): Set<string> {
  const texts = [
    JSON.stringify(content.site),
    ...content.pages.map(({ page }) => JSON.stringify(page)),
    ...content.posts.flatMap(({ meta, body }) => [JSON.stringify(meta), body]),
  ];
  return new Set(texts.flatMap(uploadsNamedIn));
}

/**
 * Copies public/ into `clientDir` as Vite would, leaving out the uploads no published content uses,
 * and any symbolic link that leads out of public/ (a `git pull` can bring one): the live site must not
 * serve a file from elsewhere on the server under a picture's name.
 */
export function copyPublicFiles({ publicDir, clientDir, content }: { publicDir: string; clientDir: string; content: ContentBundle }) {
  if (!existsSync(publicDir)) return;
  const used = uploadsUsedBy(content);
  const uploadsDir = path.join(publicDir, UPLOADS);
  const wanted = (file: string) => {
    const relative = path.relative(uploadsDir, file);
    if (relative.startsWith('..') || path.isAbsolute(relative)) return true;
    return used.has(relative.split(path.sep).join('/'));
  };
  copyTree(publicDir, clientDir, (file) => isReallyInside(file, publicDir) && wanted(file));
}

function copyTree(from: string, to: string, wanted: (file: string) => boolean) {
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from)) {
    const source = path.join(from, name);
    // A link to nothing is left out, as a file that is not there.
    if (!existsSync(source)) continue;
    if (statSync(source).isDirectory()) copyTree(source, path.join(to, name), wanted);
    else if (wanted(source)) copyFileSync(source, path.join(to, name));
  }
}
