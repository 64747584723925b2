// Flat config: type-aware rules are left to `tsc --noEmit`; lint keeps to what tsc cannot see.
const path = require('node:path');
const js = require('@eslint/js');
const officeAddins = require('eslint-plugin-office-addins');
const reactHooks = require('eslint-plugin-react-hooks');
const tseslint = require('typescript-eslint');

// The arrows of docs/architecture.md. Relative imports are resolved from the importing file, so a forbidden
// folder is caught at any depth ('../excel/x', '../../../excel/office/grid'); a package is caught with any
// subpath ('react-dom/client'); 'scope/*' forbids a whole npm scope.
const UI_AND_OFFICE = ['react', 'react-dom', '@fluentui/*', '@microsoft/office-js'];
const ABOVE_THE_ENGINE = ['src/excel', 'src/taskpane', 'src/functions', 'src/runtime', 'src/commands', 'src/workbench'];
const CLIENT_SIDE = ['src/api', 'src/engine', ...ABOVE_THE_ENGINE];

const layers = {
  rules: {
    'forbidden-imports': {
      meta: {
        type: 'problem',
        schema: [
          {
            type: 'object',
            properties: {
              layer: { type: 'string' },
              folders: { type: 'array', items: { type: 'string' } },
              packages: { type: 'array', items: { type: 'string' } },
              typesOnly: { type: 'array', items: { type: 'string' } },
            },
            additionalProperties: false,
          },
        ],
      },
      create(context) {
        const { layer, folders = [], packages = [], typesOnly = [] } = context.options[0];
        const within = (source, list) => {
          const target = path.relative(__dirname, path.resolve(path.dirname(context.filename), source)).split(path.sep).join('/');
          return list.find((folder) => target === folder || target.startsWith(`${folder}/`));
        };
        const forbiddenFolder = (source) => within(source, folders);
        // Types only: `import type`, or every name imported marked `type`.
        const onlyTypes = (node) =>
          node.importKind === 'type' || node.exportKind === 'type' || (node.specifiers?.length > 0 && node.specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type'));
        const valuesFrom = (node) => {
          if (!node?.source || typeof node.source.value !== 'string' || !node.source.value.startsWith('.')) return;
          const hit = within(node.source.value, typesOnly);
          if (hit && !onlyTypes(node)) {
            context.report({ node: node.source, message: `${layer} may import only types from ${hit} ('${node.source.value}'): it reaches the engine through src/runtime (see "The arrows" in docs/architecture.md).` });
          }
        };
        const forbiddenPackage = (source) =>
          packages.find((p) => (p.endsWith('/*') ? source.startsWith(p.slice(0, -1)) : source === p || source.startsWith(`${p}/`)));
        const check = (node) => {
          if (!node || typeof node.value !== 'string') return;
          const source = node.value;
          const hit = source.startsWith('.') ? forbiddenFolder(source) : forbiddenPackage(source);
          if (hit) context.report({ node, message: `${layer} may not import ${hit} ('${source}'): see "The arrows" in docs/architecture.md.` });
        };
        return {
          ImportDeclaration: (node) => {
            check(node.source);
            valuesFrom(node);
          },
          ExportNamedDeclaration: (node) => {
            check(node.source);
            valuesFrom(node);
          },
          ExportAllDeclaration: (node) => {
            check(node.source);
            valuesFrom(node);
          },
          ImportExpression: (node) => {
            check(node.source);
            if (node.source?.type === 'Literal' && typeof node.source.value === 'string' && node.source.value.startsWith('.') && within(node.source.value, typesOnly)) {
              context.report({ node: node.source, message: `${layer} may import only types from the engine: it reaches it through src/runtime.` });
            }
          },
          // `type T = import('../../excel/x').T`
          TSImportType: (node) => check(node.argument?.literal),
        };
      },
    },
  },
};

const forbid = (layer, folders, packages = [], typesOnly = []) => ({
  files: [`${layer}/**`],
  rules: { 'layers/forbidden-imports': ['error', { layer, folders, packages, typesOnly }] },
});

module.exports = tseslint.config(
  { ignores: ['dist/**', 'dist-ts/**', 'node_modules/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { layers },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    // Plain CommonJS files loaded by jest itself (test environments, setup files).
    files: ['test/**/*.js'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', globalThis: 'readonly', process: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Contract tests read loosely typed JSON bodies on purpose.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  // The arrows of docs/architecture.md: engine and api never reach for Office.js, React or the layers above them; the
  // api knows nothing of the engine; the sandbox shares no code with the client it is the server of; neither the
  // client nor the sandbox uses the gateway (it is a server of its own).
  forbid('src/engine', [...ABOVE_THE_ENGINE, 'src/gateway'], UI_AND_OFFICE),
  forbid('src/api', [...ABOVE_THE_ENGINE, 'src/engine', 'src/gateway'], UI_AND_OFFICE),
  forbid('src/sandbox', [...CLIENT_SIDE, 'src/gateway']),
  // The team's gateway is a server like the sandbox: of the client side it uses only src/api's types and pure
  // helpers (the Pacific month), never the engine, the screens, or the sandbox it may stand in front of.
  forbid('src/gateway', [...ABOVE_THE_ENGINE, 'src/engine', 'src/sandbox'], UI_AND_OFFICE),
  // The pane is screens: engines, refreshes and cost rules are the runtime's, and so is the door to the engine's helpers.
  forbid('src/taskpane', [], [], ['src/engine']),
  {
    files: ['src/engine/**', 'src/api/**'],
    rules: { 'no-restricted-globals': ['error', 'Office', 'Excel', 'OfficeRuntime', 'CustomFunctions'] },
  },
  {
    // Office.js load/sync rules where Office.js is used. Only the plugin's rules: its 'recommended' config also
    // brings prettier, an ES6 parser and rules this project does not use.
    files: ['src/excel/**'],
    plugins: { 'office-addins': officeAddins },
    rules: Object.fromEntries(Object.keys(officeAddins.rules).map((rule) => [`office-addins/${rule}`, 'error'])),
  },
  {
    // The React code: the pane, and the workbench that hosts it.
    files: ['src/taskpane/**', 'src/workbench/**'],
    plugins: { 'react-hooks': reactHooks },
    // useLiveEffect (src/taskpane/shared) is a useEffect: its deps are checked the same way.
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': ['error', { additionalHooks: '^useLiveEffect$' }] },
  },
);
