// Types of scripts/failure-digest.mjs for its unit test.
export declare function failureDigest(report: unknown, options?: { maxTests?: number; maxLines?: number }): string[];
export declare function withoutChrome(lines: string[]): string[];
