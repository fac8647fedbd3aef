// The one sonner <Toaster>, a React root of its own at the end of <body>, mounted the first time
// something wants to show a toast, so pages without a form never download sonner. It sits outside the
// page content, so toasts survive client-side navigation. `ensureToaster()` resolves after the Toaster
// listens, so no toast is lost. It takes the theme of the component that asks for the first toast,
// which is the site's theme: every island renders inside the site's providers.
import { ThemeProvider, useTheme, type Theme } from '@emotion/react';
import { lazy, Suspense, useEffect, type CSSProperties } from 'react';

// The toast system (sonner) shows 3 toasts for 4000 ms each, 356 px wide,
// 14 px apart, 32 px from the viewport edge.
const TOAST_VISIBLE_COUNT = 3;
const TOAST_DURATION_MS = 4000;
const TOAST_WIDTH_PX = 356;
const TOAST_GAP_PX = 14;
const TOAST_OFFSET_PX = 32;

/** Marks the Toaster's container element. */
export const TOASTER_ATTRIBUTE = 'data-toaster';

let mounting: Promise<void> | undefined;
let markReady: () => void = () => {};
const ready = new Promise<void>((resolve) => {
  markReady = resolve;
});

/** Mounts the Toaster if it is not yet, and resolves once it can show toasts. */
export function ensureToaster(theme: Theme): Promise<void> {
  mounting ??= import('react-dom/client').then(({ createRoot }) => {
    const container = document.createElement('div');
    container.setAttribute(TOASTER_ATTRIBUTE, '');
    document.body.append(container);
    createRoot(container).render(
      <ThemeProvider theme={theme}>
        <ToasterHost />
      </ThemeProvider>,
    );
  });
  return mounting.then(() => ready);
}

const Toaster = lazy(() => import('sonner').then(({ Toaster }) => ({ default: Toaster })));

/** Runs after the Toaster beside it has subscribed to the toast store (effects run in order). */
function Ready() {
  useEffect(() => markReady(), []);
  return null;
}

function ToasterHost() {
  const theme = useTheme();
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
