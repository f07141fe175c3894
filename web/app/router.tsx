import type { ComponentType } from 'react';
import { createBrowserRouter, redirect, type RouteObject } from 'react-router';
import { setUnauthorizedHandler } from '@web/lib/api';
import { queryClient } from '@web/lib/query-client';
import i18n from '@web/lib/i18n';
import { authStore } from '@web/features/auth/auth-store';
import Root from './root';
import RouteError from './route-error';
import { PageSpinner } from '@web/components/ui/spinner';
import { guestOnly, requireRole, requireUser } from './guards';

/** A screen file exports its component as default; it becomes its own chunk. */
const screen = (load: () => Promise<{ default: ComponentType }>) => async () => ({ Component: (await load()).default });

/** SPEC.md section 2. */
export const routes: RouteObject[] = [
  {
    element: <Root />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <PageSpinner />,
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
              { index: true, lazy: screen(() => import('./routes/dashboard')) },
              { path: 'students', loader: requireRole('teacher'), lazy: screen(() => import('./routes/students')) },
              { path: 'students/:id', loader: requireRole('teacher'), lazy: screen(() => import('./routes/student-detail')) },
              { path: 'courses', loader: requireRole('teacher'), lazy: screen(() => import('./routes/courses')) },
              { path: 'exercises', loader: requireRole('teacher'), lazy: screen(() => import('./routes/exercises')) },
              { path: 'submissions', loader: requireRole('student'), lazy: screen(() => import('./routes/submissions')) },
              { path: 'submissions/:id', loader: requireUser, lazy: screen(() => import('./routes/submission-detail')) },
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
    if (router.state.location.pathname !== '/login') void router.navigate('/login', { replace: true });
  });
  // Server texts (labels, messages) come in the request language: refetch what is on screen.
  i18n.on('languageChanged', () => void queryClient.invalidateQueries());
  return router;
}
