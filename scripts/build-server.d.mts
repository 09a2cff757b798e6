/** Types of build-server.mjs (a plain script, run by `npm run build:server`). */
import type { BuildResult } from 'esbuild';

/** Where the server is built: SERVER_OUT_DIR (relative to the checkout) or dist-server/, absolute. */
export declare function serverOutDir(env?: Record<string, string | undefined>): string;
/** The node flags of package.json's `serve` script (what `npm start` runs the compiled server with). */
export declare function serveNodeFlags(): string[];
/** The environment defaults the `serve` script sets before node (MALLOC_ARENA_MAX…); a value in `env` wins. */
export declare function serveEnv(env?: Record<string, string | undefined>): Record<string, string>;
/** The compiled entry point (main.js) in an output folder. */
export declare function serverEntry(outDir?: string): string;
/** Bundles server/main.ts into `outDir` and copies the server's non-TypeScript files beside it; the PGlite template too unless `pgliteTemplate: false`. */
export declare function buildServer(outDir?: string, options?: { pgliteTemplate?: boolean }): Promise<BuildResult>;
/** The PGlite template (initdb + migrations) beside the compiled db module: 'made' or 'up to date'. */
export declare function buildPgliteTemplate(outDir: string): 'made' | 'up to date';
