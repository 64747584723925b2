// The workbook's reporting period and board pack (Workspace.reporting): the default company's.

import type { FinCell } from '../../engine/fin';
import { boardPackIn, checkPackBudget, insertBoardPack, packCosts } from '../../engine/reporting/boardPack';
import { proposeRolesFor } from '../../engine/reporting/packRoles';
import { changePackRoles } from '../../engine/reporting/packRolesEdit';
import { readReportingPeriod } from '../../engine/reporting/period';
import { periodFormulas } from '../../engine/reporting/periodFormulas';
import { blockRequests } from '../../engine/statements/columns';
import { specFromBinding } from '../../engine/statements/spec';
import type { CompanyWorkspace, Workspace, WorkspaceEnv } from './types';

type Env = Pick<WorkspaceEnv, 'gateway'> & { runtime: Pick<WorkspaceEnv['runtime'], 'getRuntimeHost' | 'cellRequests'> };

/** The FIN formulas naming FIN_PERIOD and what they spend when it moves; null where the host cannot pick out formulas. */
function periodFormulasOf({ runtime, gateway }: Env, own: CompanyWorkspace): Workspace['reporting']['periodFormulas'] {
  const host = runtime.getRuntimeHost();
  const finCellsIn = host?.finCellsIn?.bind(host);
  if (!finCellsIn) return null;
  const deps = {
    sheets: async () => (await gateway.listSheets()).map((sheet) => sheet.name),
    finCellsIn,
    requestsOf: (cells: readonly FinCell[]) => runtime.cellRequests(cells, own.companyId),
  };
  return async (skipSheets, covered = []) => {
    // What the company's relative blocks read now: moved with the period, the plan prices what they read then.
    const relative = (await gateway.listBindings()).filter((b) => b.company === own.companyId).flatMap((b) => {
      const spec = specFromBinding(b);
      return spec?.relation ? blockRequests(spec) : [];
    });
    return periodFormulas(deps, skipSheets, [...covered, ...relative]);
  };
}

export function workspaceReporting(env: Env, own: CompanyWorkspace): Workspace['reporting'] {
  const { gateway } = env;
  return {
    period: () => readReportingPeriod(gateway),
    boardPack: () => boardPackIn(gateway),
    packCost: async (month, options) => {
      const choice = { ...options, fiscalYearStartMonth: own.fiscalYearStartMonth };
      await checkPackBudget(gateway, month, choice);
      return packCosts(own.reader, month, choice);
    },
    proposeRoles: (options) => proposeRolesFor(own.reader, own.client, options),
    // No roles confirmed in the pane: those proposed from the chart, which the pack reads anyway.
    insertPack: async (month, options, onProgress) => {
      const roles = options.roles ?? (await proposeRolesFor(own.reader, own.client))!.roles;
      return insertBoardPack(gateway, own.statements, month, { ...options, roles, fiscalYearStartMonth: own.fiscalYearStartMonth, onProgress });
    },
    changePackRoles: (roles) => changePackRoles(gateway, roles),
    periodFormulas: periodFormulasOf(env, own),
  };
}
