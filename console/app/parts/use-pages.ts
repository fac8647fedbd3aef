// A list the server hands out page by page, newest first: the first page when `key` changes (or on
// `reload`), then "older" appends the next page through the server's cursor. An answer that arrives
// after the list moved on is dropped.
import { useCallback, useEffect, useRef, useState } from 'react';
import { messageOf } from '../api.ts';

export type Pages<T> = {
  status: 'loading' | 'ready' | 'error';
  items: T[];
  next: string | null;
  /** Why the first page or an older page did not load. */
  error: string;
  loadingOlder: boolean;
};

const FIRST: Pages<never> = { status: 'loading', items: [], next: null, error: '', loadingOlder: false };

export function usePages<T>(
  loadPage: (after: string | null) => Promise<{ items: T[]; next: string | null }>,
  key: string,
): Pages<T> & { loadOlder(): Promise<void>; reload(): void } {
  const [pages, setPages] = useState<Pages<T>>(FIRST);
  const [generation, setGeneration] = useState(0);
  const loadRef = useRef(loadPage);
  loadRef.current = loadPage;
  const latest = useRef(0);

  useEffect(() => {
    const request = ++latest.current;
    setPages(FIRST);
    loadRef.current(null).then(
      (page) => request === latest.current && setPages({ ...FIRST, status: 'ready', items: page.items, next: page.next }),
      (failure: unknown) => request === latest.current && setPages({ ...FIRST, status: 'error', error: messageOf(failure) }),
    );
  }, [key, generation]);

  const { next } = pages;
  const loadOlder = useCallback(async () => {
    if (!next) return;
    const request = latest.current;
    setPages((previous) => ({ ...previous, loadingOlder: true, error: '' }));
    try {
      const page = await loadRef.current(next);
      if (request !== latest.current) return;
      setPages((previous) => ({ ...previous, items: [...previous.items, ...page.items], next: page.next, loadingOlder: false }));
    } catch (failure) {
      if (request !== latest.current) return;
      setPages((previous) => ({ ...previous, loadingOlder: false, error: messageOf(failure) }));
    }
  }, [next]);

  const reload = useCallback(() => setGeneration((count) => count + 1), []);
  return { ...pages, loadOlder, reload };
}
