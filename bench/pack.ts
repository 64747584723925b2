// The reference board pack, as the benches build it: its definition (what the design calls the pack, on the
// Growth demo company), the add-in's runtime made by the factory that ships (createRuntime, via
// test/support/runtime.ts), and the workspace the pane opens over it and an in-memory workbook
// (MemoryGateway). Counts are exact: the sandbox's own monthly counter read before and after each step.
import type { Category } from '../src/api';
import { calendarDateAt } from '../src/engine/dates';
import type { TransactionsEngine } from '../src/engine/transactions';
import { MemoryGateway } from '../src/excel/memoryGateway';
import type { Workspace } from '../src/runtime/workspace';
import { testRuntime, testWorkspace, type RuntimeStores, type SandboxAddress, type TestRuntime } from '../test/support/runtime';
import type { TestSandbox } from '../test/support/sandbox';
import type { StatementSpec } from '../src/engine/statements';
import type { BindingRecord } from '../src/engine/ports/workbook';

export const LATENCY_MS = 50;
/** The key the pack is built with (Growth plan, every permission). */
export const LABEL = 'growth-admin';

/** The add-in's runtime (createRuntime through test/support/runtime.ts) on the Growth key. */
export function runtime(sb: SandboxAddress, stores?: RuntimeStores, recalculate?: () => Promise<void>): Promise<TestRuntime> {
  return testRuntime(sb, { label: LABEL, stores, recalculate });
}

export interface Formula {
  category: string;
  start: string;
  merchant?: string;
}

export interface PackDefinition {
  year: number;
  specs: StatementSpec[];
  formulas: Formula[];
  companyName: string;
  categories: string[];
  merchants: string[];
  departments: string[];
}

/**
 * Setup, not counted in the pack: the 10 categories (expense/revenue leaves with merchants), a real merchant
 * for 4 of them (via the merchants list), two assignable departments for the edits, the company name.
 */
export async function definePack(sb: SandboxAddress): Promise<PackDefinition> {
  const { client: setup } = await runtime(sb);
  const year = Number(calendarDateAt(Date.now()).slice(0, 4)) - 1;
  const [{ data: cats }, company, { data: depts }] = await Promise.all([setup.categories.list(), setup.company.retrieve(), setup.departments.list()]);
  const parents = new Set(cats.map((c) => c.parent_id));
  const leaves = cats.filter((c: Category) => !c.point_in_time && !parents.has(c.id) && ['expense', 'revenue'].includes(String(c.account_type)));
  const chosen: { name: string; merchant?: string }[] = [];
  for (const c of leaves) {
    if (chosen.length >= 10) break;
    const page = await setup.merchants.list({ category_id: c.id, limit: 5 });
    if (page.data.length === 0) continue;
    chosen.push({ name: c.name, merchant: String(page.data[0].name) });
  }
  if (chosen.length < 10) throw new Error(`only ${chosen.length} categories with merchants`);
  const formulas: Formula[] = [];
  chosen.forEach((c, i) => {
    for (let q = 1; q <= 4; q++) {
      // 4 of the 40 carry a merchant: categories 0..3, each in a different quarter.
      formulas.push({ category: c.name, start: `${year}-Q${q}`, merchant: i < 4 && q === i + 1 ? c.merchant : undefined });
    }
  });
  const byId = new Map(depts.map((d) => [d.id, d]));
  const pathOf = (id: string): string => (byId.get(id)!.parent_id ? `${pathOf(byId.get(id)!.parent_id!)} > ${byId.get(id)!.name}` : byId.get(id)!.name);
  const deptParents = new Set(depts.map((d) => d.parent_id));
  const departments = depts.filter((d) => d.assignable && !deptParents.has(d.id)).map((d) => pathOf(d.id));
  const base = { period: 'custom' as const, start: `${year}-01-01`, end: `${year}-12-31`, scale: 'units' as const, fiscalYearStartMonth: 1 };
  return {
    year,
    companyName: company.name,
    specs: [
      { ...base, statement: 'income_statement', layout: 'months' },
      { ...base, statement: 'balance_sheet', layout: 'quarters' },
      { ...base, statement: 'cash_flow', layout: 'single' },
    ],
    formulas,
    categories: chosen.map((c) => c.name),
    merchants: formulas.filter((f) => f.merchant).map((f) => f.merchant!),
    departments,
  };
}

/** Excel's recalculation: every FIN.TOTAL cell evaluated at once, none waiting for another. */
export function evaluateFormulas(rt: TestRuntime, def: PackDefinition): Promise<number[]> {
  return Promise.all(def.formulas.map((f) => rt.service.total({ category: f.category, start: f.start, merchant: f.merchant })));
}

export interface BuiltPack {
  rt: TestRuntime;
  gateway: MemoryGateway;
  /** The workspace the pane opens on the workbook: its engines and refreshes are what the bench measures. */
  workspace: Workspace;
  engine: TransactionsEngine;
  blocks: BindingRecord[];
  bindingId: string;
  table: string;
  rows: number;
  pages: number;
  values: number[];
}

/**
 * The workspace the pane opens over a runtime and a workbook (src/runtime/workspace.ts): the statements and
 * transactions engines, the refresh wiring and the cost rules that ship. Push journals in the runtime's add-in
 * storage, as in the pane; jobs polled from 200 ms.
 */
export async function workspaceOf(rt: TestRuntime, gateway: MemoryGateway, def: PackDefinition): Promise<Workspace> {
  const connection = (await rt.runtime.getConnection())?.name ?? LABEL;
  return testWorkspace(rt.runtime, gateway, {
    journal: rt.stores.secrets,
    companyNames: { [connection]: def.companyName },
    quietMs: 100,
    poll: { initialDelayMs: 200, maxDelayMs: 1000, maxPolls: 200 },
  });
}

/** Cold refresh: statements, formulas and the transactions table, all started at once from an empty cache. */
export async function buildPack(sb: SandboxAddress, def: PackDefinition, recalculate?: (rt: TestRuntime) => Promise<void>): Promise<BuiltPack> {
  // Excel's recalculation on a refresh of the FIN cells: every formula again, none waiting for another.
  const rt: TestRuntime = await runtime(sb, undefined, recalculate && (() => recalculate(rt)));
  const gateway = new MemoryGateway();
  const workspace = await workspaceOf(rt, gateway, def);
  const { statements, transactions: engine } = workspace;
  // The longest chain first (issue 14, item 5): the table's pages, then the statements and formulas beside it.
  const [pulled, blocks, values] = await Promise.all([
    engine.pull({ start_date: `${def.year}-01-01`, end_date: `${def.year}-12-31` }),
    Promise.all(def.specs.map((spec) => statements.insert(spec, 'newSheet').then((r) => r.binding))),
    evaluateFormulas(rt, def),
  ]);
  return { rt, gateway, workspace, engine, blocks, bindingId: pulled.bindingId, table: pulled.table, rows: pulled.rows, pages: pulled.pages, values };
}

export async function measure<T>(sb: TestSandbox, rt: { sent(): number }, fn: () => Promise<T>): Promise<{ value: T; calls: number; sent: number }> {
  const before = await sb.usage(sb.companies[LABEL]);
  const sentBefore = rt.sent();
  const value = await fn();
  return { value, calls: (await sb.usage(sb.companies[LABEL])) - before, sent: rt.sent() - sentBefore };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

