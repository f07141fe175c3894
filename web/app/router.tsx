import type { ComponentType } from 'react';
import { createBrowserRouter, redirect, type RouteObject } from 'react-router';
import { setUnauthorizedHandler } from '@web/lib/api';
import { queryClient } from '@web/lib/query-client';
import i18n from '@web/lib/i18n';
import { authStore, ensureUser } from '@web/features/auth/auth-store';
import Root from './root';
import RouteError from './route-error';
import { AppSkeleton } from './app-skeleton';
import { guestOnly, requireRole, requireUser } from './guards';

/** A screen file exports its component as default; it becomes its own chunk. */
const screen = (load: () => Promise<{ default: ComponentType }>) => async () => ({ Component: (await load()).default });

/** SPEC.md section 2. */
export const routes: RouteObject[] = [
  {
    element: <Root />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <AppSkeleton />,
    children: [
      { path: '/login', loader: guestOnly, lazy: screen(() => import('./routes/login')) },
      {
        path: '/',
        loader: requireUser,
        lazy: screen(() => import('./layout/main-layout')),
        errorElement: <RouteError />,
        children: [
          {
            errorElement: <RouteError />,
            children: [
              // The role's own dashboard chunk at once (the user is loaded anyway), not after a
              // chooser chunk: one round trip less before the home paints.
              {
                index: true,
                lazy: screen(async () => {
                  const user = await ensureUser();
                  if (user?.role.name === 'student') return import('./routes/student-dashboard');
                  if (user?.role.name === 'teacher') return import('./routes/teacher-dashboard');
                  return import('./routes/dashboard');
                }),
              },
              { path: 'students', loader: requireRole('teacher'), lazy: screen(() => import('./routes/students')) },
              { path: 'students/:id', loader: requireRole('teacher'), lazy: screen(() => import('./routes/student-detail')) },
              { path: 'courses', loader: requireRole('teacher'), lazy: screen(() => import('./routes/courses')) },
              { path: 'exercises', loader: requireRole('teacher'), lazy: screen(() => import('./routes/exercises')) },
              { path: 'review', loader: requireRole('teacher'), lazy: screen(() => import('./routes/review-inbox')) },
              { path: 'submissions', loader: requireRole('student'), lazy: screen(() => import('./routes/submissions')) },
              { path: 'submissions/:id', loader: requireUser, lazy: screen(() => import('./routes/submission-detail')) },
              { path: 'tools', loader: requireUser, lazy: screen(() => import('./routes/tools')) },
            ],
          },
        ],
      },
      { path: '*', loader: () => redirect('/') },
    ],
  },
];

export function createAppRouter() {
  const router = createBrowserRouter(routes);
  // A 401 on any call but /api/login: the session is over.
  setUnauthorizedHandler(() => {
    authStore.clear();
    queryClient.clear();
    void import('@web/features/offline/lib/persist').then((m) => m.forgetDeviceData());
    if (router.state.location.pathname !== '/login') void router.navigate('/login', { replace: true });
  });
  // Server texts (labels, messages) come in the request language: refetch what is on screen.
  i18n.on('languageChanged', () => void queryClient.invalidateQueries());
  return router;
}
