import { useState } from 'react';
import { Link } from 'react-router';
import { LogOut } from 'lucide-react';
import { Button } from '@web/components/ui/button';

/**
 * A link page opened in a browser where someone is signed in: sign out and stay here (the page then
 * shows what the link is for), or go back home.
 */
export function SignOutFirstActions({ signOutLabel, homeLabel, onSignOut }: { signOutLabel: string; homeLabel: string; onSignOut: () => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  return (
    <div className="mt-6 flex flex-col gap-2">
      <Button
        fullWidth
        size="lg"
        icon={<LogOut aria-hidden="true" className="size-4" />}
        loading={busy}
        onClick={async () => {
          setBusy(true);
          try {
            await onSignOut();
          } finally {
            setBusy(false);
          }
        }}
      >
        {signOutLabel}
      </Button>
      <Link
        to="/"
        className="inline-flex h-12 items-center justify-center rounded-lg text-sm font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900"
      >
        {homeLabel}
      </Link>
    </div>
  );
}
