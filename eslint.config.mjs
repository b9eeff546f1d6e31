// ESLint flat config: typescript-eslint with type information (projectService), so promise rules
// such as no-floating-promises work. `npm run lint` = `eslint .`
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

// Bare names here; every `node:` specifier is caught by a pattern below.
const nodeBuiltins = builtinModules;

export default defineConfig(
  // dist/ node_modules/ coverage/ and .lithos-tmp/ are gitignored output; examples/ holds sample vault content.
  { ignores: ['dist/**', 'node_modules/**', 'examples/**', 'coverage/**', '.lithos-tmp/**', '**/.lithos/**'] },

  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      eqeqeq: ['error', 'always'],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // `void promise` is the explicit "fire and forget" marker.
      '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: true }],
      // Obsidian and Node callbacks are often async on purpose (command callbacks, event handlers).
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      // Async methods implementing a port may have nothing to await (in-memory twins, caches).
      '@typescript-eslint/require-await': 'off',
      // Numbers, arrays and exhaustiveness (`never`) messages stringify predictably; objects and nullish do not.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true, allowArray: true, allowNever: true }],
      // The engine matches control characters on purpose (binary-file and YAML checks).
      'no-control-regex': 'off',
    },
  },

  // The engine is host-free: it reaches the world through shared/ports.ts only (also enforced by test/architecture.test.ts).
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-console': 'error',
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'obsidian', message: 'shared/ is host-free: use a port from shared/ports.ts.' },
            { name: 'electron', message: 'shared/ is host-free: use a port from shared/ports.ts.' },
            { name: 'ws', message: 'shared/ is host-free: use a port from shared/ports.ts.' },
            ...nodeBuiltins.map((name) => ({ name, message: 'shared/ may not use Node built-ins: use a port from shared/ports.ts.' })),
          ],
          patterns: [
            { group: ['**/plugin', '**/plugin/**', '**/bridge', '**/bridge/**'], message: 'shared/ may not import plugin/ or bridge/ code.' },
            { group: ['node:*'], message: 'shared/ may not use Node built-ins: use a port from shared/ports.ts.' },
          ],
        },
      ],
    },
  },

  // The plugin logs through its console logger (warn/error only, per Obsidian's guidelines).
  {
    files: ['plugin/**/*.ts'],
    rules: {
      'no-console': ['error', { allow: ['warn', 'error'] }],
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/bridge', '**/bridge/**'], message: 'plugin/ may not import bridge/ code.' }] }],
    },
  },
  {
    files: ['bridge/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/plugin', '**/plugin/**'], message: 'bridge/ may not import plugin/ code.' }] }],
    },
  },

  // Tests read JSON and use jest's asymmetric matchers (expect.any() is typed any), and pass methods to expect().
  {
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },

  // Build and config scripts are plain JavaScript run by Node: no type information.
  {
    files: ['**/*.{js,mjs,cjs}'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: { process: 'readonly', console: 'readonly', module: 'writable', require: 'readonly', __dirname: 'readonly' },
    },
  },
);
