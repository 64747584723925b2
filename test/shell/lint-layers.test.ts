// The arrows of docs/architecture.md as the lint configuration enforces them: snippets linted as if they lived at a
// path of src/, each otherwise clean, so an error can only come from the import under test.
import path from 'node:path';
import { ESLint, type Linter } from 'eslint';

const root = path.resolve(__dirname, '..', '..');
// The repository's own configuration, handed over rather than looked up: ESLint loads a config file with a
// dynamic import(), which jest's module system does not run.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const config = require('../../eslint.config.js') as Linter.Config[];
const eslint = new ESLint({ cwd: root, overrideConfigFile: true, overrideConfig: config });

/** The errors of `code` linted as the file at `filePath` (relative to the repository). */
async function errors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
  return result.messages.filter((m) => m.severity === 2).map((m) => `${m.ruleId}: ${m.message}`);
}

const importing = (source: string): string => `import { thing } from '${source}';\nexport const used = thing;\n`;

describe('src/engine and src/api stay host-free at any depth', () => {
  test.each([
    ['src/engine/drill.ts', '../excel/gateway'],
    ['src/engine/transactions/context.ts', '../../excel/gateway'],
    ['src/engine/transactions/drillTarget.ts', '../../excel/address'],
    ['src/engine/render/deep/grid.ts', '../../../excel/office/grid'],
    ['src/engine/fin/service.ts', '../../excel'],
    ['src/engine/fin/service.ts', '../../taskpane/App'],
    ['src/engine/fin/service.ts', '../../functions/functions'],
    ['src/engine/fin/service.ts', '../../runtime'],
    ['src/engine/fin/service.ts', '../../commands/commands'],
    ['src/engine/fin/service.ts', '../../workbench/book'],
    ['src/engine/dates.ts', 'react'],
    ['src/engine/render/grid.ts', 'react-dom/client'],
    ['src/engine/render/grid.ts', '@fluentui/react-components'],
    ['src/engine/render/grid.ts', '@microsoft/office-js'],
    ['src/api/transport.ts', '../excel/gateway'],
    ['src/api/transport.ts', '../runtime/runtime'],
    ['src/api/transport.ts', '../engine/dates'],
    ['src/api/transport.ts', '@fluentui/react-components'],
  ])('%s may not import %s', async (file, source) => {
    expect(await errors(file, importing(source))).toEqual([expect.stringContaining(source)]);
  });

  test('type-only imports, re-exports and import() types are imports too', async () => {
    const file = 'src/engine/transactions/state.ts';
    expect(await errors(file, "import type { GridWrite } from '../../excel/gateway';\nexport type G = GridWrite;\n")).toHaveLength(1);
    expect(await errors(file, "export { GatewayError } from '../../excel/gateway';\n")).toHaveLength(1);
    expect(await errors(file, "export * from '../../runtime';\n")).toHaveLength(1);
    expect(await errors(file, "export type G = import('../../excel/gateway').GridWrite;\n")).toHaveLength(1);
  });

  test.each([
    ['src/engine/transactions/context.ts', '../ports/workbook'],
    ['src/engine/transactions/drillTarget.ts', '../ports/address'],
    ['src/engine/transactions/context.ts', '../../api'],
    ['src/engine/render/statementGrid.ts', './grid'],
    ['src/engine/fin/service.ts', 'luxon'],
    ['src/api/index.ts', './transport'],
  ])('%s may import %s', async (file, source) => {
    expect(await errors(file, importing(source))).toEqual([]);
  });
});

describe('the sandbox shares no code with the client side', () => {
  test.each([
    ['src/sandbox/app.ts', '../api/types'],
    ['src/sandbox/routes/reports.ts', '../../api/types'],
    ['src/sandbox/routes/reports.ts', '../../engine/dates'],
    ['src/sandbox/ledger/deep/x.ts', '../../../excel/address'],
    ['src/sandbox/routes/reports.ts', '../../taskpane/shared/errors'],
    ['src/sandbox/routes/reports.ts', '../../runtime'],
  ])('%s may not import %s', async (file, source) => {
    expect(await errors(file, importing(source))).toEqual([expect.stringContaining(source)]);
  });

  test.each([
    ['src/sandbox/routes/reports.ts', '../http/errors'],
    ['src/sandbox/routes/reports.ts', '../transactions/filters'],
    ['src/sandbox/app.ts', 'fastify'],
  ])('%s may import %s', async (file, source) => {
    expect(await errors(file, importing(source))).toEqual([]);
  });
});

describe('the gateway is a room of its own: src/api\'s types and helpers, nothing else of the client or the sandbox', () => {
  test.each([
    ['src/gateway/teamRelay.ts', '../engine/dates'],
    ['src/gateway/store/port.ts', '../../engine/statements'],
    ['src/gateway/teamRelay.ts', '../runtime'],
    ['src/gateway/teamRelay.ts', '../taskpane/App'],
    ['src/gateway/teamRelay.ts', '../excel/gateway'],
    ['src/gateway/teamRelay.ts', '../sandbox/http/auth'],
    ['src/gateway/teamRelay.ts', 'react'],
    ['src/sandbox/app.ts', '../gateway/app'],
    ['src/api/transport.ts', '../gateway/headers'],
    ['src/engine/fin/service.ts', '../../gateway/keys'],
  ])('%s may not import %s', async (file, source) => {
    expect(await errors(file, importing(source))).toEqual([expect.stringContaining(source)]);
  });

  test.each([
    ['src/gateway/teamRelay.ts', '../api/calendar'],
    ['src/gateway/store/port.ts', '../../api/types'],
    ['src/gateway/store/redisStore.ts', 'ioredis'],
    ['src/gateway/app.ts', 'fastify'],
  ])('%s may import %s', async (file, source) => {
    expect(await errors(file, importing(source))).toEqual([]);
  });
});

test('the layers above the engine may use it and Office.js', async () => {
  expect(await errors('src/excel/memoryGateway.ts', importing('../engine/ports/workbook'))).toEqual([]);
  expect(await errors('src/runtime/runtime.ts', importing('../excel/runtimeStorage'))).toEqual([]);
  expect(await errors('src/taskpane/App.tsx', importing('@fluentui/react-components'))).toEqual([]);
});

describe('the pane reaches the engine through the runtime: types only from src/engine', () => {
  test.each([
    ['src/taskpane/refresh/RefreshPanel.tsx', "import { createStatementsEngine } from '../../engine/statements';\nexport const used = createStatementsEngine;\n"],
    ['src/taskpane/transactions/PullForm.tsx', "import { normalizeFilters } from '../../engine/transactions';\nexport const used = normalizeFilters;\n"],
    ['src/taskpane/refresh/RefreshPanel.tsx', "import { plural, type Plural } from '../../engine/text/plural';\nexport const used: Plural = plural;\n"],
    ['src/taskpane/refresh/RefreshPanel.tsx', "export { plural } from '../../engine/text/plural';\n"],
    ['src/taskpane/refresh/RefreshPanel.tsx', "export const later = () => import('../../engine/statements');\n"],
  ])('%s: a value from the engine is refused', async (file, code) => {
    expect(await errors(file, code)).toEqual([expect.stringMatching(/^layers\/forbidden-imports: src\/taskpane may import only types from src\/engine|may import only types from the engine/)]);
  });

  test.each([
    ['src/taskpane/refresh/RefreshPanel.tsx', "import type { RefreshBlock } from '../../engine/statements';\nexport type B = RefreshBlock;\n"],
    ['src/taskpane/refresh/RefreshPanel.tsx', "import { type RefreshBlock } from '../../engine/statements';\nexport type B = RefreshBlock;\n"],
    ['src/taskpane/refresh/RefreshPanel.tsx', "import { plural } from '../../runtime/screenKit';\nexport const used = plural;\n"],
    ['src/taskpane/refresh/RefreshPanel.tsx', "import { openWorkspace } from '../../runtime';\nexport const used = openWorkspace;\n"],
  ])('%s: types from the engine, anything from the runtime', async (file, code) => {
    expect(await errors(file, code)).toEqual([]);
  });
});
