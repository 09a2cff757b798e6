// Types of scripts/cluster-services.mjs for the cluster test.
type Env = Record<string, string | undefined>;

export declare const DEFAULT_TEST_DATABASE_URL: string;
export declare const DEFAULT_TEST_REDIS_URL: string;
export declare function clusterServiceUrls(env?: Env): { databaseUrl: string; redisUrl: string };
export declare function checkClusterServices(options?: { env?: Env; timeoutMs?: number }): Promise<string | null>;
