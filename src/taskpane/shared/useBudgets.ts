// The budgets the workbook keeps (Reports tab, Budgets), for the screens that offer them: the statement layout
// "Against budget" and the formula helper's budget functions. Read from the workbook, never from the API.

import { useState } from 'react';
import type { KeptBudget } from '../../engine/budgets';
import type { Workspace } from '../../runtime';
import { useLiveEffect } from './useLiveEffect';

/** The kept budgets, read again whenever `version` moves (one was kept or forgotten). */
export function useBudgets(workspace: Workspace, version: number): KeptBudget[] {
  const [budgets, setBudgets] = useState<KeptBudget[]>([]);
  useLiveEffect(
    (ifLive) => {
      workspace.budgets.list().then(ifLive(setBudgets), () => undefined);
    },
    [workspace, version],
  );
  return budgets;
}
