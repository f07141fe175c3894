import type { ComponentType } from 'react';
import { createBrowserRouter, matchRoutes, redirect, type RouteObject } from 'react-router';
import { setUnauthorizedHandler } from '@web/lib/api';
import { getSelectedCourseId } from '@web/lib/storage';
import { queryClient } from '@web/lib/query-client';
import { nextTask } from '@web/lib/next-task';
import i18n from '@web/lib/i18n';
import { authStore, ensureUser, rememberedSessionUser } from '@web/lib/auth/auth-store';
import Root from './root';
import RouteError from './route-error';
import { AppSkeleton } from './app-skeleton';
import { guestOnly, requireRole, requireUser } from './guards';
// The first reads of the student's and the teacher's screens (small modules of query options):
// part of the app's script, so a screen's data is requested right away, beside its chunk.
import { myMetricsQueryOptions, currentSeriesQueryOptions } from '@web/features/progress/api/progress';
import { submissionCountsQueryOptions, submissionPagesQueryOptions, submissionQueryOptions } from '@web/features/tasks/api/task-queries';
import { teacherAttentionQueryOptions, teacherDashboardQueryOptions } from '@web/features/dashboard/api/dashboard';
import { calendarEventsQueryOptions } from '@web/features/calendar/api/calendar-events';
import { agendaWeek } from '@web/features/calendar/lib/agenda';
import { studentsProgressQueryOptions, studentsQueryOptions } from '@web/features/students/api/students';
import { recordingListQueryOptions } from '@web/features/recordings/api/recording-queries';
import { activeSessionQueryOptions, sessionsQueryOptions } from '@web/features/practice/api/practice-sessions';

/**
 * A screen's first data calls, started while its chunk loads (React Router runs a route's loader
 * beside its lazy import): the data no longer waits for the chunk. Never waited for; a failure
 * shows on the screen as before.
 */
function prefetch(...reads: Array<Promise<unknown>>): null {
  for (const read of reads) void read.catch(() => undefined);
  return null;
}
/** The teacher's home: the counts, the "needs attention" card (its largest paint) and the agenda's week, what it shows first. */
function prefetchTeacherHome(): null {
  const courseId = getSelectedCourseId();
  return prefetch(
    queryClient.prefetchQuery(teacherDashboardQueryOptions(courseId)),
    queryClient.prefetchQuery(teacherAttentionQueryOptions(courseId)),
    queryClient.prefetchQuery(calendarEventsQueryOptions(agendaWeek(), courseId)),
  );
}

/** The students list and its progress figures. */
function prefetchStudents(): null {
  const courseId = getSelectedCourseId();
  return prefetch(queryClient.prefetchQuery(studentsQueryOptions(courseId)), queryClient.prefetchQuery(studentsProgressQueryOptions(courseId)));
}

/**
 * A teacher known from the last visit on this device: their screen's reads start before
 * GET /api/user answers (the screen itself still waits for it). A read of the wrong role would
 * only get its 403; a fresh or running read is not asked twice.
 */
const knownTeacher = () => rememberedSessionUser()?.role.name === 'teacher';

/**
 * A task (the practice screen): the task, its takes (the newest feedback leads the screen) and its
 * practice sessions, all beside the screen's chunk (a teacher's also the takes' chunk); once the task is there, the signed link of
 * the score it shows first. Started before the user is confirmed: a remembered student's user is
 * there at once, anyone else's read of a task not theirs only gets its 403 or 404.
 */
function prefetchTask(id: number): null {
  const student = rememberedSessionUser()?.role.name !== 'teacher';
  // A teacher's task leads with the takes: their chunk beside the screen's (a student's waits until below the first screen is drawn).
  if (!student) void import('@web/features/recordings/components/recordings-section').catch(() => undefined);
  const task = queryClient.fetchQuery(submissionQueryOptions(id));
  void task
    .then(async (t) => {
      const files = t.exercise?.media_files ?? [];
      const score = [files.find((f) => f.type === 'image'), files.find((f) => f.type === 'pdf')].filter((f) => f !== undefined);
      if (!score.length) return;
      const { mediaUrlQueryOptions } = await import('@web/features/media/api/get-media-url');
      for (const f of score) void queryClient.prefetchQuery(mediaUrlQueryOptions(f.path, t.exercise?.id ?? null));
    })
    .catch(() => undefined);
  return prefetch(
    task,
    queryClient.prefetchQuery(recordingListQueryOptions(id)),
    queryClient.prefetchQuery(sessionsQueryOptions(id)),
    ...(student ? [queryClient.prefetchQuery(activeSessionQueryOptions(id))] : []),
  );
}

const validId = (raw: string | undefined) => (raw && /^[1-9]\d{0,9}$/.test(raw) && Number(raw) <= 2147483647 ? Number(raw) : null);

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
      // docs/decisions/password-reset.md: "Passwort vergessen?" asks for the address; the mailed link sets a new password.
      { path: '/passwort-vergessen', loader: guestOnly, lazy: screen(() => import('./routes/forgot-password')) },
      { path: '/passwort-neu/:token', lazy: screen(() => import('./routes/reset-password')) },
      // docs/decisions/reminders.md: the "Abbestellen" link of a reminder mail (public: the signed token is the permission).
      { path: '/abmelden/:token', lazy: screen(() => import('./routes/unsubscribe')) },
      // docs/decisions/schools-and-roles.md: an invitation link (teacher or guardian) sets the password; open to anyone holding it.
      { path: '/einladung/:token', lazy: screen(() => import('./routes/invite-accept')) },
      // docs/decisions/schools-and-roles.md: the printable report, without the app's navigation (nothing but the sheet prints).
      { path: '/students/:id/report', loader: requireRole('teacher'), lazy: screen(() => import('./routes/student-report')) },
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
                loader: async () => {
                  if (knownTeacher()) prefetchTeacherHome();
                  const user = await ensureUser();
                  if (user?.role.name === 'teacher') return prefetchTeacherHome();
                  if (user?.role.name !== 'student') return null;
                  return prefetch(queryClient.prefetchQuery(myMetricsQueryOptions()), queryClient.prefetchQuery(currentSeriesQueryOptions()));
                },
                lazy: screen(async () => {
                  // A remembered teacher's chunk loads beside GET /api/user (the import below then
                  // finds it); a remembered student's user is there at once anyway (ensureUser).
                  if (knownTeacher()) void import('./routes/teacher-dashboard');
                  const user = await ensureUser();
                  if (user?.role.name === 'student') return import('./routes/student-dashboard');
                  if (user?.role.name === 'teacher') return import('./routes/teacher-dashboard');
                  if (user?.role.name === 'admin') return import('./routes/school-dashboard');
                  if (user?.role.name === 'guardian') return import('./routes/guardian-dashboard');
                  return import('./routes/dashboard');
                }),
              },
              {
                path: 'students',
                loader: async () => {
                  if (knownTeacher()) prefetchStudents();
                  await requireRole('teacher')();
                  return prefetchStudents();
                },
                lazy: screen(() => import('./routes/students')),
              },
              { path: 'students/:id', loader: requireRole('teacher'), lazy: screen(() => import('./routes/student-detail')) },
              { path: 'courses', loader: requireRole('teacher'), lazy: screen(() => import('./routes/courses')) },
              { path: 'exercises', loader: requireRole('teacher'), lazy: screen(() => import('./routes/exercises')) },
              { path: 'review', loader: requireRole('teacher'), lazy: screen(() => import('./routes/review-inbox')) },
              {
                path: 'submissions',
                loader: async ({ request }) => {
                  await requireRole('student')();
                  const tab = new URL(request.url).searchParams.get('tab');
                  const courseId = getSelectedCourseId();
                  return prefetch(
                    queryClient.prefetchInfiniteQuery(submissionPagesQueryOptions(courseId, tab === 'open' || tab === 'completed' ? tab : 'all')),
                    queryClient.prefetchQuery(submissionCountsQueryOptions(courseId)),
                  );
                },
                lazy: screen(() => import('./routes/submissions')),
              },
              {
                path: 'submissions/:id',
                loader: async ({ params }) => {
                  const id = validId(params.id);
                  if (id !== null && authStore.get().token) prefetchTask(id);
                  await requireUser();
                  return null;
                },
                lazy: screen(() => import('./routes/submission-detail')),
              },
              { path: 'tools', loader: requireUser, lazy: screen(() => import('./routes/tools')) },
              { path: 'benachrichtigungen', loader: requireRole('student', 'guardian'), lazy: screen(() => import('./routes/notifications')) },
              // docs/decisions/messages.md: one conversation per student between the student, the teacher and the parents.
              { path: 'nachrichten/:studentId?', loader: requireRole('teacher', 'student', 'guardian'), lazy: screen(() => import('./routes/messages')) },
              // docs/decisions/schools-and-roles.md: the school's administration and the parents' view.
              { path: 'school/teachers', loader: requireRole('admin'), lazy: screen(() => import('./routes/school-teachers')) },
              { path: 'school/students', loader: requireRole('admin'), lazy: screen(() => import('./routes/school-students')) },
              { path: 'school/audit', loader: requireRole('admin'), lazy: screen(() => import('./routes/school-audit')) },
              { path: 'children/:id', loader: requireRole('guardian'), lazy: screen(() => import('./routes/guardian-child')) },
            ],
          },
        ],
      },
      { path: '*', loader: () => redirect('/') },
    ],
  },
];

/**
 * The next screen's chunk, loaded when a link to it is pointed at, touched or focused: by the time
 * the click lands its code is there (or on its way), so the screen waits only for its data. Only
 * code, no data: a link passed over costs one cached request at most. The same lazy functions that
 * React Router calls, so nothing is loaded twice.
 */
const preloaded = new WeakSet<RouteObject>();
function preloadScreenAt(pathname: string) {
  for (const { route } of matchRoutes(routes, pathname) ?? []) {
    if (typeof route.lazy !== 'function' || preloaded.has(route)) continue;
    preloaded.add(route);
    void Promise.resolve(route.lazy()).catch(() => preloaded.delete(route));
  }
}
function preloadOnIntent(event: Event) {
  const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
  if (!(link instanceof HTMLAnchorElement) || link.origin !== window.location.origin || link.target === '_blank') return;
  preloadScreenAt(link.pathname);
}

/**
 * Every route's loader and screen import in a task of its own. The router starts the first
 * navigation by calling them all at once (the layout's and the screen's, each loader beside its
 * import); their requests, the preload links of each chunk and the reads' set-up were one task of
 * 130-180 ms at a phone's speed, counted whole into the page's blocking time. Each now runs after
 * a yield, in the order the router called them (docs/decisions/first-load-on-a-phone.md).
 */
function inOwnTasks(list: RouteObject[]): RouteObject[] {
  return list.map((route) => {
    const { loader, lazy, children } = route;
    const copy = { ...route } as RouteObject & { children?: RouteObject[] };
    if (typeof loader === 'function') {
      copy.loader = async (...args: Parameters<typeof loader>) => {
        await nextTask();
        return loader(...args);
      };
    }
    if (typeof lazy === 'function') {
      copy.lazy = async () => {
        await nextTask();
        return lazy();
      };
    }
    if (children) copy.children = inOwnTasks(children);
    return copy;
  });
}

export function createAppRouter() {
  const router = createBrowserRouter(inOwnTasks(routes));
  for (const type of ['pointerover', 'focusin', 'touchstart'] as const) document.addEventListener(type, preloadOnIntent, { capture: true, passive: true });
  // A 401 on any call but /api/login: the session is over.
  setUnauthorizedHandler(() => {
    authStore.clear();
    queryClient.clear();
    void import('@web/lib/persist').then((m) => m.forgetDeviceData());
    if (router.state.location.pathname !== '/login') void router.navigate('/login', { replace: true });
  });
  // Server texts (labels, messages) come in the request language: refetch what is on screen.
  i18n.on('languageChanged', () => void queryClient.invalidateQueries());
  return router;
}
