import { StrictMode, startTransition, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { QueryClientProvider } from '@tanstack/react-query';
import { PersistQueryClientProvider } from '@tanstack/react-query-persist-client';
import { I18nextProvider } from 'react-i18next';
import i18n, { i18nReady } from '@web/lib/i18n';
import { queryClient } from '@web/lib/query-client';
import { createAppRouter } from '@web/app/router';
import { rememberedSessionUser } from '@web/lib/auth/auth-store';
import { persistOptions } from '@web/lib/persist';
import { watchFirstScreen } from '@web/lib/first-screen';
import { localToday } from '@web/lib/today';
import { nextTask } from '@web/lib/next-task';
import { markAppStarted } from '@web/lib/warm-reads';
import './styles.css';

// From here on the warm-up script (web/warm-up.js) leaves the first screen's reads and files to the app.
markAppStarted();

// Inter where the service worker has it precached (styles.css): a first visit downloads no font.
if (typeof navigator !== 'undefined' && navigator.serviceWorker?.controller) document.documentElement.dataset.font = 'inter';

/**
 * A student's queries are kept in IndexedDB and restored before the first fetch (docs/decisions/offline-practice.md: the
 * task list readable in a room without signal); everyone else's stay in memory only.
 */
function Queries({ children }: { children: ReactNode }) {
  const user = rememberedSessionUser();
  if (user?.role.name === 'student') {
    return (
      <PersistQueryClientProvider client={queryClient} persistOptions={persistOptions(queryClient, String(user.id))}>
        {children}
      </PersistQueryClientProvider>
    );
  }
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}

/**
 * The start in four tasks instead of one (docs/decisions/first-load-on-a-phone.md, "The start in
 * steps"): the modules' evaluation (React DOM, the router, i18next with the German texts) ends
 * here; the first date formatter loads ICU's data; the router then starts the first navigation
 * (the screen's chunk and its data are requested); the first render follows once the texts are
 * there (a Turkish start waits for its texts' chunk), as a transition: React draws it in short
 * slices that let the browser paint and answer input in between.
 */
async function start() {
  await nextTask();
  // The page's first Intl object loads ICU's data (25-45 ms on a slow machine): in a task of its
  // own, not inside the router's start, whose loaders ask for today's date.
  localToday();
  await nextTask();
  const router = createAppRouter();
  const firstScreen = watchFirstScreen(() => router.state.initialized && router.state.navigation.state === 'idle' && queryClient.isFetching() === 0);
  registerServiceWorkerAfter(firstScreen);
  await Promise.all([i18nReady, nextTask()]);
  const root = createRoot(document.getElementById('root')!);
  startTransition(() =>
    root.render(
      <StrictMode>
        <I18nextProvider i18n={i18n}>
          <Queries>
            <RouterProvider router={router} />
          </Queries>
        </I18nextProvider>
      </StrictMode>,
    ),
  );
}

/**
 * The service worker (offline app, web/sw.ts) once the first screen is there (web/lib/first-screen.ts)
 * and the page has loaded. Registering it fetches its code and then precaches
 * every chunk of the app: on a phone's line that must not compete with the screen's own chunks and
 * reads, which the load event does not wait for (docs/decisions/first-load-on-a-phone.md).
 */
function registerServiceWorkerAfter(firstScreen: Promise<void>): void {
  if (!import.meta.env.PROD || import.meta.env.VITE_NO_SW || !('serviceWorker' in navigator)) return;
  const loaded = new Promise<void>((resolve) => {
    if (document.readyState === 'complete') resolve();
    else window.addEventListener('load', () => resolve(), { once: true });
  });
  void Promise.all([loaded, firstScreen]).then(() => import('@web/features/offline/lib/pwa').then((m) => m.registerServiceWorker()));
}

void start();
