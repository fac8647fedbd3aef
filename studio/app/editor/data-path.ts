// The file's data changed at one place, the way the form changes it: a value set (or removed) at a
// path, a list item moved. Pure and immutable (immer), so the editor, the autosave and the tests
// share one definition of what an edit does.
import { produce } from 'immer';
import type { DataPath } from '../editor-context.tsx';

/** `root` with `value` at `path`; `undefined` removes an object's property. Missing objects and lists on the way are made. */
export function setIn(root: unknown, path: DataPath, value: unknown): unknown {
  if (path.length === 0) return value;
  return produce({ root } as { root: unknown }, (draft) => {
    let node = draft as unknown as Record<string | number, unknown>;
    const keys: (string | number)[] = ['root', ...path];
    for (let i = 0; i < keys.length - 1; i++) {
      const key = keys[i]!;
      if (typeof node[key] !== 'object' || node[key] === null) node[key] = typeof keys[i + 1] === 'number' ? [] : {};
      node = node[key] as Record<string | number, unknown>;
    }
    const last = keys.at(-1)!;
    if (value === undefined && !Array.isArray(node)) delete node[last];
    else node[last] = value;
  }).root;
}

/** `root` with the list item at `path` moved by `offset` places; a move past either end changes nothing. */
export function moveIn(root: unknown, path: DataPath, offset: number): unknown {
  const index = path.at(-1);
  if (typeof index !== 'number') return root;
  return produce({ root } as { root: unknown }, (draft) => {
    let list = (draft as { root: unknown }).root as Record<string | number, unknown>;
    for (const key of path.slice(0, -1)) list = list[key] as Record<string | number, unknown>;
    if (!Array.isArray(list)) return;
    const target = index + offset;
    if (target < 0 || target >= list.length) return;
    const [item] = list.splice(index, 1);
    list.splice(target, 0, item);
  }).root;
}
