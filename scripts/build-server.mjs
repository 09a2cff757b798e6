/**
 * Builds the server to JavaScript once (`npm run build`, after the console): server/main.ts and what it
 * imports from server/ and contract/ bundled by esbuild into `dist-server/main.js` (and server/migrate.ts,
 * `npm run migrate`, into `dist-server/migrate.js`) (SERVER_OUT_DIR to
 * change: the end-to-end runs build one folder per port), ESM for node 20, with source maps. Packages
 * stay external (`packages: 'external'`): node resolves them from node_modules at run time, so the output
 * folder must stay inside the checkout (node_modules is looked up from it).
 *
 * Files the server reads beside its own source (the SQL migrations, the fakes' browser scripts, the demo's
 * pictures: every file under server/ that is not TypeScript) are copied into the output folder under the
 * same path, and each module's `import.meta.url` is rewritten to the address its source would have there
 * (`<out>/server/core/db/migrate.js`), so `new URL('./x', import.meta.url)` finds them in both runs.
 *
 *   node scripts/build-server.mjs            # builds into SERVER_OUT_DIR or dist-server/
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Where the server is built (relative to the checkout unless absolute). */
export function serverOutDir(env = process.env) {
  return path.resolve(ROOT, env.SERVER_OUT_DIR || 'dist-server');
}

/**
 * The node flags `npm run serve` starts the compiled server with, read from package.json's `serve` script,
 * for the processes that start it themselves (bench/server, the e2e's own server process). `start` runs the
 * same command itself after the build (not through `npm run serve`: one npm process less, ≈ 60 MB, stays
 * alive above the server); the two must not drift apart, so a difference is an error here.
 */
export function serveNodeFlags() {
  const { scripts } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const serve = String(scripts.serve).trim();
  if (!String(scripts.start).trim().endsWith(`&& ${serve}`)) {
    throw new Error(`package.json: "start" must end with "&& ${serve}" (the serve script), not ${JSON.stringify(scripts.start)}`);
  }
  return serve.split(/\s+/).filter((word) => word.startsWith('--'));
}

/**
 * The environment defaults the `serve` script sets before node (`NAME=${NAME:-value}`, e.g. glibc's
 * MALLOC_ARENA_MAX), for the processes that start the compiled server themselves: a variable already in
 * `env` wins, as in the shell.
 */
export function serveEnv(env = process.env) {
  const { scripts } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const defaults = {};
  for (const [, name, value] of String(scripts.serve).matchAll(/(?:^|\s)([A-Z_][A-Z0-9_]*)=\$\{\1:-([^}]*)\}/g)) {
    defaults[name] = env[name] ?? value;
  }
  return defaults;
}

/** The compiled entry point in an output folder. */
export function serverEntry(outDir = serverOutDir()) {
  return path.join(outDir, 'main.js');
}

function* filesUnder(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(file);
    else yield file;
  }
}

/** esbuild plugin: `import.meta.url` of each of our modules = where that module would be in the output folder. */
function sourceUrlPlugin() {
  return {
    name: 'source-import-meta-url',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        if (!source.includes('import.meta.url') || args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const relative = path.relative(ROOT, args.path).replace(/\.ts$/, '.js').split(path.sep).join('/');
        const contents = source.replaceAll('import.meta.url', `new URL(${JSON.stringify(`./${relative}`)}, import.meta.url).href`);
        return { contents, loader: 'ts', resolveDir: path.dirname(args.path) };
      });
    },
  };
}

/** Writes a file through a temporary name and a rename: a server starting meanwhile never reads half of it. */
function writeAtomically(file, bytes) {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, bytes);
  renameSync(temporary, file);
}

/**
 * `pgliteTemplate: false` leaves out the PGlite template (initdb and the migrations in a child process, about
 * 7 s here): for the test runs' builds, whose processes run on PostgreSQL or on a data folder the test prepared.
 */
export async function buildServer(outDir = serverOutDir(), { pgliteTemplate = true } = {}) {
  const { build } = await import('esbuild');
  const started = performance.now();
  const options = {
    absWorkingDir: ROOT,
    entryPoints: { main: 'server/main.ts' },
    outdir: outDir,
    bundle: true,
    // Our dynamic imports (lazily loaded modules) stay separate files, loaded when first used.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    sourcesContent: false,
    legalComments: 'none',
    logLevel: 'warning',
    write: false,
    metafile: true,
    plugins: [sourceUrlPlugin()],
  };
  const result = await build(options);
  // `npm run migrate` (server/migrate.ts): a bundle of its own, so main.js stays one file rather than sharing
  // a chunk with it (the database code both use is bundled twice, ≈ 20 kB).
  const migrate = await build({ ...options, entryPoints: { migrate: 'server/migrate.ts' }, metafile: false });
  for (const file of migrate.outputFiles) writeAtomically(file.path, file.contents);
  // Replaced file by file, nothing removed: a server already running from this folder may still load its
  // lazy chunks (a chunk of an older build under another hash stays, a few kB).
  for (const file of result.outputFiles) writeAtomically(file.path, file.contents);
  let copied = 0;
  for (const file of filesUnder(path.join(ROOT, 'server'))) {
    if (file.endsWith('.ts')) continue;
    writeAtomically(path.join(outDir, path.relative(ROOT, file)), readFileSync(file));
    copied += 1;
  }
  const template = pgliteTemplate ? buildPgliteTemplate(outDir) : 'left out';
  const bytes = result.outputFiles.filter((f) => f.path.endsWith('.js')).reduce((n, f) => n + f.contents.byteLength, 0);
  const modules = Object.keys(result.metafile.inputs).length;
  console.log(
    `server built: ${path.relative(ROOT, serverEntry(outDir)) || serverEntry(outDir)} (${modules} modules, ${(bytes / 1024).toFixed(0)} kB of JavaScript, ` +
      `${copied} files copied beside it, PGlite template ${template}) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return result;
}

/**
 * The embedded database's first start from a ready folder (server/core/db/client.ts PGLITE_TEMPLATE):
 * initdb and this build's migrations run once here, in a child process, into an in-memory PGlite dumped
 * with `dumpDataDir('gzip')`. Made again only when the migrations or PGlite's version change (the key
 * beside it), so a rebuild costs nothing. Returns what it did, for the build's line.
 */
export function buildPgliteTemplate(outDir) {
  const dbDir = path.join(outDir, 'server/core/db');
  const migrations = path.join(dbDir, 'migrations');
  const target = path.join(dbDir, 'pglite-template.tgz');
  const keyFile = path.join(dbDir, 'pglite-template.key');
  const hash = createHash('sha256');
  hash.update(JSON.parse(readFileSync(path.join(ROOT, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')).version);
  for (const file of [...filesUnder(migrations)].sort()) hash.update(path.relative(migrations, file)).update(readFileSync(file));
  const key = hash.digest('hex');
  if (existsSync(target) && existsSync(keyFile) && readFileSync(keyFile, 'utf8') === key) return 'up to date';
  const temporary = `${target}.${process.pid}.tmp`;
  const script = `
    const { writeFileSync } = await import('node:fs');
    const { PGlite } = await import('@electric-sql/pglite');
    const { drizzle } = await import('drizzle-orm/pglite');
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    const client = new PGlite();
    await client.waitReady;
    await migrate(drizzle({ client }), { migrationsFolder: ${JSON.stringify(migrations)} });
    const dump = await client.dumpDataDir('gzip');
    writeFileSync(${JSON.stringify(temporary)}, Buffer.from(await dump.arrayBuffer()));
    await client.close();`;
  try {
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    renameSync(temporary, target);
  } finally {
    rmSync(temporary, { force: true });
  }
  writeFileSync(keyFile, key);
  return 'made';
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  buildServer().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
