// A statement block's cost as chosen (periods already cached are free; one that costs more than the month has
// left offers the leading periods that fit), and inserting it with progress, on its company's connection.

import { useCallback, useState } from 'react';
import type { CallsLeft } from '../../engine/budget/callsLeft';
import type { CallCost } from '../../engine/reader/cachedReader';
import type { FittingBlock } from '../../engine/statements/fit';
import type { StatementSpec, StatementsEngine } from '../../engine/statements';
import { describeSpec, exceedsLeft, plural, statementLabel } from '../../runtime/screenKit';
import type { PaneServices } from '../services';
import type { ConnectedState } from '../session';
import { useLiveEffect } from '../shared/useLiveEffect';

interface Progress {
  done: number;
  total: number;
}

export type BlockCost = CallCost & { left: CallsLeft | null; fit: FittingBlock | null };

export interface BlockInsertInput {
  services: PaneServices;
  connection: ConnectedState;
  /** The chosen company. */
  chosenId: string;
  /** The chosen company's connection (null while it opens). */
  working: ConnectedState | null;
  blocks: StatementsEngine;
  spec: StatementSpec | null;
  where: 'newSheet' | 'selection';
}

export function useBlockInsert({ services, connection, chosenId, working, blocks, spec, where }: BlockInsertInput) {
  const { workspace } = connection;
  const callsLeft = useCallback(() => workspace.callsLeft(chosenId), [workspace, chosenId]);
  const [cost, setCost] = useState<BlockCost | null>(null);
  const [costVersion, setCostVersion] = useState(0);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [result, setResult] = useState('');
  const [error, setError] = useState<unknown>(null);

  useLiveEffect(
    (ifLive) => {
      if (!spec || !working) {
        setCost(null);
        return;
      }
      void (async () => {
        const c = await blocks.cost(spec);
        const left = await callsLeft();
        const fit = exceedsLeft(c.calls, left) ? await workspace.fit(spec, left.left, working.companyId) : null;
        return { ...c, left, fit };
      })().then(ifLive(setCost), () => undefined);
    },
    [spec, blocks, working, workspace, callsLeft, costVersion],
  );

  const insert = async (chosen: StatementSpec | null = spec) => {
    if (!chosen || !working) return;
    setError(null);
    setResult('');
    setProgress({ done: 0, total: cost?.requests ?? 0 });
    const action = `Insert ${describeSpec(chosen)}`;
    let fetched = 0;
    try {
      const { written } = await services.actions.track(
        action,
        () =>
          blocks.insert(chosen, where, (done, total) => {
            fetched = done;
            setProgress({ done, total });
          }),
        [working.companyId],
      );
      const spent = services.actions.entries(working.companyId)[0]?.calls ?? 0;
      const whose = working === connection ? '' : ` of ${working.companyName}`;
      setResult(`Inserted the ${statementLabel(chosen.statement).toLowerCase()}${whose} at ${written.address}. Spent ${plural(spent, 'call')}.`);
    } catch (e) {
      // What was fetched before the cap stopped it is cached: the next Insert of the same block costs the rest.
      if ((e as { code?: unknown })?.code === 'monthly_limit_exceeded' && fetched > 0) {
        setResult(`${plural(fetched, 'period')} fetched before the limit ${fetched === 1 ? 'is' : 'are'} kept: inserting this block again costs only the rest.`);
      }
      setError(e);
    } finally {
      setProgress(null);
      setCostVersion((v) => v + 1);
    }
  };

  return { cost, costVersion, setCostVersion, progress, result, error, insert };
}
