/**
 * Packages only some configurations use (ioredis with REDIS_URL, nodemailer with SMTP_URL, node-postgres
 * for the broadcast pacer beside PGlite) are required when first used instead of imported at start: each
 * adds 10–20 MB to a server's RSS that the default set-up would carry for nothing (bench/server/README.md).
 * They are CommonJS packages, so a synchronous require keeps their callers synchronous.
 */
import { createRequire } from 'node:module';

export const lazyRequire = createRequire(import.meta.url);
