// Shows a form's toast through the one sonner <Toaster> in the app shell (renderer/ToasterHost.tsx).
// sonner loads with the first toast, so it is not part of any page's first load.
import { ensureToaster } from '../renderer/ToasterHost.tsx';
import type { ToastSpec } from './form-spec.ts';

export async function showToast({ title, description, variant }: ToastSpec): Promise<void> {
  const [{ toast }] = await Promise.all([import('sonner'), ensureToaster()]);
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
