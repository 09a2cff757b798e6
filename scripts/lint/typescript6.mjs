/**
 * The project compiles with TypeScript 7, which ships no JavaScript API; typescript-eslint and
 * dependency-cruiser read the sources through that API (typescript-eslint supports up to TypeScript 6.0).
 * In the lint process only, every `typescript` they load is TypeScript 6.0's API, installed as
 * @typescript/typescript6 (TypeScript's own package for tools in this situation). Loaded first by
 * eslint.config.js, and with `node --import` for dependency-cruiser (package.json `lint`).
 */
import Module, { createRequire, register } from 'node:module';
import { toTypescript6 } from './typescript6Resolve.mjs';

// Fails here, naming the package, rather than as a parse error deep inside a tool.
createRequire(import.meta.url).resolve(toTypescript6('typescript'));

// require(): typescript-eslint is CommonJS, and dependency-cruiser reads `typescript/package.json` with it.
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return resolveFilename.call(this, toTypescript6(request), ...rest);
};
// import(): dependency-cruiser loads the compiler itself as an ES module.
register('./typescript6Resolve.mjs', import.meta.url);
