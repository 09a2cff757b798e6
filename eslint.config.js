/**
 * ESLint (`npm run lint`): JavaScript's and typescript-eslint's recommended rules (syntax only, no type
 * information: the type check is `npm run typecheck`) and React's two rules of hooks. Which part may
 * import which is checked beside it by dependency-cruiser (.dependency-cruiser.cjs).
 */
import './scripts/lint/typescript6.mjs';
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'dist-server/', '.data/', '.test-data/', 'test-results*/', 'playwright-report/', 'public/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: globals.node },
  },
  {
    // The fakes' scripts that the server hands to a browser page (the fake Facebook and Google SDKs, the demo).
    files: ['server/providers/*/fake/*.js'],
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // MUI's Tooltip re-renders synchronously inside the commit that mounts it, which pulls the commit's effects into
    // its task (src/core/components/ConsoleTooltip.tsx, issue #26): the console's tooltip is ConsoleTooltip.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/core/components/ConsoleTooltip.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: '@mui/material', importNames: ['Tooltip'], message: 'Use ConsoleTooltip from src/core (MUI’s Tooltip re-renders inside the commit).' },
            { name: '@mui/material/Tooltip', message: 'Use ConsoleTooltip from src/core (MUI’s Tooltip re-renders inside the commit).' },
          ],
        },
      ],
    },
  },
  {
    // Test doubles read and answer payloads of every shape the code under test sends.
    files: ['**/*.test.{ts,tsx}', '**/testing/**', '**/testing.ts', '**/testSupport.ts', '**/testFixtures.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    rules: {
      // A leading underscore says "deliberately unused" (a callback's position, a destructured rest).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
);
