// One lint setup for the workspace: ESLint's and typescript-eslint's recommended rules, type-aware on src.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      'packages/db/src/generated/**',
      'test/contract/client/generated/**',
      'packages/sdk/src/generated/**',
      'coverage/**',
      '.kasa/**',
      '**/dist/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        fetch: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        URLSearchParams: 'readonly',
        document: 'readonly',
        window: 'readonly',
        navigator: 'readonly',
        location: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // Type-aware rules on the shipped code: needless casts, floating promises, unsafe `any` and the like.
  ...tseslint.configs.recommendedTypeChecked.map((config) => ({
    ...config,
    files: ['{packages,services}/*/src/**/*.ts'],
    ignores: ['**/*.test.ts', 'packages/db/src/generated/**'],
  })),
  {
    files: ['{packages,services}/*/src/**/*.ts'],
    ignores: ['**/*.test.ts', 'packages/db/src/generated/**'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
  },
  {
    // Tests read loosely typed JSON responses; `any` there is the honest type of a parsed body.
    files: ['**/*.test.ts', '**/test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
