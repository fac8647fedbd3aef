// Shows a form's toast through the one sonner <Toaster> of the page (ui/page/ToasterHost.tsx).
// sonner loads with the first toast, so it is not part of any page's first load.
import { ensureToaster } from '../ui/page/ToasterHost.tsx';
import type { Theme } from '@emotion/react';
import type { ToastSpec } from './form-spec.ts';

/** `theme` is the site's, as the form showing the toast reads it. */
export async function showToast({ title, description, variant }: ToastSpec, theme: Theme): Promise<void> {
  const [{ toast }] = await Promise.all([import('sonner'), ensureToaster(theme)]);
  switch (variant) {
    case 'destructive':
      toast.error(title, { description });
      return;
    case 'success':
      toast.success(title, { description });
      return;
    default:
      toast(title, { description });
  }
}
