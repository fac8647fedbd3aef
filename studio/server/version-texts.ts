// The texts each publish wrote, before and after, kept in .studio/versions/<publish id>.json when the
// project has no git: without them, an older version could not be shown or restored. The publisher
// writes them (publish.ts) and the history reads them (history.ts).
import path from 'node:path';
import { writeFileAtomically } from '../../back-office/files/write-file-atomically.ts';
import type { PublishedFile } from './git.ts';

/** The texts one publish wrote, kept without git. */
export type KeptTexts = { id: string; files: { path: string; before: string | null; after: string | null }[] };

export function keptTextsFile(stateDir: string, id: string): string {
  return path.join(stateDir, 'versions', `${id}.json`);
}

/**
 * Keeps the texts a publish (or an undo, or a restore) wrote, before and after, in
 * .studio/versions/<id>.json: in a project without git, the only copy of each version.
 */
export function keepVersionTexts(stateDir: string, id: string, files: readonly PublishedFile[]): void {
  const kept: KeptTexts = { id, files: files.map(({ path: file, before, after }) => ({ path: file, before, after })) };
  writeFileAtomically(keptTextsFile(stateDir, id), `${JSON.stringify(kept)}\n`);
}
