// Types of scripts/routePreloads.mjs for vite.config.ts and its unit test.
type RouteModule = [routePath: string, file: string];

export interface RoutePreloadsManifest {
  /** Source of the regular expression of the signed-out paths (src/app/main.tsx's PUBLIC_PATH). */
  publicPath: string;
  /** Per branch of src/app/main.tsx, the files it loads beyond index.html's. */
  branches: Record<string, string[]>;
  routes: { path: string; pattern: string; score: number; branch: string; files: string[] }[];
}

export declare const PUBLIC_PAGE_ROUTES: RouteModule[];
export declare const SHELL_PARTS: string[];
export declare const NESTED_PAGE_ROUTES: [routePath: string, narrows: string, modules: string[]][];
export declare function pluginPageRoutes(root: string): [routePath: string, file: string, strings: string[]][];
export declare function consoleRoutes(root: string): [routePath: string, modules: string | string[], branch: string][];
export declare function routePattern(routePath: string): string;
export declare function routeScore(routePath: string): number;
export declare function routePreloads(
  bundle: Record<string, { type: 'chunk' | 'asset'; fileName: string; imports?: string[]; facadeModuleId?: string | null; isEntry?: boolean }>,
  root: string,
  options: { publicPath: string; branches: Record<string, string | string[]>; routes: [routePath: string, file: string | string[], branch: string][] },
): RoutePreloadsManifest;
