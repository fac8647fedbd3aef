// Writing a file so that a reader never sees half of it, and a crash leaves the old file or the new
// one, never a mix: the text goes to a file of its own beside the target, which then replaces the
// target in one rename. A rename also replaces a hard link instead of writing into the file it
// shares with another folder (a build made from a hard-linked copy of another).
import { randomUUID } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export function writeFileAtomically(target: string, text: string): void {
  mkdirSync(path.dirname(target), { recursive: true });
  const temporary = `${target}.${randomUUID()}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, target);
}
