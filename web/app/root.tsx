import { Outlet } from 'react-router';
import { ToastProvider } from '@web/components/ui/toast';
import { ConfirmProvider } from '@web/components/ui/confirm-dialog';
import { AuthProvider } from '@web/lib/auth/auth-provider';
import { UpdateBanner } from '@web/features/offline/components/update-banner';

/** Top of the route tree: toasts, confirmations and the session for every page. */
export default function Root() {
  return (
    <ToastProvider>
      <ConfirmProvider>
        <AuthProvider>
          <Outlet />
          <UpdateBanner />
        </AuthProvider>
      </ConfirmProvider>
    </ToastProvider>
  );
}
