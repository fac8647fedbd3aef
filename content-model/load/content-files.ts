// Where a content file or a picture really is. Files are read only from inside their own folder, links
// followed: a symbolic link (which a `git pull` can bring) or a path with ".." could otherwise hand any
// file on the server to the studio, the build or the content check.
import { realpathSync } from 'node:fs';
import path from 'node:path';

export const LINK_OUTSIDE_CONTENT =
  'This file is a link to a file kept elsewhere, which the site does not read: replace it with the file itself.';

/** Whether `file`, which exists, lies inside `dir` once symbolic links in both are followed. */
export function isReallyInside(file: string, dir: string): boolean {
  return isInside(realpathSync(file), realpathSync(dir));
}

/** Whether the path `file` is below `dir`, by their names alone. */
export function isInside(file: string, dir: string): boolean {
  const relative = path.relative(dir, file);
  return relative !== '' && relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}
