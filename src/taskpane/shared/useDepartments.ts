// The department tree behind the pane's department choices (the Reports screen's P&L by department, the
// formula helper): the connection's cached answer, free when a FIN function, a block or a transactions table
// fetched it already, else loaded on the user's word (one call, its cost shown first, in the action log).

import { useState } from 'react';
import type { Department, FullList } from '../../api/types';
import type { Tree } from '../../engine/tree';
import type { PaneServices } from '../services';
import type { ConnectedState } from '../session';
import { buildTree } from '../../runtime/screenKit';
import { useLiveEffect } from './useLiveEffect';

const DEPARTMENTS_REQUEST = { path: '/departments' };

export interface Departments {
  /** The tree once known (cached or loaded); null before. */
  tree: Tree<Department> | null;
  /** True once the cache was looked at. */
  checked: boolean;
  loading: boolean;
  error: unknown;
  /** Loads the list: one call, through the cache. */
  load(): Promise<void>;
}

export function useDepartments(services: PaneServices, connection: Pick<ConnectedState, 'reader' | 'client'>): Departments {
  const { reader, client } = connection;
  const [tree, setTree] = useState<Tree<Department> | null>(null);
  const [checked, setChecked] = useState(false);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<unknown>(null);

  useLiveEffect(
    (ifLive) => {
      setTree(null);
      setChecked(false);
      void reader
        .peek<FullList<Department>>(DEPARTMENTS_REQUEST)
        .then(
          ifLive((hit) => {
            if (hit) setTree(buildTree(hit.value.data ?? [], 'department'));
            setChecked(true);
          }),
        )
        .catch(ifLive(() => setChecked(true)));
    },
    [reader],
  );

  const load = async () => {
    setLoading(true);
    setError(null);
    try {
      const answer = await services.actions.track('Load departments', () =>
        reader.read<FullList<Department>>(DEPARTMENTS_REQUEST, (o) => client.departments.list(o)),
      );
      setTree(buildTree(answer.value.data ?? [], 'department'));
    } catch (e) {
      setError(e);
    } finally {
      setLoading(false);
    }
  };

  return { tree, checked, loading, error, load };
}
