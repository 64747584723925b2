// The chart of accounts behind the pane's category pickers: the connection's cached answer, free when the
// FIN functions or another screen fetched it already, else loaded on the user's word (one call, its cost
// shown first, recorded in the action log). One screen holds one of these for all its pickers, so loading
// it once fills them all. The filter typed into a picker (or the formula helper's list) is here too.

import { useState } from 'react';
import type { Category, FullList } from '../../api/types';
import type { Tree, TreeNode } from '../../engine/tree';
import type { PaneServices } from '../services';
import type { ConnectedState } from '../session';
import { buildTree } from '../../runtime/screenKit';
import { useLiveEffect } from './useLiveEffect';

const CATEGORIES_REQUEST = { path: '/categories' };

export interface Categories {
  /** The tree once known (cached or loaded); null before. */
  tree: Tree<Category> | null;
  /** True once the cache was looked at: until then nothing (not even the offer to load) is shown. */
  checked: boolean;
  loading: boolean;
  /** Why loading failed, for the screen's error message. */
  error: unknown;
  /** Loads the list: one call, through the cache (no call when it got there meanwhile). */
  load(): Promise<void>;
}

export function useCategories(services: PaneServices, connection: ConnectedState): Categories {
  const { reader, client } = connection;
  const [tree, setTree] = useState<Tree<Category> | null>(null);
  const [checked, setChecked] = useState(false);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<unknown>(null);

  // Cached already? Then the tree is there at no cost; otherwise the pickers offer to load it.
  useLiveEffect(
    (ifLive) => {
      void reader
        .peek<FullList<Category>>(CATEGORIES_REQUEST)
        .then(
          ifLive((hit) => {
            if (hit) setTree(buildTree(hit.value.data ?? [], 'category'));
            setChecked(true);
          }),
        )
        .catch(() => setChecked(true));
    },
    [reader],
  );

  const load = async () => {
    setLoading(true);
    setError(null);
    try {
      const answer = await services.actions.track('Load categories', () =>
        reader.read<FullList<Category>>(CATEGORIES_REQUEST, (o) => client.categories.list(o)),
      );
      setTree(buildTree(answer.value.data ?? [], 'category'));
    } catch (e) {
      setError(e);
    } finally {
      setLoading(false);
    }
  };

  return { tree, checked, loading, error, load };
}

/**
 * Categories whose path has a word starting with each word typed (case-insensitive), so "rent" finds Rent
 * and not Current Assets, and "soft sub" finds Software Subscriptions; all of them for an empty filter.
 */
export function filterCategories(tree: Tree<Category>, filter: string): TreeNode<Category>[] {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...tree.ordered];
  const patterns = words.map((w) => new RegExp(`(^|[^\\p{L}\\p{N}])${w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'u'));
  return tree.ordered.filter((n) => {
    const path = n.path.toLowerCase();
    return patterns.every((p) => p.test(path));
  });
}
