// Type-aware lint for the whole tree; layout is Prettier's job (eslint-config-prettier, last).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

// Test code: specs, their helpers, and the event store's contract suite that every adapter's spec runs.
const tests = [
  '**/*.spec.ts',
  '**/spec/**/*.ts',
  'test/**/*.ts',
  'bench/**/*.ts',
  'libs/event-store/src/contract.ts',
  'libs/event-store/src/contract/**',
];

export default defineConfig(
  // ESLint does not read .gitignore: what it lists (build output, local data, reports) is left out here too.
  globalIgnores([
    'dist/',
    'coverage/',
    'data/',
    'lab-results/',
    'test-artifacts/',
    'schema/',
    'clients/typescript/src/openapi.d.ts',
    'test/fixtures/',
    'bench/results/',
  ]),
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: false },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      // A promise that passes on what its source rejected with (an unknown) is not inventing a non-Error reason.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      // `_name` marks a value left out on purpose (a destructured field dropped before a spread, a port's unused argument).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // Adapters implement async ports without awaiting anything (the in-memory stores): the `async` is the contract.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Tests read untyped bodies (supertest, JSON logs) and hand jest mocks around; type-safety rules there are noise.
    files: tests,
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    // A function a reader can hold at once: past 80 lines (blank lines and comments aside, nested functions
    // counted in), split it by concern. Test suites are a describe block of many tests and are left out.
    files: ['apps/**/src/**/*.ts', 'libs/**/src/**/*.ts'],
    ignores: tests,
    rules: {
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
  {
    // The request path adds listeners with `on`: a `once` wrapper per request kept whole responses alive
    // through young-generation collections ("Per-request listeners" in apps/api/src/common/http-reply.ts).
    // main.ts listens for the process's signals; typed-contract.ts has a method of its own named `once`.
    files: ['apps/api/src/**/*.ts'],
    ignores: [...tests, 'apps/api/src/main.ts', 'apps/api/src/graphql/typed-contract.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.type='MemberExpression'][callee.property.name='once'][arguments.length=2]",
          message:
            'Add per-request listeners with `on` (and `off` if they must go early): see "Per-request listeners" in apps/api/src/common/http-reply.ts.',
        },
      ],
    },
  },
  {
    // The benchmark harness reads the API's JSON answers as a test does; its own code stays checked.
    files: ['apps/cli/src/bench.ts', 'apps/cli/src/bench/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['**/*.{js,cjs,mjs}'],
    extends: [js.configs.recommended],
    languageOptions: {
      sourceType: 'commonjs',
      globals: {
        require: 'readonly',
        module: 'writable',
        process: 'readonly',
        console: 'readonly',
        __dirname: 'readonly',
      },
    },
  },
  { files: ['**/*.mjs'], languageOptions: { sourceType: 'module' } },
  prettier,
);
