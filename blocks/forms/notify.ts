// Shows a form's toast through the one sonner <Toaster> mounted in the app shell (renderer/Layout.tsx).
import { toast } from 'sonner';
import type { ToastSpec } from './form-spec.ts';

export function showToast({ title, description, variant }: ToastSpec): void {
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
