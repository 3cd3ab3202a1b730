// ESLint's flat config (`make lint`): the recommended rules over every JS file people write, with
// the globals of where each runs. Formatting is Prettier's (`make format-check`), not ESLint's.
import js from '@eslint/js';
import globals from 'globals';

export default [
  {
    ignores: [
      'node_modules/',
      '**/build/',
      'dist/',
      'python/attnlab/assets/',
      'web/data/reviews-lexicon.js',
      'tests/fuzz/corpus/',
    ],
  },
  js.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: 'module',
      globals: { ...globals.browser, ...globals.worker, ...globals.node },
    },
    rules: {
      'no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  { files: ['web/sw.js'], languageOptions: { globals: globals.serviceworker } },
];
