// Every example a user can read works: the formulas of the README, the docs, what `npm start` prints, the
// help page, the pane's texts and the workbench's placeholder, the argument examples of the functions' help
// (what Excel shows), of docs/fin-functions.md and of the formula helper's period hint, and those of the
// messages that follow a mistake. Each is found in its file at test time (test/docs/findExamples.ts), so a new
// example is checked the day it is written, and typed into the workbench's formula engine with the add-in's
// real FIN functions registered as the build registers them, on the workbench's own wiring of the shared
// runtime (the one the functions call), connected to a sandbox.
//
// "Works" means a value, not an error, whatever the day: the test runs at every instant of `npm run
// test:clock`. An example with a fixed month ("2026-07") may be in the future then; that is a fine example of
// the form: a future period is not refused, it shows what is booked in it so far (usually 0), as
// docs/fin-functions.md says.
import '../../src/workbench/customFunctionsStub';
import fs from 'node:fs';
import path from 'node:path';
import { isRange, tokenize } from '@borgar/fx';
import { calendarDateAt, formatYearMonth, monthIndex, monthIndexToYearMonth } from '../../src/engine/dates';
import { cellA1, parseCell } from '../../src/engine/ports/address';
import { parseFinFormula, SELECT_A_NUMBER } from '../../src/engine/transactions';
import * as runtime from '../../src/runtime';
import { excelString } from '../../src/taskpane/formulas/formula';
import type { CellResult } from '../../src/workbench/cellResult';
import type { FunctionInfo } from '../../src/workbench/customFunctions';
import { parseReference } from '../../src/workbench/formula/syntax';
import { createWorkbench, type WorkbenchWorld } from '../../src/workbench/host';
import { registerFinFunctions, type FunctionsJson } from '../support/finFunctions';
import { startSandbox, type TestSandbox } from '../support/sandbox';
import {
  ROOT,
  findFormulas,
  functionRows,
  helpArgumentExamples,
  hintExamples,
  isElided,
  listedForms,
  paragraphExamples,
  quoted,
  readByUsers,
  rowArgumentExamples,
  type ArgumentExample,
} from './findExamples';

/** The last whole month before the company's today: a month with figures, whatever the pinned clock. */
const recentMonth = (() => {
  const { year, month } = monthIndexToYearMonth(monthIndex(calendarDateAt(Date.now())) - 1);
  return formatYearMonth(year, month);
})();

/**
 * What the text around a formula says its cells hold, typed as a user would. The README's tour has "a
 * period in A1" (=FIN.PNL("Revenue", A1)); B2:B5 are the figures a =SUM(B2:B5) adds up (the workbench's
 * placeholder, docs/user-guide.md's =SUM(B2:B5)-FIN.PNL("Rent", A1)). A formula reading any other cell
 * fails until its text says what the cell holds and this map says it too.
 */
const CELLS: Record<string, string> = { A1: recentMonth, B2: '1200', B3: '-300', B4: '450', B5: '75' };
/**
 * The workbook's defined names an example may read, and what their cell holds: the reporting period the pane
 * makes (FIN_PERIOD, a month as text; docs/fin-functions.md, "The reporting period").
 */
const NAMES: Record<string, string> = { FIN_PERIOD: recentMonth };
/**
 * The budget the examples name (docs/fin-functions.md, "Budgets"), kept as the pane keeps one: a range under a
 * visible name, months across (every month of 2026 and of the recent month's year, whatever the clock), lines down.
 */
const BUDGET_NAME = 'Budget_2026';
const BUDGET_LINES: [string, number][] = [
  ['Platform Subscriptions', 250000],
  ['Operating Expenses > Rent', 12000],
  ['Payroll & Benefits > Salaries & Wages', 90000],
  ['Payroll & Benefits > Benefits', 15000.5],
];
/** A budget answers for whole months only: a day, or a period ending today (YTD, TTM), has no budget to read. */
const BY_MONTH = new Set(['BUDGET', 'BUDGET_VARIANCE']);
/** Where each example formula goes: a cell no example reads, with room for a spill below and to the right. */
const FORMULA_CELL = 'AA1';

/**
 * The other arguments of an argument example: a category that exists and fits the function, a recent month.
 * Optional parameters are left empty.
 */
const OTHER_ARGUMENTS: Record<string, string> = { category: '"Revenue"', line: '"Net Income"', start: `"${recentMonth}"`, date: `"${recentMonth}"`, base: `"${recentMonth}"` };
const OTHER_ARGUMENTS_OF: Record<string, Record<string, string>> = {
  BALANCE: { category: '"Cash"' },
  BUDGET: { budget: BUDGET_NAME, category: '"Rent"' },
  BUDGET_VARIANCE: { budget: BUDGET_NAME },
};

/**
 * Where docs/fin-functions.md gives argument examples outside its table, and which parameters they are for.
 * Category names and paths: FIN.TOTAL's category, the one that takes every kind (income, expense and balance);
 * every function resolves a category the same way. Dates and periods: every start and date parameter.
 */
const DOC_PARAGRAPHS: { opening: string; targets: (fn: string, param: string) => boolean }[] = [
  { opening: 'Categories are given by', targets: (fn, param) => fn === 'TOTAL' && param === 'category' },
  { opening: 'Dates are', targets: (fn, param) => !BY_MONTH.has(fn) && (param === 'start' || param === 'date') },
];
const FUNCTIONS_DOC = 'docs/fin-functions.md';

let sb: TestSandbox;
let world: WorkbenchWorld;
let help: FunctionsJson;
let info: Map<string, FunctionInfo>;
let sent = 0;

beforeAll(async () => {
  sb = await startSandbox();
  const registered = registerFinFunctions();
  world = createWorkbench({
    baseUrl: sb.baseUrl,
    metadata: registered.then((r) => r.info),
    fetch: (input, init) => {
      sent += 1;
      return fetch(input, init);
    },
  });
  ({ json: help, info } = await registered);
  await runtime.connect({ baseUrl: sb.baseUrl, apiKey: sb.keys['growth-admin'], companyId: sb.companies['growth-admin'] });
  for (const [i, [name, value]] of Object.entries(NAMES).entries()) {
    await world.book.writeGrid(i === 0 ? { kind: 'newSheet', name: 'Names', activate: false } : { kind: 'anchor', sheet: 'Names', cell: `A${i + 1}` }, { values: [[value]] }, { name, nameVisible: true });
  }
  const years = [...new Set([2026, Number(recentMonth.slice(0, 4))])].sort();
  const months = years.flatMap((year) => Array.from({ length: 12 }, (_, m) => formatYearMonth(year, m + 1)));
  const budget = await world.book.writeGrid(
    { kind: 'newSheet', name: 'Budget', activate: false },
    { values: [['Category', ...months], ...BUDGET_LINES.map(([label, units]) => [label, ...months.map(() => units)])] },
  );
  await world.book.nameRange(budget.address, BUDGET_NAME);
});
afterAll(async () => {
  runtime.configureRuntime(null);
  await sb.close();
});

interface Example {
  formula: string;
  where: string;
}

let sheets = 0;

/** Types the formula into a sheet of its own, holding CELLS, and waits for its answer. */
async function evaluate(formula: string): Promise<CellResult | { state: 'refused'; message: string }> {
  const { book, engine } = world;
  const sheet = `Example ${++sheets}`;
  await book.writeGrid({ kind: 'newSheet', name: sheet, activate: false }, { values: [['']] });
  for (const [a1, input] of Object.entries(CELLS)) await book.enter({ sheet, ...parseCell(a1) }, input);
  const at = { sheet, ...parseCell(FORMULA_CELL) };
  const entered = await book.enter(at, formula);
  if (!entered.ok) return { state: 'refused', message: entered.message };
  // A FIN answer can let a dependant call again (a cell that reads a FIN cell): wait until all is settled.
  for (let i = 0; i < 5; i++) await engine.whenIdle();
  const result = engine.resultAt(at) ?? { state: 'refused', message: 'no result' };
  // Cleared once read: the formula engine lays out every spill of the book again after each entry, so a
  // book holding a hundred statements and transaction lists would make each new example slow.
  await book.enter(at, '');
  return result;
}

/** Cells the formula reads that CELLS does not fill (another sheet's, or ones the text does not describe). */
function unfilledCells(formula: string): string[] {
  const missing: string[] = [];
  for (const token of tokenize(formula.replace(/^=/, ''))) {
    if (!isRange(token)) continue;
    const ref = parseReference(token.value, 'here');
    if (ref.kind === 'name' && (ref.name.toUpperCase() in NAMES || ref.name === BUDGET_NAME)) continue;
    if (ref.kind !== 'reference' || ref.reference.sheet !== 'here') {
      missing.push(token.value);
      continue;
    }
    const { top, bottom, left, right } = ref.reference;
    for (let r = top; r <= bottom && r - top < 100; r++) {
      for (let c = left; c <= right && c - left < 100; c++) if (!(cellA1(r, c) in CELLS)) missing.push(cellA1(r, c));
    }
  }
  return missing;
}

/** Each example evaluated (once per place it is written); the failures, with where and what the user would see. */
async function failures(examples: Example[]): Promise<string[]> {
  const out: string[] = [];
  const distinct = new Map(examples.map((e) => [`${e.where} ${e.formula}`, e]));
  for (const { formula, where } of distinct.values()) {
    const missing = unfilledCells(formula);
    if (missing.length > 0) {
      out.push(`${where}: ${formula} reads ${missing.join(', ')}: say in the text what they hold, and fill them in CELLS`);
      continue;
    }
    const result = await evaluate(formula);
    if (result.state === 'value' || result.state === 'spill') continue;
    const shown = result.state === 'error' ? `${result.code} ${result.message ?? ''}` : result.state === 'refused' ? result.message : 'still #BUSY!';
    out.push(`${where}: ${formula} gives ${shown.trim()}`);
  }
  return out;
}

/** The formula for an argument example: the example in its parameter, OTHER_ARGUMENTS in the required others. */
function argumentFormula({ fn, param, example, where }: ArgumentExample): Example {
  const params = info.get(fn)?.parameters ?? [];
  const index = params.findIndex((p) => p.name === param);
  if (index < 0) return { formula: `FIN.${fn} has no parameter ${param}`, where };
  const last = params.reduce((at, p, i) => (p.optional ? at : Math.max(at, i)), index);
  const args = params.slice(0, last + 1).map((p, i) => {
    if (i === index) return excelString(example);
    if (p.optional) return '';
    return OTHER_ARGUMENTS_OF[fn]?.[p.name] ?? OTHER_ARGUMENTS[p.name] ?? `(no value for ${p.name} in OTHER_ARGUMENTS)`;
  });
  return { formula: `=FIN.${fn}(${args.join(',')})`, where };
}

function read(file: string): string {
  return fs.readFileSync(path.join(ROOT, file), 'utf8');
}

/** Whole formulas in every text a user reads, and in the functions' help. */
function wholeFormulas(): Example[] {
  const helpText = help.functions.flatMap((f) => [f.description ?? '', ...f.parameters.map((p) => p.description ?? '')]).join('\n');
  const texts = [...readByUsers(), { file: 'functions.json', text: helpText }];
  return texts
    .flatMap(({ file, text }) => findFormulas(text).map(({ formula, line }) => ({ formula, where: `${file}:${line}` })))
    .filter((e) => !isElided(e.formula));
}

/** The quoted examples of each @param of the functions' help, each in its parameter. */
function helpExamples(): Example[] {
  return helpArgumentExamples(help).map(argumentFormula);
}

/** docs/fin-functions.md: its table rows' quoted examples, and its paragraphs of names and dates. */
function docExamples(): Example[] {
  const markdown = read(FUNCTIONS_DOC);
  const examples: ArgumentExample[] = [];
  for (const e of functionRows(markdown).flatMap((row) => rowArgumentExamples(FUNCTIONS_DOC, row))) {
    if (e.param === null) throw new Error(`${e.where}: "${e.example}" follows no parameter name of FIN.${e.fn}: say which argument it is an example of`);
    examples.push({ ...e, param: e.param });
  }
  for (const { opening, targets } of DOC_PARAGRAPHS) {
    const paragraph = paragraphExamples(markdown, opening);
    if (!paragraph?.examples.length) throw new Error(`${FUNCTIONS_DOC} has no paragraph "${opening}..." with examples: update DOC_PARAGRAPHS`);
    for (const f of help.functions) {
      for (const p of f.parameters) {
        if (!targets(f.id, p.name)) continue;
        for (const example of paragraph.examples) examples.push({ fn: f.id, param: p.name, example, where: `${FUNCTIONS_DOC}:${paragraph.line}` });
      }
    }
  }
  return examples.map(argumentFormula);
}

/** The periods the formula helper's hint suggests, in the FIN.TOTAL the helper writes. */
function formulaHelperExamples(): Example[] {
  const file = 'src/taskpane/formulas/FormulaHelper.tsx';
  const hint = hintExamples(read(file), 'Formula period');
  if (!hint?.examples.length) throw new Error(`${file} has no "Formula period" field whose hint gives examples: update the test`);
  return hint.examples.map((example) => argumentFormula({ fn: 'TOTAL', param: 'start', example, where: `${file}:${hint.line}` }));
}

/** What a message shows, as the user sees it after a mistake. */
async function messageOf(formula: string): Promise<string> {
  const result = await evaluate(formula);
  if (result.state !== 'error' || !result.message) throw new Error(`${formula} was expected to give an error with a message`);
  return result.message;
}

/** The examples of the messages that follow a mistake: a missing category, a bad date, drill-down from a cell. */
async function messageExamples(): Promise<Example[]> {
  const examples: Example[] = [];
  // A missing category's message names a category and a path: each in FIN.TOTAL's category.
  for (const example of quoted(await messageOf(`=FIN.TOTAL("","${recentMonth}")`))) {
    examples.push(argumentFormula({ fn: 'TOTAL', param: 'category', example, where: 'the missing-category message' }));
  }
  // A bad date's message lists the forms a date takes: each in every start and date parameter that takes any
  // day. FIN.TOTAL shows the same list but takes a day only as the edge of whole months (its next message
  // says so), so it is not checked there; nor are the budget functions, which take whole months only.
  const forms = listedForms(await messageOf('=FIN.PNL("Revenue","not a date")'));
  for (const f of help.functions) {
    for (const p of f.parameters) {
      if (f.id === 'TOTAL' || BY_MONTH.has(f.id) || (p.name !== 'start' && p.name !== 'date')) continue;
      for (const example of forms) examples.push(argumentFormula({ fn: f.id, param: p.name, example, where: 'the bad-date message' }));
    }
  }
  // Drill-down shows a formula to select: in the message for any cell, and in the one for each function
  // whose argument is a cell reference.
  const notLiteral = ['TOTAL', 'PNL', 'BALANCE'].map((fn) => parseFinFormula(`=FIN.${fn}(A1,"2025-Q3")`));
  for (const message of [SELECT_A_NUMBER, ...notLiteral.map((r) => (r && !r.ok ? r.message : 'no message'))]) {
    const found = findFormulas(message);
    if (found.length === 0) throw new Error(`no formula in the drill-down message "${message}"`);
    examples.push(...found.map(({ formula }) => ({ formula, where: 'a drill-down message' })));
  }
  if (forms.length === 0 || examples.length === 0) throw new Error('the messages gave no examples: update the test');
  return examples;
}

describe('every example a user can read works', () => {
  it("whole formulas: README, docs, npm start, the help page, the pane and the workbench, the functions' help", async () => {
    const examples = wholeFormulas();
    // The first formulas a newcomer meets are among them.
    expect(examples.map((e) => e.where)).toEqual(expect.arrayContaining([expect.stringMatching(/^README\.md:/), expect.stringMatching(/^scripts\/start\.js:/)]));
    expect(await failures(examples)).toEqual([]);
  });

  it("argument examples in the functions' help (@param), each in its parameter", async () => {
    const examples = helpExamples();
    expect(examples.length).toBeGreaterThan(10);
    expect(await failures(examples)).toEqual([]);
  });

  it(`argument examples in ${FUNCTIONS_DOC}: its table's quoted ones, category names and paths, dates and periods`, async () => {
    expect(await failures(docExamples())).toEqual([]);
  });

  it("the formula helper's period hint: each period it suggests, in the FIN.TOTAL it writes", async () => {
    expect(await failures(formulaHelperExamples())).toEqual([]);
  });

  it('examples in the messages after a mistake: a missing category, a bad date, drill-down from a cell', async () => {
    expect(await failures(await messageExamples())).toEqual([]);
  });

  it('costs little: the examples share their answers (fewer calls than examples), and evaluated again they spend none', async () => {
    const all = [...wholeFormulas(), ...helpExamples(), ...docExamples(), ...formulaHelperExamples(), ...(await messageExamples())];
    const distinct = [...new Map(all.map((e) => [e.formula, e])).values()];
    await failures(distinct); // spends nothing when the tests above have run
    expect(sent).toBeLessThan(distinct.length);
    const before = sent;
    await failures(distinct);
    expect(sent - before).toBe(0);
  });
});
