// A day's salt deleted from the SQLite analytics store leaves no copy of itself in the database's
// files: SQLite keeps a deleted row's bytes in a free page unless told to overwrite them.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteAnalyticsStore } from './sqlite-analytics-store.ts';

let directory: string | undefined;
afterEach(() => {
  if (directory !== undefined) rmSync(directory, { recursive: true, force: true });
  directory = undefined;
});

describe('the SQLite analytics store forgetting a salt', () => {
  it('leaves none of its bytes in the database file', async () => {
    directory = mkdtempSync(path.join(tmpdir(), 'analytics-salt-'));
    const dir = directory;
    const store = openSqliteAnalyticsStore(path.join(dir, 'analytics.sqlite'));
    const yesterday = `yesterday-${'q'.repeat(40)}`;
    expect(await store.saltForDay('2026-11-26', yesterday)).toBe(yesterday);
    await store.saltForDay('2026-11-27', `today-${'z'.repeat(40)}`);
    await store.deleteSaltsBefore('2026-11-27');
    await store.close();
    const holding = readdirSync(dir).filter((name) => readFileSync(path.join(dir, name)).includes(yesterday));
    expect(holding).toEqual([]);
  });
});
