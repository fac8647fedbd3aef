// Loads what a screen shows, with the three states every screen draws: loading, an error (the
// server's sentence) and the data. `reload` fetches again after a change; an answer that arrives
// after the screen moved on is dropped.
import { useCallback, useEffect, useRef, useState } from 'react';
import { messageOf } from '../api.ts';

export type Loaded<T> =
  | { readonly status: 'loading'; readonly data?: undefined; readonly error?: undefined }
  | { readonly status: 'error'; readonly data?: undefined; readonly error: string }
  | { readonly status: 'ready'; readonly data: T; readonly error?: undefined };

export function useLoad<T>(load: () => Promise<T>, key: string): Loaded<T> & { reload(): void } {
  const [state, setState] = useState<Loaded<T>>({ status: 'loading' });
  const [generation, setGeneration] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  const shownKey = useRef(key);

  useEffect(() => {
    let current = true;
    // A reload keeps the data on screen until the new answer comes; other data starts afresh.
    if (shownKey.current !== key) setState({ status: 'loading' });
    shownKey.current = key;
    loadRef.current().then(
      (data) => current && setState({ status: 'ready', data }),
      (failure: unknown) => current && setState({ status: 'error', error: messageOf(failure) }),
    );
    return () => {
      current = false;
    };
  }, [key, generation]);

  const reload = useCallback(() => setGeneration((count) => count + 1), []);
  return { ...state, reload };
}
