// Asking before a refresh spends: the workspace says what it costs (and refuses what cannot be afforded),
// and the pane shows it to confirm, remembering the button that asked (focus goes back there on Cancel).

import { useRef, type Dispatch, type SetStateAction } from 'react';
import type { WorkbookPlan } from '../../engine/refresh/plan';
import type { ScopeKind } from '../../engine/refresh/scopeRefresh';
import type { RefreshKind } from '../../engine/refresh/workbookRefresh';
import type { RefreshBlock } from '../../engine/statements';
import type { Workspace } from '../../runtime';
import type { Pending } from './runRefresh';

export interface RefreshAsksDeps {
  workspace: Workspace;
  includeReference: boolean;
  setPlan: Dispatch<SetStateAction<WorkbookPlan | null>>;
  setPending: Dispatch<SetStateAction<Pending | null>>;
  setResult: (result: string) => void;
  setError: (error: unknown) => void;
}

export function useRefreshAsks({ workspace, includeReference, setPlan, setPending, setResult, setError }: RefreshAsksDeps) {
  /** The button that asked for the pending refresh: focus goes back there on Cancel. */
  const openerRef = useRef<HTMLElement | null>(null);

  /** Asks the workspace what something costs (it refuses what cannot be afforded), then shows it to confirm. */
  const asking = async (opener: HTMLElement, what: () => Promise<Pending | null>) => {
    openerRef.current = opener;
    setError(null);
    setResult('');
    try {
      const next = await what();
      if (next) setPending(next);
    } catch (e) {
      setError(e);
    }
  };

  const ask = (kind: RefreshKind, opener: HTMLElement) =>
    asking(opener, async () => {
      const asked = await workspace.askRefresh(kind);
      setPlan(asked.plan);
      return { kind, ask: asked, text: asked.text };
    });

  const askBlock = (block: RefreshBlock, opener: HTMLElement) => asking(opener, async () => ({ kind: 'block', block, text: await workspace.askBlock(block) }));

  /** The selection or the active sheet as it is now: what is in it, and exactly what refreshing it costs. */
  const askScope = (kind: ScopeKind, opener: HTMLElement) =>
    asking(opener, async () => {
      const { plan: scoped, text } = await workspace.askScope(kind, { includeReference });
      if (scoped.calls === 0 && scoped.cells.length === 0 && scoped.blocks.length === 0) {
        setResult(text);
        return null;
      }
      return { kind: 'scope', plan: scoped, text };
    });

  return { openerRef, ask, askBlock, askScope };
}
