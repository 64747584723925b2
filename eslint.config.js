// Flat config: type-aware rules are left to `tsc --noEmit`; lint keeps to what tsc cannot see.
const js = require('@eslint/js');
const tseslint = require('typescript-eslint');

module.exports = tseslint.config(
  { ignores: ['dist/**', 'dist-ts/**', 'node_modules/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    // Plain CommonJS files loaded by jest itself (test environments).
    files: ['test/**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', globalThis: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Contract tests read loosely typed JSON bodies on purpose.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The layers of design.md: engine and api never reach for Office.js or React.
    files: ['src/engine/**', 'src/api/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['react', 'react-dom', '@fluentui/*', '@microsoft/office-js', '*/excel/*', '*/taskpane/*'] }],
      'no-restricted-globals': ['error', 'Office', 'Excel', 'OfficeRuntime', 'CustomFunctions'],
    },
  },
);
