import { defineConfig, minifySync, type Plugin, type Rollup } from 'vite';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import react, { reactCompilerPreset } from '@vitejs/plugin-react';
import babel from '@rolldown/plugin-babel';
import tailwindcss from '@tailwindcss/vite';
import { VitePWA } from 'vite-plugin-pwa';
import { fileURLToPath } from 'node:url';
import { manifestFor } from './web/pwa-manifest';
import { FIRST_SCREENS, SIGNED_IN_LAYOUT } from './web/app/first-screens';
import pkg from './package.json' with { type: 'json' };

/**
 * What the signed-in layout and the student's screens share (cards, badges, the outbox and its
 * indicator, the recordings' uploads, the task writes, the course choice): one chunk instead of
 * twenty small ones, each a request a phone makes before the screen can paint (docs/decisions/first-load-on-a-phone.md). The
 * sign-in page's parts stay out (SIGN_IN): /login's budget.
 */
const SHELL_PATHS = [
  /\/web\/components\/ui\/(badge|card|status-badge|page-header|stat-card|when-visible)\.tsx$/,
  /\/web\/features\/offline\/(?!lib\/pwa\.ts$)/, // the service worker's registration loads on /login too
  /\/web\/features\/course-selection\//,
  /\/web\/features\/recordings\/(lib|api)\//,
  /\/web\/features\/recordings\/components\/feedback-badges\.tsx$/,
  /\/web\/lib\/storage-errors\.ts$/, // the refusal texts of a take that the outbox and the recorder share
  /\/web\/features\/tasks\/(api|lib)\//,
  /\/web\/features\/guardians\/api\/children\.ts$/,
  /\/web\/features\/calendar\/components\/calendar-subscription\.tsx$/,
  /\/web\/features\/progress\/components\/learning-stats\.tsx$/,
  /\/contract\/[a-z-]+-(keys|limits)\.ts$/,
  /\/node_modules\/@tanstack\//,
  // Small modules that two or more screens import: alone, each became a file of 0.5–2 KB, and on
  // a phone's HTTP/1.1 line six requests go at a time, one round trip each (the task page asked
  // for seventeen scripts after the entry, the layout for two of 0.5 KB).
  /\/web\/features\/messages\/(api\/unread|lib\/links)\.ts$/,
  /\/web\/lib\/(media-query|outbox\/(sync|senders))\.ts$/,
  /\/web\/components\/(offline-notice|ui\/bar)\.tsx$/,
  /\/web\/features\/tasks\/components\/use-mark-done\.tsx$/,
  /\/web\/features\/media\/(lib\/media-address|api\/get-media-url)\.ts$/,
  /\/web\/app\/(listening-wiring|outbox-senders)\.ts$/,
  /\/web\/app\/compositions\/(listening-slots|message-links)\.tsx$/,
];
const inShell = (id: string) => SHELL_PATHS.some((re) => re.test(id.replaceAll('\\', '/')));

/** The practice screen's parts that other screens share too (the tools page, the teacher's task): one chunk. */
const PRACTICE_PATHS = [
  /\/web\/lib\/(music-names|practice-tempo|wake-lock)\.ts$/,
  /\/web\/features\/practice\/(components\/session-list\.tsx|api\/practice-sessions\.ts)$/,
  /\/web\/features\/tools\/components\/tools-panel\.tsx$/,
  // The practice bar's 'Diesen Durchgang aufnehmen' and the takes' recorder (a chunk of its own) send alike.
  /\/web\/features\/recordings\/components\/use-send-take\.ts$/,
];
const inPractice = (id: string) => PRACTICE_PATHS.some((re) => re.test(id.replaceAll('\\', '/')));

/** What the sign-in page and the signed-in layout share (fields, the brand mark, the language switcher, the frame): one chunk. */
const SIGN_IN = /[\\/]web[\\/](components[\\/](ui[\\/]fields|brand-mark)|app[\\/]layout[\\/](language-switcher|signed-out-page))\.tsx$/;
/**
 * The two icons the sign-in page draws (the error's and the select's), with its parts rather than
 * in the chunk of every icon: /login then needs no icons chunk (9 KB gzip of its 170 KB budget).
 * The signed-in layout loads the sign-in parts anyway.
 */
const SIGN_IN_ICONS = /[\\/]node_modules[\\/]lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/](circle-exclamation-point|chevron-down)\.mjs$/;
const inSignIn = (id: string) => SIGN_IN.test(id) || SIGN_IN_ICONS.test(id);

/**
 * React Router 7 publishes a production build (no dev warnings or checks) but its package exports
 * name only the development one (remix-run/react-router#14102, still open in 7.18): the app's build
 * takes the production files, the dev server and the tests keep the warnings.
 */
const routerProduction = (file: string) => fileURLToPath(new URL(`./node_modules/react-router/dist/production/${file}`, import.meta.url));
const REACT_ROUTER_PRODUCTION = [
  { find: /^react-router$/, replacement: routerProduction('index.mjs') },
  { find: /^react-router\/dom$/, replacement: routerProduction('dom-export.mjs') },
];

/**
 * The scripts and stylesheets compressed once, at build time, as hard as Brotli and gzip go
 * (`.br` and `.gz` beside each file; the server sends them, server/app.ts). Compressed on the fly
 * for each answer, Brotli can only afford a low quality: the app's script was 158 KB on a phone's
 * line instead of ~131 KB (docs/decisions/first-load-on-a-phone.md, "Compressed at build time").
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'uebungskontrolle:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle() {
      const assets = join(outDir, 'assets');
      for (const name of readdirSync(assets)) {
        if (!/\.(js|css)$/.test(name)) continue;
        const file = join(assets, name);
        const raw = readFileSync(file);
        if (raw.length < 1024) continue;
        writeFileSync(`${file}.br`, brotliCompressSync(raw, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: raw.length } }));
        writeFileSync(`${file}.gz`, gzipSync(raw, { level: 9 }));
      }
    },
  };
}

/**
 * `/warm-up.js` (web/warm-up.js), run beside the app's script: with the reads and script files of the first
 * screens (web/app/first-screens.ts) written in, each screen's own and the signed-in layout's with
 * what they import, less what the app's script has anyway. The dev server sends it without files.
 */
function warmUp(): Plugin {
  const template = () => readFileSync(fileURLToPath(new URL('./web/warm-up.js', import.meta.url)), 'utf8');
  const withScreens = (screens: unknown) => {
    const code = template();
    // The placeholder in the code (the comment that declares it for the linter stays as it is).
    const placeholder = 'var screens = __FIRST_SCREENS__;';
    if (!code.includes(placeholder)) throw new Error(`warm-up: web/warm-up.js has no '${placeholder}'`);
    return code.replace(placeholder, () => `var screens = ${JSON.stringify(screens)};`);
  };
  return {
    name: 'uebungskontrolle:warm-up',
    configureServer(server) {
      server.middlewares.use('/warm-up.js', (_req, res) => {
        res.setHeader('content-type', 'text/javascript; charset=utf-8');
        res.end(withScreens([]));
      });
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((item): item is Rollup.OutputChunk => item.type === 'chunk');
      const entry = chunks.find((c) => c.isEntry);
      const files = (module: string): string[] => {
        const file = fileURLToPath(new URL(`./${module}`, import.meta.url));
        const chunk = chunks.find((c) => c.facadeModuleId === file);
        if (!chunk) throw new Error(`warm-up: no chunk for ${module}`);
        const seen = new Set<string>();
        const walk = (name: string) => {
          if (seen.has(name) || name === entry?.fileName) return;
          seen.add(name);
          const next = bundle[name];
          if (next?.type === 'chunk') next.imports.forEach(walk);
        };
        walk(chunk.fileName);
        return [...seen];
      };
      const layout = files(SIGNED_IN_LAYOUT);
      const screens = FIRST_SCREENS.map(({ path, role, module, reads }) => ({ path, role, reads, files: [...new Set([...layout, ...files(module)])] }));
      // Minified: every page's first load carries it, /login's within its 170 KB.
      const { code, errors } = minifySync('warm-up.js', withScreens(screens));
      if (errors.length) throw new Error(`warm-up: ${errors.map((e) => e.message).join('; ')}`);
      this.emitFile({ type: 'asset', fileName: 'warm-up.js', source: code });
    },
  };
}

export default defineConfig(({ command }) => ({
  root: fileURLToPath(new URL('./web', import.meta.url)),
  plugins: [
    // JSX, TypeScript and Fast Refresh; the React Compiler memoises components and hooks so that
    // a render redraws only what changed (docs/decisions/react-dom-again.md).
    react(),
    babel({ presets: [reactCompilerPreset()] }),
    tailwindcss(),
    precompress(),
    warmUp(),
    // The installable app (docs/decisions/offline-practice.md). Our own service worker (web/sw.ts)
    // precaches the app shell and every chunk; the page registers it itself once the first screen
    // is there (web/main.tsx, web/lib/pwa.ts).
    VitePWA({
      strategies: 'injectManifest',
      srcDir: '.',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      manifest: manifestFor('de'),
      manifestFilename: 'manifest.webmanifest',
      includeAssets: ['favicon.svg', 'robots.txt', 'icons/*.png', 'manifest.tr.webmanifest'],
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,woff2,webmanifest}'],
        // Fonts for scripts the app never shows (Cyrillic, Greek, Vietnamese) stay out of the precache.
        globIgnores: ['**/*-cyrillic-*', '**/*-greek-*', '**/*-vietnamese-*', '**/.vite/**'],
        maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
      },
      devOptions: { enabled: false },
    }),
  ],
  // The persisted query cache of an older version of the app is not read by a newer one.
  define: { 'import.meta.env.VITE_BUILD_ID': JSON.stringify(pkg.version) },
  resolve: {
    alias: [
      ...(command === 'build' ? REACT_ROUTER_PRODUCTION : []),
      { find: '@contract', replacement: fileURLToPath(new URL('./contract', import.meta.url)) },
      { find: '@web', replacement: fileURLToPath(new URL('./web', import.meta.url)) },
    ],
  },
  build: {
    outDir: fileURLToPath(new URL('./dist/web', import.meta.url)),
    emptyOutDir: true,
    manifest: true,
    sourcemap: false,
    chunkSizeWarningLimit: 800,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'boot', tags: ['$initial'], priority: 3 },
            { name: 'icons', test: /[\\/]node_modules[\\/]lucide-react[\\/]/, priority: 2 },
            // above the icons' group: the sign-in page's two icons belong to it (SIGN_IN_ICONS)
            { name: 'signin', test: inSignIn, priority: 3 },
            { name: 'shell', test: inShell, priority: 1 },
            { name: 'practice', test: inPractice, priority: 0 },
          ],
        },
      },
    },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
}));
