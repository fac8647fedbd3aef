// How the console says things: an alert for what went wrong (announced at once), a polite status
// for what happened, and a screen's loading and error states.
import type { ReactNode } from 'react';
import type { Loaded } from './use-load.ts';

export function ErrorMessage({ id, children }: { id?: string; children: ReactNode }) {
  if (!children) return null;
  return (
    <p className="message message-error" role="alert" id={id}>
      {children}
    </p>
  );
}

/** A live region that is always in the page, so a screen reader hears each new message. */
export function StatusMessage({ children }: { children: ReactNode }) {
  return (
    <p className={children ? 'message message-status' : 'visually-hidden'} role="status">
      {children}
    </p>
  );
}

/** Draws `loaded`'s data, or the loading or error state in its place. */
export function LoadState<T>({ loaded, what, children }: { loaded: Loaded<T>; what: string; children: (data: T) => ReactNode }) {
  if (loaded.status === 'loading') return <p role="status">Loading {what}…</p>;
  if (loaded.status === 'error') return <ErrorMessage>{loaded.error}</ErrorMessage>;
  return <>{children(loaded.data)}</>;
}
