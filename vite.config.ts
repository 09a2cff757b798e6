/// <reference types="vitest/config" />
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { consoleRoutes, routePreloads, SHELL_PARTS } from './scripts/routePreloads.mjs';
import { EnvironmentGroupedSequencer } from './tests/unit/environmentSequencer';

/** The project's TypeScript modules (not node_modules). */
const OWN_MODULE = /^(?!.*node_modules).*\/(src|contract)\/[^?]*\.tsx?$/;

/**
 * contract/ modules only declare: constants, zod schemas and small helpers building a schema or a
 * message (`const providerToken = (max: number) => z.string()…`). Their top-level calls have no side
 * effect, but the bundler cannot know it, so a console module importing one constant from a contract
 * module would bring zod and every request schema along. This marks what a contract module computes
 * while it loads pure: unused schemas are dropped, used ones stay as they are (bench/bundle).
 */
function pureContractSchemas(): Plugin {
  const contractDir = path.resolve(import.meta.dirname, 'contract');
  return {
    name: 'pure-contract-schemas',
    apply: 'build',
    transform(code, id) {
      // After the TypeScript transform: plain JavaScript.
      if (!id.startsWith(contractDir + '/') || !id.endsWith('.ts')) return null;
      // Each top-level `const X = <expression>` built by calls or spreads becomes a pure IIFE:
      // dropped whole when X is unused (a pure call alone would keep its arguments' spreads).
      type Node = { type: string; start: number; end: number; declaration?: Node | null; declarations?: { init?: Node | null }[] };
      const wraps: Node[] = [];
      for (const statement of (this.parse(code) as unknown as { body: Node[] }).body) {
        const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
        if (declaration?.type !== 'VariableDeclaration') continue;
        for (const { init } of declaration.declarations ?? []) {
          if (init && !['ArrowFunctionExpression', 'FunctionExpression', 'Literal', 'Identifier'].includes(init.type)) wraps.push(init);
        }
      }
      if (!wraps.length) return null;
      let out = '';
      let last = 0;
      for (const init of wraps) {
        out += `${code.slice(last, init.start)}/*#__PURE__*/ (() => (${code.slice(init.start, init.end)}))()`;
        last = init.end;
      }
      return { code: out + code.slice(last), map: null };
    },
  };
}

/**
 * react-admin's `<Admin>` defaults its i18nProvider to a Polyglot one built when the module loads
 * (react-admin/defaultI18nProvider), which brings node-polyglot and its polyfills (object.entries,
 * get-intrinsic… ~16 KB minified) into every page. The console always passes its own i18next-based
 * provider (src/core/i18n), so in the build `ra-i18n-polyglot` resolves to a stub that only returns keys.
 */
function noPolyglot(): Plugin {
  const stub = '\0ra-i18n-polyglot-stub';
  return {
    name: 'no-polyglot',
    apply: 'build',
    enforce: 'pre',
    resolveId: (id) => (id === 'ra-i18n-polyglot' ? stub : null),
    load: (id) =>
      id === stub
        ? 'export default function polyglotI18nProvider() { return { translate: (key) => key, changeLocale: () => Promise.resolve(), getLocale: () => "en" }; }'
        : null,
  };
}

/**
 * react-admin's `<Admin>` defaults `loginPage` to its own `Login` (a react-admin `Form` with `TextInput`s:
 * react-hook-form, ra-core's form modules, ra-ui-materialui's inputs, ~55 KB minified), so the module is
 * bundled into the shell even though the console passes `loginPage={false}` (src/app/App.tsx: the sign-in
 * pages are its own). In the build, ra-ui-materialui's `auth/Login.js` resolves to a stub that says so if
 * ever rendered; the pages that use react-admin forms bring react-hook-form in their own chunks.
 */
function noDefaultLoginPage(): Plugin {
  const stub = '\0ra-default-login-stub';
  return {
    name: 'no-default-login-page',
    apply: 'build',
    enforce: 'pre',
    resolveId: (id, importer) => (id === './Login.js' && importer && /[\\/]ra-ui-materialui[\\/]dist[\\/]auth[\\/]index\.js$/.test(importer) ? stub : null),
    load: (id) =>
      id === stub
        ? [
            'export const Login = () => { throw new Error("react-admin\'s default Login page is not bundled: pass loginPage={false} or your own page (vite.config.ts)"); };',
            'export const LoginClasses = { card: "RaLogin-card", avatar: "RaLogin-avatar", icon: "RaLogin-icon" };',
          ].join('\n')
        : null,
  };
}

/**
 * react-router 7 lists only its `dist/development` files in its package exports (every condition; remix-run/react-router
 * #14753), so a production build bundled its development code: dev-only warnings and checks run on every match and
 * navigation. In the build, `react-router` and `react-router/dom` resolve to the `dist/production` files the package
 * ships beside them (the same API, built without those checks). Tests and `npm run dev` keep the development build.
 */
function productionReactRouter(): Plugin {
  const root = path.resolve(import.meta.dirname, 'node_modules/react-router/dist/production');
  const files = new Map([
    ['react-router', path.join(root, 'index.mjs')],
    ['react-router/dom', path.join(root, 'dom-export.mjs')],
  ]);
  return {
    name: 'production-react-router',
    apply: 'build',
    enforce: 'pre',
    // A Map, not an object: an import named like an Object.prototype member must not match.
    resolveId: (id) => files.get(id) ?? null,
  };
}

/**
 * `route-preloads.json` beside index.html (scripts/routePreloads.mjs): per path, the chunks a first load fetches
 * after the entry (the signed-out pages or the shell, then the page). The server's SPA fallback preloads them from
 * the HTML (server/core/routePreloads.ts), so they arrive beside the entry instead of in two later steps (issue #26).
 */
function routePreloadManifest(): Plugin {
  const root = import.meta.dirname;
  return {
    name: 'route-preloads',
    apply: 'build',
    generateBundle(_options, bundle) {
      const manifest = routePreloads(bundle as unknown as Parameters<typeof routePreloads>[0], root, {
        // src/app/main.tsx's PUBLIC_PATH: these paths open the signed-out pages, every other the shell.
        publicPath: '^/(auth|sandbox)(/|$)',
        branches: { public: 'src/app/PublicPages.tsx', shell: ['src/app/ConsoleShell.tsx', ...SHELL_PARTS] },
        routes: consoleRoutes(root),
      });
      this.emitFile({ type: 'asset', fileName: 'route-preloads.json', source: JSON.stringify(manifest) });
    },
  };
}

/** Written beside each file of these kinds: the server sends them as they are (server/core/consoleStatic.ts). */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|webmanifest)$/;
const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Precompresses the build: `<file>.br` (brotli, best) and `<file>.gz` (gzip -9) beside every text
 * asset of 1 KB or more, kept only when smaller. Source maps are left alone (served in demo mode only).
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async writeBundle(_options, bundle) {
      const files = Object.keys(bundle).filter((name) => COMPRESSIBLE.test(name));
      await Promise.all(
        files.map(async (name) => {
          const file = path.join(outDir, name);
          const data = await readFile(file);
          if (data.length < 1024) return;
          const [br, gz] = await Promise.all([
            brotli(data, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: data.length } }),
            gzipAsync(data, { level: 9 }),
          ]);
          if (br.length < data.length) await writeFile(`${file}.br`, br);
          if (gz.length < data.length) await writeFile(`${file}.gz`, gz);
        }),
      );
    },
  };
}

// The console is a static bundle; the API and the socket live on the same origin in
// production (server/main.ts). In `npm run dev` Vite proxies them to the API server.
const apiTarget = process.env.API_PROXY_TARGET ?? 'http://localhost:8080';

/** `--project cluster` (or `--project=cluster`) on vitest's command line. */
const CLUSTER_ASKED = process.argv.some((arg, i, argv) => arg === '--project=cluster' || (arg === '--project' && argv[i + 1] === 'cluster'));

export default defineConfig({
  plugins: [react(), productionReactRouter(), noPolyglot(), noDefaultLoginPage(), pureContractSchemas(), routePreloadManifest(), precompress()],
  // VITE_OUT_DIR: the end-to-end runs build into their own folder, so parallel runs never share a dist.
  // 'hidden': the .map files are written (for an error tracker) but the bundles do not point at them,
  // and the server serves them only in demo mode (server/core/consoleStatic.ts).
  build: {
    outDir: process.env.VITE_OUT_DIR ?? 'dist',
    sourcemap: 'hidden',
    chunkSizeWarningLimit: 2000,
    rolldownOptions: {
      treeshake: {
        // Our own modules run no code on import (none is imported for its side effects), so a barrel
        // like src/core/index.ts only brings what is used: the sign-in chunk does not drag the shell's
        // layout in. Packages keep their own package.json `sideEffects`.
        moduleSideEffects: (id: string) => (OWN_MODULE.test(id) ? false : undefined),
        // Building a zod schema has no side effect: contract/ modules the console uses for a constant or
        // a helper no longer bring zod and the server's request schemas along (see pureContractSchemas).
        manualPureFunctions: ['z'],
      },
    },
  },
  server: {
    proxy: {
      '/api': apiTarget,
      '/account': apiTarget,
      '/dev': apiTarget,
      '/media': apiTarget,
      '/bot-service': apiTarget,
      '/socket': { target: apiTarget, ws: true },
    },
  },
  test: {
    // Two projects, run side by side in one pool: the console's (jsdom where a file asks for it with a
    // `// @vitest-environment jsdom` comment, node otherwise) and the server's, whose globalSetup migrates
    // one template database per run that every test database starts from (docs/testing.md).
    projects: [
      // isolate: false, both: a worker loads the modules once and runs file after file with them (for the console,
      // one jsdom document too); tests/unit/setup.ts leaves the globals and the document as a fresh worker has them
      // after each file, and fails a file that leaves the clock faked (docs/testing.md, issue #20).
      {
        extends: true,
        test: { name: 'console', include: ['src/**/*.test.{ts,tsx}', 'tests/unit/**/*.test.{ts,tsx}'], isolate: false },
      },
      {
        extends: true,
        // Each file still builds its own app on its own database. Loading the server's modules once per worker
        // instead of once per file cut this project's CPU time by about 40 % (docs/testing.md); the server keeps
        // no module-level state.
        test: { name: 'server', include: ['server/**/*.test.ts', 'contract/**/*.test.ts'], globalSetup: ['server/testing/globalSetup.ts'], isolate: false },
      },
      // Three built server processes, PostgreSQL, Redis and HAProxy (issue #21): a phase of its own in `npm test`,
      // declared only when asked for by name (`vitest run --project cluster`), so a plain `vitest run` stays the
      // unit and server tests and never needs HAProxy (docs/testing.md).
      ...(CLUSTER_ASKED
        ? [{ extends: true as const, test: { name: 'cluster', include: ['tests/cluster/**/*.test.ts'], globalSetup: ['tests/cluster/globalSetup.ts'], testTimeout: 120_000, hookTimeout: 180_000 } }]
        : []),
    ],
    environment: 'node',
    setupFiles: ['tests/unit/setup.ts', 'tests/unit/realTimersGuard.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // No retries: a test that fails once fails the run, and is fixed at its cause.
    retry: 0,
    pool: 'forks',
    // The files of one environment together, so an unisolated worker is kept from file to file (tests/unit/environmentSequencer.ts).
    sequence: { sequencer: EnvironmentGroupedSequencer },
    // Vitest's default is one worker fewer than the cores (1 on a 2-core machine). The server files spend part
    // of their time waiting (PostgreSQL, sockets, child processes, the broadcast crash test's 30-s lease), so a
    // third worker keeps the two cores busy meanwhile: both projects 312 → 277 s on the 2-core machine (issue #20).
    maxWorkers: 3,
  },
});
