// The Refresh tab's plan of the workbook (its blocks, what each kind of refresh costs): read when the tab
// opens and whenever FIN data changes (a push or shift marks what it changed, and the blocks it leaves
// behind say so without a click), but not while a refresh runs: it says what it left when done.

import { useCallback, useEffect, useRef, useState } from 'react';
import type { WorkbookPlan } from '../../engine/refresh/plan';
import type { Workspace } from '../../runtime';
import type { PaneServices } from '../services';

export function useRefreshPlan(workspace: Workspace, services: PaneServices, setError: (error: unknown) => void) {
  const [plan, setPlan] = useState<WorkbookPlan | null>(null);
  /** A refresh is running: it says what it left when done, so the data it changes on the way reads nothing again. */
  const running = useRef(false);

  const reload = useCallback(async () => {
    if (running.current) return;
    try {
      setPlan(await workspace.plan());
    } catch (e) {
      setError(e);
    }
  }, [workspace, setError]);

  useEffect(() => {
    void reload();
  }, [reload]);

  // A push or shift marks what it changed: the blocks it leaves behind say so without a click.
  useEffect(() => services.runtime.onDataChange(() => void reload()), [services.runtime, reload]);

  return { plan, setPlan, reload, running };
}
