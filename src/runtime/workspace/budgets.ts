// Budgets kept in the workbook (Workspace.budgets), matched to the default company's chart of accounts;
// never sent anywhere.

import { checkBudget, checkCost, forgetBudget, keepBudget, listBudgets, selectedBudget } from '../../engine/budgets';
import type { WorkbookGateway } from '../../engine/ports/workbook';
import type { CompanyWorkspace, Workspace } from './types';

export function workspaceBudgets(gateway: WorkbookGateway, own: Pick<CompanyWorkspace, 'reader' | 'client'>): Workspace['budgets'] {
  return {
    list: () => listBudgets(gateway),
    checkCost: () => checkCost(own.reader),
    check: async (address) => checkBudget(gateway, own.reader, own.client, address ?? (await selectedBudget(gateway))),
    keep: (name, address) => keepBudget(gateway, name, address),
    forget: (name) => forgetBudget(gateway, name),
  };
}
