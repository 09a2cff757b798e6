/**
 * The compiled server (scripts/build-server.mjs): built into a folder of its own, every file the server reads
 * beside its source is there, and no module's `import.meta.url` still names the bundle instead of its source's place.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { buildPgliteTemplate, buildServer, serveEnv, serveNodeFlags, serverEntry, serverOutDir } from '../../scripts/build-server.mjs';
import { initPgliteDir } from '../../server/core/db/client';

const ROOT = path.resolve(import.meta.dirname, '../..');
const OUT = path.join(ROOT, '.test-data', `build-server-${process.pid}`);

function* filesUnder(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(file);
    else yield file;
  }
}

describe('scripts/build-server.mjs', () => {
  afterAll(() => rmSync(OUT, { recursive: true, force: true }));

  it('bundles the server, copies the files it reads beside its source, and points import.meta.url at them', async () => {
    await buildServer(OUT);
    const main = readFileSync(serverEntry(OUT), 'utf8');
    expect(existsSync(`${serverEntry(OUT)}.map`)).toBe(true);
    // `npm run migrate`'s entry, a bundle of its own (main.js stays one file).
    expect(existsSync(path.join(OUT, 'migrate.js'))).toBe(true);
    expect(main).not.toMatch(/^import .* from "\.\/chunks\//m);

    // Every non-TypeScript file under server/ (migrations, the fakes' scripts, the demo's pictures) is copied.
    const expected = [...filesUnder(path.join(ROOT, 'server'))].filter((f) => !f.endsWith('.ts'));
    expect(expected.length).toBeGreaterThan(0);
    for (const file of expected) expect(existsSync(path.join(OUT, path.relative(ROOT, file))), file).toBe(true);
    expect(existsSync(path.join(OUT, 'server/core/db/migrations/meta/_journal.json'))).toBe(true);

    // import.meta.url only as the base of a module's own place in the output folder.
    const uses = main.match(/import\.meta\.url/g) ?? [];
    const rewritten = main.match(/new URL\("\.\/server\/[\w/.-]+\.js", import\.meta\.url\)/g) ?? [];
    expect(rewritten.length).toBeGreaterThan(0);
    expect(uses.length).toBe(rewritten.length);
    for (const use of rewritten) {
      const source = /"\.\/(server\/[\w/.-]+)\.js"/.exec(use)![1];
      expect(existsSync(path.join(ROOT, `${source}.ts`)), source).toBe(true);
    }
    // Packages stay external (resolved from node_modules at run time).
    expect(main).toMatch(/^import .* from "fastify";$/m);
  });

  it('leaves the PGlite template out when asked (the test runs\' builds)', async () => {
    const bare = `${OUT}-bare`;
    try {
      await buildServer(bare, { pgliteTemplate: false });
      expect(existsSync(serverEntry(bare))).toBe(true);
      expect(existsSync(path.join(bare, 'server/core/db/migrations/meta/_journal.json'))).toBe(true);
      expect(existsSync(path.join(bare, 'server/core/db/pglite-template.tgz'))).toBe(false);
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });

  it('reads the serve flags from package.json, the start script running the same command', () => {
    expect(Array.isArray(serveNodeFlags())).toBe(true);
    // glibc's malloc arenas capped (bench/soak/README.md), unless the operator sets their own
    expect(serveEnv({})).toEqual({ MALLOC_ARENA_MAX: '2' });
    expect(serveEnv({ MALLOC_ARENA_MAX: '8' })).toEqual({ MALLOC_ARENA_MAX: '8' });
    expect(serverOutDir({})).toBe(path.join(ROOT, 'dist-server'));
    expect(serverOutDir({ SERVER_OUT_DIR: '.test-data/x' })).toBe(path.join(ROOT, '.test-data/x'));
  });

  it('makes a PGlite template with the migrations applied once, and a first start loads it (initdb when it cannot)', async () => {
    await buildServer(OUT);
    const template = path.join(OUT, 'server/core/db/pglite-template.tgz');
    expect(existsSync(template)).toBe(true);
    expect(buildPgliteTemplate(OUT)).toBe('up to date');

    const journal = JSON.parse(readFileSync(path.join(OUT, 'server/core/db/migrations/meta/_journal.json'), 'utf8')) as { entries: unknown[] };
    const fromTemplate = path.join(OUT, 'data-from-template');
    mkdirSync(fromTemplate, { recursive: true });
    await initPgliteDir(fromTemplate, template);
    const loaded = new PGlite(fromTemplate);
    const applied = await loaded.query<{ n: number }>('select count(*)::int as n from drizzle.__drizzle_migrations');
    await loaded.close();
    expect(applied.rows[0].n).toBe(journal.entries.length);

    // A damaged template: the folder is emptied and made by initdb (no migrations yet: the server applies them).
    const damaged = path.join(OUT, 'damaged.tgz');
    writeFileSync(damaged, 'not a tarball');
    const fallback = path.join(OUT, 'data-fallback');
    mkdirSync(fallback, { recursive: true });
    await initPgliteDir(fallback, damaged);
    const opened = new PGlite(fallback);
    const tables = await opened.query<{ n: number }>("select count(*)::int as n from information_schema.tables where table_schema = 'drizzle'");
    await opened.close();
    expect(tables.rows[0].n).toBe(0);
  }, 120_000);
});
