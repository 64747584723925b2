// The workspace's refreshes: of the workbook (company by company, each on its own cap, the consolidated blocks
// last), of one block, of the selection or the sheet; each asked first (what it costs, refused when it cannot
// be afforded) and then run from the plans it showed. A refresh walks down: the workspace asks the engine what
// changed, refreshes the FIN cells itself (the runtime recalculates them), then has the engine rebuild the
// blocks; the engine never calls back up. And the books closed through a month end, which every refresh keeps.

import { refreshConsolidatedBlocks } from '../../engine/consolidation/refreshBlocks';
import { consolidatedWith } from '../../engine/consolidation/insert';
import type { RefreshReport } from '../../engine/fin';
import { closedSettingKey } from '../../engine/reader/closedBooks';
import { combineRefreshes, companiesCostText, type CompanyRefreshResult } from '../../engine/refresh/byCompany';
import { changedRefreshText, fullRefreshText, planWorkbookRefresh, type WorkbookPlan } from '../../engine/refresh/plan';
import { planScopeRefresh, scopeArea, scopeCostText, startScopeRefresh, type ScopeRefreshDeps } from '../../engine/refresh/scopeRefresh';
import { startWorkbookRefresh, type RefreshKind, type WorkbookRefreshDeps } from '../../engine/refresh/workbookRefresh';
import { blockCostText, planAfter } from '../../engine/statements';
import type { WorkspaceCompanies } from './companies';
import type { ConsolidatedDeps, MembersOf } from './consolidation';
import { callsLeftOf, refuseAtCap, refuseOverLeft } from './costRules';
import type { CompanyWorkspace, OtherCompanyPlan, Workspace, WorkspaceEnv } from './types';

type RefreshMembers = 'plan' | 'askRefresh' | 'refresh' | 'askBlock' | 'refreshBlock' | 'askScope' | 'refreshScope' | 'closeBooks';

export interface WorkspaceRefreshDeps {
  env: Pick<WorkspaceEnv, 'runtime' | 'gateway' | 'timeZone' | 'now' | 'quietMs'>;
  companies: WorkspaceCompanies;
  membersOf: MembersOf;
}

const textOf = (kind: RefreshKind, p: WorkbookPlan) => (kind === 'changed' ? changedRefreshText(p) : fullRefreshText(p));
/** What a refresh of `kind` costs at least: a changes refresh asks (1 call) and fetches what the add-in's own pushes changed. */
const leastOf = (kind: RefreshKind, p: WorkbookPlan) => (kind === 'full' || !p.watermark ? p.fullCalls : 1 + p.knownCalls);

/** What the engine's workbook refresh of a company is given. */
function refreshDepsOf({ env, companies }: WorkspaceRefreshDeps, c: CompanyWorkspace): WorkbookRefreshDeps {
  const store = c.reader.stateStore;
  if (!store) throw new Error('The connection has no storage for its refresh record');
  return {
    statements: c.statements,
    tables: companies.transactions,
    reader: c.reader,
    feed: { client: c.client, reader: c.reader, store },
    meter: c.client.meter,
    derivationOff: async (because) => env.runtime.setDerivation?.(false, { company: c.companyId, because }),
  };
}

/** What the engine's refresh of the selection or the sheet is given: the default company's. */
function scopeDepsOf({ env, companies, membersOf }: WorkspaceRefreshDeps): ScopeRefreshDeps {
  const { runtime, gateway } = env;
  const { own } = companies;
  const host = runtime.getRuntimeHost();
  const finCellsIn = host?.finCellsIn?.bind(host);
  const consolidatedDeps: ConsolidatedDeps = { gateway, timeZone: env.timeZone, now: env.now };
  return {
    gateway,
    statements: own.statements,
    tables: companies.transactions,
    reader: own.reader,
    // The default connection's cells: its reader marks what they read; cells of other companies are left out.
    cells: finCellsIn ? { finCellsIn, requestsOf: (cells) => runtime.cellRequests(cells, own.companyId) } : undefined,
    meter: own.client.meter,
    consolidated: { ...consolidatedDeps, membersOf },
  };
}

export function workspaceRefresh(deps: WorkspaceRefreshDeps): Pick<Workspace, RefreshMembers> {
  const { env, companies, membersOf } = deps;
  const { runtime, gateway } = env;
  const { own, transactions } = companies;

  const planOf = async (c: CompanyWorkspace, tableCount?: number): Promise<WorkbookPlan> => {
    const store = c.reader.stateStore;
    if (!store) throw new Error('The connection has no storage for its refresh record');
    const tables = tableCount ?? (await transactions.tables()).filter((t) => t.company === c.companyId).length;
    return planWorkbookRefresh(await c.statements.plan(), tables, store, c.companyId, await consolidatedWith(gateway, c.companyId));
  };

  return {
    plan: () => planOf(own),
    askRefresh: async (kind) => {
      await refuseAtCap(own);
      const plan = await planOf(own);
      const name = kind === 'full' || !plan.watermark ? 'A full refresh' : 'Refresh changes';
      refuseOverLeft(null, name, leastOf(kind, plan), await callsLeftOf(own), kind === 'full' ? 'Refresh changes or Refresh this block cost less.' : 'Refresh this block costs less.');
      // The other companies the workbook reads: each one's cost on its own cap, checked and shown before spending.
      const otherPlans: OtherCompanyPlan[] = [];
      const tables = await transactions.tables();
      for (const other of await companies.otherCompaniesRead()) {
        const p = await planOf(other, tables.filter((t) => t.company === other.companyId).length);
        const left = await callsLeftOf(other);
        refuseOverLeft(other.name, name, leastOf(kind, p), left, '');
        otherPlans.push({ company: other, plan: p, left });
      }
      const text = companiesCostText([
        { name: own.name, text: textOf(kind, plan) },
        ...otherPlans.map((o) => ({ name: o.company.name, text: textOf(kind, o.plan), ...(o.left ? { left: o.left } : {}) })),
      ]);
      return { kind, text, plan, others: otherPlans };
    },
    refresh: async (ask, options = {}) => {
      const each: { workspace: CompanyWorkspace; plan: WorkbookPlan }[] = [{ workspace: own, plan: ask.plan }, ...ask.others.map((o) => ({ workspace: o.company, plan: o.plan }))];
      const results: CompanyRefreshResult[] = [];
      // One company after the other: each waits for the recalculation it started before the next marks its answers due.
      for (const { workspace: c, plan } of each) {
        const started = await startWorkbookRefresh(refreshDepsOf(deps, c), { kind: ask.kind, plan: plan.blocks, includeReference: options.includeReference, onPhase: options.onPhase });
        options.onPhase?.('formulas');
        // Only this company's answers are due; the other companies' cells read their cache.
        const formulas = await runtime.refreshAll({ scope: started.formulas, company: c.companyId, ...(env.quietMs !== undefined ? { quietMs: env.quietMs } : {}) });
        results.push({ name: c.name, result: await started.finish(formulas, options.onProgress) });
      }
      // The consolidated statements last, through the caches the companies' refreshes marked.
      const groups = await refreshConsolidatedBlocks({ gateway, timeZone: env.timeZone, now: env.now }, membersOf, ask.kind === 'full' ? 'full' : 'changes');
      const result = combineRefreshes(results, groups);
      // The default company's blocks as the refresh left them: from the plan shown and what it wrote, not read again.
      const blocks = await own.statements.reprice(planAfter(ask.plan.blocks, results[0].result.blocks));
      const after = await planWorkbookRefresh(blocks, ask.plan.tables, refreshDepsOf(deps, own).feed.store, own.companyId, ask.plan.consolidated);
      return { result, plan: after };
    },
    askBlock: async (block) => {
      await refuseAtCap(own);
      refuseOverLeft(null, 'This block', block.calls, await callsLeftOf(own), 'Choose a block with fewer periods, or wait for the reset.');
      const reopens = block.frozen > 0 ? ' It reopens its closed periods for this refresh.' : '';
      return `${blockCostText(block)}${reopens}`;
    },
    refreshBlock: (block, onProgress) => own.statements.refreshBlock(block, onProgress),
    askScope: async (kind, options = {}) => {
      await refuseAtCap(own);
      const plan = await planScopeRefresh(scopeDepsOf(deps), await scopeArea(gateway, kind), options);
      const text = scopeCostText(plan);
      if (plan.calls > 0 || plan.cells.length > 0 || plan.blocks.length > 0) {
        refuseOverLeft(null, kind === 'sheet' ? 'Refreshing this sheet' : 'Refreshing the selection', plan.calls, await callsLeftOf(own), 'Select fewer cells, or wait for the reset.');
      }
      return { plan, text };
    },
    refreshScope: async (plan, options = {}) => {
      const started = await startScopeRefresh(scopeDepsOf(deps), plan);
      let formulas: RefreshReport | undefined;
      if (started.cells.length > 0) {
        options.onPhase?.('formulas');
        formulas = await runtime.refreshCells(started.cells, { label: started.label, company: own.companyId });
      }
      return started.finish(formulas, options.onProgress);
    },
    closeBooks: async (through) => {
      const key = closedSettingKey(own.companyId);
      if (through === null) await gateway.removeSetting(key);
      else await gateway.writeSetting(key, through);
      own.reader.setBooksClosedThrough(through);
      return through === null ? 'Books not closed: every figure is refreshed as usual.' : `Books closed through ${through}: figures up to then are kept by every refresh.`;
    },
  };
}
