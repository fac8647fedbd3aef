// The one sonner <Toaster>, mounted in the app shell the first time something wants to show a toast,
// so pages without a form never download sonner. Once mounted it stays, so toasts survive client-side
// navigation. `ensureToaster()` resolves after the Toaster listens, so no toast is lost.
import { useTheme } from '@emotion/react';
import { lazy, Suspense, useEffect, useSyncExternalStore, type CSSProperties } from 'react';

// The toast system (sonner) shows 3 toasts for 4000 ms each, 356 px wide,
// 14 px apart, 32 px from the viewport edge.
const TOAST_VISIBLE_COUNT = 3;
const TOAST_DURATION_MS = 4000;
const TOAST_WIDTH_PX = 356;
const TOAST_GAP_PX = 14;
const TOAST_OFFSET_PX = 32;

let wanted = false;
let markReady: () => void = () => {};
const ready = new Promise<void>((resolve) => {
  markReady = resolve;
});
const listeners = new Set<() => void>();

/** Mounts the Toaster if it is not yet, and resolves once it can show toasts. */
export function ensureToaster(): Promise<void> {
  if (!wanted) {
    wanted = true;
    listeners.forEach((listener) => listener());
  }
  return ready;
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

const Toaster = lazy(() => import('sonner').then(({ Toaster }) => ({ default: Toaster })));

/** Runs after the Toaster beside it has subscribed to the toast store (effects run in order). */
function Ready() {
  useEffect(() => markReady(), []);
  return null;
}

export function ToasterHost() {
  const theme = useTheme();
  // Never wanted while prerendering or hydrating, so the server and client markup match.
  const show = useSyncExternalStore(
    subscribe,
    () => wanted,
    () => false,
  );
  if (!show) return null;
  return (
    <Suspense fallback={null}>
      <Toaster
        visibleToasts={TOAST_VISIBLE_COUNT}
        duration={TOAST_DURATION_MS}
        gap={TOAST_GAP_PX}
        offset={TOAST_OFFSET_PX}
        closeButton
        richColors
        style={
          {
            '--width': `${TOAST_WIDTH_PX}px`,
            '--normal-text': theme.colors.text,
            '--success-bg': theme.colors.white,
            '--success-border': theme.colors.success,
            '--success-text': theme.colors.success,
            '--error-bg': theme.colors.white,
            '--error-border': theme.colors.danger,
            '--error-text': theme.colors.danger,
          } as CSSProperties
        }
        toastOptions={{ style: { fontFamily: theme.font.body, fontSize: theme.fontSize.sm } }}
      />
      <Ready />
    </Suspense>
  );
}
