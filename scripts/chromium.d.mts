// Types of scripts/chromium.mjs for playwright.config.ts and the unit test.
type Env = Record<string, string | undefined>;
type Exists = (path: string) => boolean;

export declare const HEADLESS_SHELL: string;
export declare const SYSTEM_CHROMIUMS: string[];
export declare function findChromium(options?: { env?: Env; exists?: Exists; playwrightPath?: () => string | null }): string | undefined;
export declare function installHint(options?: { exists?: Exists; isRoot?: boolean }): string;
export declare function ensureChromium(options?: {
  env?: Env;
  exists?: Exists;
  isRoot?: boolean;
  run?: (command: string, args: string[], options: object) => { status: number | null };
  log?: (line: string) => void;
  playwrightPath?: () => string | null;
}): { path: string; error?: undefined } | { error: string; path?: undefined };
