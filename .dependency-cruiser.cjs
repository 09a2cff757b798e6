/**
 * The boundaries between the parts of the code base, checked by `npm run lint` (dependency-cruiser):
 * an import that crosses one of them fails the lint step. Type-only imports count too: a type from
 * another plugin's internals ties the two plugins together as much as a value does.
 *
 *   npm run lint   # ESLint, then dependency-cruiser on src, server and contract
 */


/** A plugin's public surface: its index file, nothing else. */
const PLUGIN_INDEX = 'index\\.tsx?$';

module.exports = {
  forbidden: [
    {
      name: 'server-plugin-internals',
      comment:
        'A server plugin may use another server plugin only through that plugin\'s index.ts, never its internal files.',
      severity: 'error',
      from: { path: '^server/plugins/([^/]+)/', pathNot: '(\\.test\\.ts|/testing\\.ts|/testing/.*)$' },
      to: { path: '^server/plugins/[^/]+/', pathNot: ['^server/plugins/$1/', `^server/plugins/[^/]+/${PLUGIN_INDEX}`] },
    },
    {
      name: 'server-plugin-test-internals',
      comment:
        'A plugin\'s tests and test helpers may also use another plugin\'s test kit (its testing.ts), never its other internal files.',
      severity: 'error',
      from: { path: '^server/plugins/([^/]+)/.*(\\.test\\.ts|/testing\\.ts|/testing/.*)$' },
      to: { path: '^server/plugins/[^/]+/', pathNot: ['^server/plugins/$1/', `^server/plugins/[^/]+/${PLUGIN_INDEX}`, '^server/plugins/[^/]+/testing\\.ts$'] },
    },
    {
      name: 'console-plugin-internals',
      comment:
        'A console plugin may use another console plugin only through that plugin\'s index.ts(x), never its internal files.',
      severity: 'error',
      from: { path: '^src/plugins/([^/]+)/' },
      to: { path: '^src/plugins/[^/]+/', pathNot: ['^src/plugins/$1/', `^src/plugins/[^/]+/${PLUGIN_INDEX}`] },
    },
    {
      name: 'console-imports-server',
      comment: 'The console (its tests included) runs in the browser: it shares code with the server only through contract/.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^server/' },
    },
    {
      name: 'contract-imports-app',
      comment: 'contract/ is shared by the console and the server, so it depends on neither.',
      severity: 'error',
      from: { path: '^contract/' },
      to: { path: '^(src|server)/' },
    },
    {
      name: 'server-core-imports-plugin',
      comment: 'The server core knows no plugin: plugins plug into it, not the other way round.',
      severity: 'error',
      from: { path: '^server/core/' },
      to: { path: '^server/plugins/' },
    },
    {
      name: 'server-provider-imports-plugin',
      comment: 'A provider (email, storage, payments, …) is a building block of plugins and knows none of them.',
      severity: 'error',
      from: { path: '^server/providers/' },
      to: { path: '^server/plugins/' },
    },
  ],
  options: {
    // TypeScript's own parser (6.0's API, see scripts/lint/typescript6.mjs): it reads .tsx and keeps type-only imports.
    parser: 'tsc',
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};
