import type { ReactNode } from 'react';
import { Outlet } from 'react-router';
import { ToastProvider, useToast } from '@web/components/ui/toast';
import { ConfirmProvider } from '@web/components/ui/confirm-dialog';
import { AuthProvider } from '@web/lib/auth/auth-provider';
import { UpdateBanner } from '@web/features/offline/components/update-banner';

/** The session with the app's toasts for its messages (lib and components do not import each other). */
function Session({ children }: { children: ReactNode }) {
  const toast = useToast();
  return <AuthProvider notify={toast.success}>{children}</AuthProvider>;
}

/** Top of the route tree: toasts, confirmations and the session for every page. */
export default function Root() {
  return (
    <ToastProvider>
      <ConfirmProvider>
        <Session>
          <Outlet />
          <UpdateBanner />
        </Session>
      </ConfirmProvider>
    </ToastProvider>
  );
}
