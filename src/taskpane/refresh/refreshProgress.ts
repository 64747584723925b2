import { plural } from '../../runtime/screenKit';
// What the Refresh tab says while it works. A refresh first asks what changed (Refresh changes), then
// recalculates the FIN formulas (no count to show yet: it said "0 of 0"), then rebuilds the blocks, counting
// the reports each block reads; two blocks of the same periods read the same reports, fetched once, and a
// changes refresh fetches only the changed ones, so that count can exceed the calls fetched, and the line
// says why (issue 13).


export type RefreshProgress =
  | { phase: 'asking' }
  | { phase: 'formulas' }
  | {
      phase: 'blocks';
      /** Reports read so far, and in all, block by block. */
      done: number;
      total: number;
      /** Reports among them that are fetched: what the estimate counted (the others come from the cache). */
      distinct: number;
    };

export function refreshProgressText(progress: RefreshProgress): string {
  if (progress.phase === 'asking') return 'Asking the API what changed since the last refresh…';
  if (progress.phase === 'formulas') return 'Recalculating the FIN formulas…';
  const read = `${progress.done} of ${plural(progress.total, 'report')} read`;
  if (progress.total === progress.distinct) return read;
  return `${read} (${progress.distinct} of them fetched, the others read from the cache)`;
}
