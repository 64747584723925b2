// The workbook's workspace: what the pane works with once connected. It owns the engines of each connected
// company (statements, transactions tables routed to the company each was pulled from), the refresh wiring
// (the workbook's refresh and the refresh of a scope, company by company, the consolidated blocks last),
// which other companies the workbook reads, and the cost and cap rules every action is held to before it
// spends. A refresh walks down: the workspace asks the engine what changed, refreshes the FIN cells itself
// (the runtime recalculates them), then has the engine rebuild the blocks; the engine never calls back up.
// The pane, the bench and the tests all drive this wiring, so what they measure is what ships.
//
// openWorkspace only composes the parts in workspace/, each given what it uses: the companies and their
// engines (companies.ts), the cost and cap rules (costRules.ts), the refreshes (refresh.ts), and one module
// per group of the Workspace: reporting, consolidation, charts, pushLog, budgets, share. The types are in
// workspace/types.ts.

import { leadingPeriodsWithin } from '../engine/statements/fit';
import { workspaceBudgets } from './workspace/budgets';
import { workspaceCharts } from './workspace/charts';
import { workspaceCompanies } from './workspace/companies';
import { consolidationMembers, workspaceConsolidation } from './workspace/consolidation';
import { callsLeftOf, refuseOverLeft } from './workspace/costRules';
import { workspacePushLog } from './workspace/pushLog';
import { workspaceRefresh } from './workspace/refresh';
import { workspaceReporting } from './workspace/reporting';
import { workspaceShare } from './workspace/share';
import type { Workspace, WorkspaceConnections, WorkspaceEnv } from './workspace/types';

export type {
  ChartableStatement,
  CompanyWorkspace,
  ConnectionSettings,
  OtherCompanyPlan,
  PackOptions,
  RefreshAsk,
  RefreshProgressCallbacks,
  Workspace,
  WorkspaceConnections,
  WorkspaceEnv,
  WorkspaceRuntime,
} from './workspace/types';

export function openWorkspace(env: WorkspaceEnv, connected: WorkspaceConnections): Workspace {
  const { gateway } = env;
  const companies = workspaceCompanies(env, connected);
  const { own, company, transactions } = companies;
  const membersOf = consolidationMembers(env.runtime);
  return {
    statements: own.statements,
    transactions,
    company,
    callsLeft: async (companyId) => {
      const c = await company(companyId);
      return c ? callsLeftOf(c) : null;
    },
    checkAffordable: async (what, calls, instead, companyId) => {
      const c = await company(companyId);
      if (c) refuseOverLeft(null, what, calls, await callsLeftOf(c), instead);
    },
    ...workspaceRefresh({ env, companies, membersOf }),
    forget: (binding) => own.statements.forget(binding),
    membersOf,
    fit: async (spec, left, companyId) => {
      const c = await company(companyId);
      return c ? leadingPeriodsWithin(spec, left, (requests) => c.reader.cost(requests)) : null;
    },
    reporting: workspaceReporting(env, own),
    consolidation: workspaceConsolidation(env, membersOf),
    charts: workspaceCharts(gateway),
    pushLog: workspacePushLog(gateway),
    budgets: workspaceBudgets(gateway, own),
    share: workspaceShare(env, own, connected),
  };
}
