/**
 * The screens a phone most often opens first, each with its route's file. The build writes their
 * script files into web/warm-up.js, which asks for them while the app's script is still on its way
 * (vite.config.ts, warmUp; docs/decisions/first-load-on-a-phone.md). Plain data: the build reads
 * it too. `first-screens.test.ts` keeps it in step with the router.
 */
export type FirstScreen = {
  /** A regular expression for `location.pathname`. */
  path: string;
  /** Only for this role (the home's screen depends on it); any signed-in user without. */
  role?: 'student' | 'teacher';
  /** The route's file, from the project's root. */
  module: string;
  /** An address the router leads to `module` (the test's). */
  example: string;
  /**
   * The screen's first reads, started by the warm-up script with the stored token and taken over
   * by `api()` (web/lib/warm-reads.ts): the app's exact addresses, `$1` for the path's first group
   * and `$lang` for the app's language. Each must be one the router's loader asks for.
   */
  reads?: string[];
};

/** The signed-in layout, around every screen below. */
export const SIGNED_IN_LAYOUT = 'web/app/layout/main-layout.tsx';

export const FIRST_SCREENS: FirstScreen[] = [
  { path: '^/$', role: 'student', module: 'web/app/routes/student-dashboard.tsx', example: '/' },
  { path: '^/$', role: 'teacher', module: 'web/app/routes/teacher-dashboard.tsx', example: '/' },
  { path: '^/submissions/?$', role: 'student', module: 'web/app/routes/submissions.tsx', example: '/submissions' },
  {
    path: '^/submissions/(\\d+)/?$',
    role: 'student',
    module: 'web/app/routes/submission-detail.tsx',
    example: '/submissions/7',
    reads: ['/api/submissions/$1', '/api/submissions/$1/recordings?language=$lang', '/api/submissions/$1/practice-sessions?limit=200', '/api/submissions/$1/practice-sessions/active'],
  },
  {
    path: '^/submissions/(\\d+)/?$',
    module: 'web/app/routes/submission-detail.tsx',
    example: '/submissions/7',
    reads: ['/api/submissions/$1', '/api/submissions/$1/recordings?language=$lang', '/api/submissions/$1/practice-sessions?limit=200'],
  },
  { path: '^/students/?$', role: 'teacher', module: 'web/app/routes/students.tsx', example: '/students' },
  { path: '^/review/?$', role: 'teacher', module: 'web/app/routes/review-inbox.tsx', example: '/review' },
  { path: '^/tools/?$', module: 'web/app/routes/tools.tsx', example: '/tools' },
  { path: '^/nachrichten(/\\d+)?/?$', module: 'web/app/routes/messages.tsx', example: '/nachrichten' },
];
