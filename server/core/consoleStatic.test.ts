import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheControl, registerConsoleStatic } from './consoleStatic';

const INDEX = `<!doctype html><html><head><title>Console</title></head><body><div id="root"></div>${'<!-- padding -->'.repeat(100)}</body></html>`;
const BUNDLE = `export const greeting = ${JSON.stringify('hello '.repeat(500))};\n`;

/** A dist as `vite build` writes it: hashed assets and index.html, each with its .br and .gz. */
function builtConsole(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'console-static-'));
  mkdirSync(path.join(dir, 'assets'));
  const files: Record<string, string> = { 'index.html': INDEX, 'assets/app-1a2b3c.js': BUNDLE };
  for (const [name, text] of Object.entries(files)) {
    writeFileSync(path.join(dir, name), text);
    writeFileSync(path.join(dir, `${name}.br`), brotliCompressSync(Buffer.from(text)));
    writeFileSync(path.join(dir, `${name}.gz`), gzipSync(Buffer.from(text)));
  }
  // A small file the build did not compress.
  writeFileSync(path.join(dir, 'assets', 'tiny-9f8e.css'), 'body{margin:0}');
  return dir;
}

describe('console static files', () => {
  let app: FastifyInstance;
  let dir: string;

  beforeAll(async () => {
    dir = builtConsole();
    app = Fastify();
    await registerConsoleStatic(app, dir, { serveSourceMaps: false });
    await app.ready();
  });

  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string) =>
    app.inject({ method: 'GET', url, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

  it('sends the brotli file to a browser that accepts brotli, with the original type', async () => {
    const res = await get('/assets/app-1a2b3c.js', 'gzip, deflate, br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(BUNDLE);
  });

  it('sends the gzip file when brotli is not accepted', async () => {
    const res = await get('/assets/app-1a2b3c.js', 'gzip');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.rawPayload).toString()).toBe(BUNDLE);
  });

  it('sends the plain file without Accept-Encoding, and a file that has no compressed copy', async () => {
    const plain = await get('/assets/app-1a2b3c.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(BUNDLE);
    const tiny = await get('/assets/tiny-9f8e.css', 'br');
    expect(tiny.statusCode).toBe(200);
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body).toBe('body{margin:0}');
  });

  it('caches hashed assets for a year as immutable, compressed or not', async () => {
    for (const encoding of ['br', 'gzip', undefined]) {
      const res = await get('/assets/app-1a2b3c.js', encoding);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
  });

  it('never caches index.html without revalidation: by its path, at / and as the SPA fallback', async () => {
    for (const url of ['/index.html', '/', '/chats/42']) {
      for (const encoding of ['br', 'gzip', undefined]) {
        const res = await get(url, encoding);
        expect(res.statusCode, `${url} ${encoding}`).toBe(200);
        expect(res.headers['cache-control'], `${url} ${encoding}`).toBe('no-cache');
        const body = res.headers['content-encoding'] === 'br' ? brotliDecompressSync(res.rawPayload).toString() : res.headers['content-encoding'] === 'gzip' ? gunzipSync(res.rawPayload).toString() : res.body;
        expect(body, `${url} ${encoding}`).toBe(INDEX);
      }
    }
  });

  it('keeps server paths out of the console', async () => {
    const res = await get('/api/nothing-here/', 'br');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/json/);
  });
});

describe('console static files with the build\'s route preloads', () => {
  let app: FastifyInstance;
  let dir: string;

  beforeAll(async () => {
    dir = builtConsole();
    const manifest = {
      publicPath: '^/(auth|sandbox)(/|$)',
      branches: { public: ['assets/PublicPages-1.js'], shell: ['assets/ConsoleShell-2.js'] },
      routes: [{ path: '/chats/:roomId?', pattern: '^/chats(?:/[^/]+)?/?$', score: 4, branch: 'shell', files: ['assets/ChatsPage-3.js'] }],
    };
    writeFileSync(path.join(dir, 'route-preloads.json'), JSON.stringify(manifest));
    app = Fastify();
    await registerConsoleStatic(app, dir, { serveSourceMaps: false });
    await app.ready();
  });

  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers a deep link with index.html preloading the chunks of its first load, never cached without revalidation', async () => {
    const res = await app.inject({ method: 'GET', url: '/chats/42?message=7', headers: { 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain('<link rel="modulepreload" crossorigin href="/assets/ConsoleShell-2.js">');
    expect(res.body).toContain('<link rel="modulepreload" crossorigin href="/assets/ChatsPage-3.js">');
    expect(res.body).not.toContain('PublicPages');
    expect(res.body).toContain('<div id="root"></div>');
  });

  it('preloads the signed-out pages on /auth paths', async () => {
    const res = await app.inject({ method: 'GET', url: '/auth/login' });
    expect(res.body).toContain('href="/assets/PublicPages-1.js"');
    expect(res.body).not.toContain('ConsoleShell');
  });
});

describe('cacheControl', () => {
  it('names the logical file, not its .br or .gz copy', () => {
    expect(cacheControl(path.join('/dist', 'index.html.br'))).toBe('no-cache');
    expect(cacheControl(path.join('/dist', 'assets', 'app-1a2b.js.gz'))).toBe('public, max-age=31536000, immutable');
    expect(cacheControl(path.join('/dist', 'favicon.svg'))).toBe('no-cache');
  });
});
