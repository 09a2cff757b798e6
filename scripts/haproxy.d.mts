// Types of scripts/haproxy.mjs for the cluster test and the unit test.
type Env = Record<string, string | undefined>;
type Exists = (path: string) => boolean;

export declare const SYSTEM_HAPROXIES: string[];
export declare function findHaproxy(options?: { env?: Env; exists?: Exists }): string | undefined;
export declare function installHint(options?: { exists?: Exists; isRoot?: boolean }): string;
export declare function ensureHaproxy(options?: {
  env?: Env;
  exists?: Exists;
  isRoot?: boolean;
  run?: (command: string, args: string[], options: object) => { status: number | null };
  log?: (line: string) => void;
}): { path: string; error?: undefined } | { error: string; path?: undefined };
