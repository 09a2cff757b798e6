/**
 * The console's first load of a path, preloaded from its HTML (issue #26: on a phone the JavaScript arrived in three
 * serial steps, entry → the shell or the signed-out pages → the page). The build writes `route-preloads.json` beside
 * index.html (vite.config.ts, scripts/routePreloads.mjs): per branch of src/app/main.tsx (`public`: the signed-out
 * pages, `shell`: every other path) and per route, the chunks fetched beyond index.html's own. The SPA fallback adds
 * them to index.html as `<link rel="modulepreload">` (consoleStatic.ts), so the browser fetches them beside the entry.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export interface RoutePreloadsManifest {
  publicPath: string;
  branches: Record<string, string[]>;
  routes: { path: string; pattern: string; score: number; branch: string; files: string[] }[];
}

export const ROUTE_PRELOADS_FILE = 'route-preloads.json';

/** Hashed chunk names as Vite writes them: anything else is left out rather than written into the HTML. */
const SAFE_FILE = /^[\w./-]+\.js$/;

interface CompiledRoute {
  pattern: RegExp;
  score: number;
  branch: string;
  files: string[];
}

/** The files to preload for a path: its branch's, then those of the most specific route matching it. */
export function preloadsFor(manifest: RoutePreloadsManifest, pathname: string): string[] {
  return compile(manifest).pick(pathname);
}

const compiled = new WeakMap<RoutePreloadsManifest, { pick: (pathname: string) => string[] }>();

function compile(manifest: RoutePreloadsManifest) {
  let out = compiled.get(manifest);
  if (out) return out;
  const publicPath = new RegExp(manifest.publicPath);
  const routes: CompiledRoute[] = manifest.routes.map((r) => ({ pattern: new RegExp(r.pattern), score: r.score, branch: r.branch, files: r.files }));
  out = {
    pick(pathname: string) {
      const branch = publicPath.test(pathname) ? 'public' : 'shell';
      let best: CompiledRoute | undefined;
      for (const route of routes) if (route.branch === branch && route.pattern.test(pathname) && (!best || route.score > best.score)) best = route;
      return [...(manifest.branches[branch] ?? []), ...(best?.files ?? [])].filter((file) => SAFE_FILE.test(file));
    },
  };
  compiled.set(manifest, out);
  return out;
}

/** index.html with a module preload per file, before `</head>` (where Vite puts the entry's own). */
export function withPreloads(html: string, files: string[]): string {
  if (!files.length || !html.includes('</head>')) return html;
  const links = files.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`).join('\n    ');
  return html.replace('</head>', `  ${links}\n  </head>`);
}

/**
 * index.html and the build's manifest, read again when either file changes (a build made while the server runs is
 * picked up, as the fallback already did for index.html). Null when the build wrote no manifest: index.html as it is.
 */
export function routePreloadsReader(staticDir: string): () => { html: string; manifest: RoutePreloadsManifest } | null {
  const indexFile = path.join(staticDir, 'index.html');
  const manifestFile = path.join(staticDir, ROUTE_PRELOADS_FILE);
  let cached: { key: string; value: { html: string; manifest: RoutePreloadsManifest } } | undefined;
  return () => {
    let key: string;
    try {
      key = `${statSync(indexFile).mtimeMs}:${statSync(manifestFile).mtimeMs}`;
    } catch {
      return null;
    }
    if (cached?.key !== key) {
      try {
        cached = { key, value: { html: readFileSync(indexFile, 'utf8'), manifest: JSON.parse(readFileSync(manifestFile, 'utf8')) as RoutePreloadsManifest } };
      } catch {
        return null;
      }
    }
    return cached.value;
  };
}
