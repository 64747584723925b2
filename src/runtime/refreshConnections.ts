// Refresh all across the connections: each company's cached answers are marked due, the workbook's FIN
// cells are recalculated once, and the report says what each company spent (each has its own monthly cap).
// With one connection this is that connection's refresh as it always was.

import type { FinService, Recalculation, RefreshOptions, RefreshReport } from '../engine/fin';
import { plural } from '../engine/text/plural';

export interface RefreshTarget {
  /** The connection's name, for the report. */
  name: string;
  service: FinService;
}

/**
 * One recalculation for several refreshes: it starts once every refresh has asked for it or ended without
 * (a capped company marks nothing and asks for none), so no company's cells are read before its answers are
 * marked due. The evaluation count is left out of the signals: it counts every company's cells, and each
 * refresh sees only its own.
 */
function sharedRecalculation(parties: number, recalculate: () => Promise<Recalculation | void>) {
  let arrived = 0;
  let release!: () => void;
  const allArrived = new Promise<void>((resolve) => {
    release = resolve;
  });
  const arrive = (): void => {
    arrived += 1;
    if (arrived === parties) release();
  };
  let once: Promise<Recalculation | void> | null = null;
  const run = async (): Promise<Recalculation> => {
    arrive();
    await allArrived;
    once ??= recalculate();
    const { calculationDone, dependents } = (await once) ?? {};
    // Each refresh recalculates the dependents once its own cells have settled: the last does it with every figure new.
    return { ...(calculationDone ? { calculationDone } : {}), ...(dependents ? { dependents } : {}) };
  };
  return { run, arrive };
}

export async function refreshConnections(targets: RefreshTarget[], options: RefreshOptions): Promise<RefreshReport> {
  if (targets.length === 1) return targets[0].service.refreshAll(options);
  const started = Date.now();
  const shared = sharedRecalculation(targets.length, options.recalculate);
  const reports = await Promise.all(
    targets.map(async (t) => {
      let asked = false;
      try {
        return await t.service.refreshAll({
          ...options,
          recalculate: () => {
            asked = true;
            return shared.run();
          },
        });
      } finally {
        if (!asked) shared.arrive();
      }
    }),
  );
  const spent = reports.reduce((n, r) => n + r.spent, 0);
  const what = options.scope === 'changed' ? 'Refresh of what changed' : 'Refresh all';
  const each = targets.map((t, i) => `${t.name}: ${reports[i].message.replace(/^Refresh (all|of what changed) /, '')}`).join('; ');
  return {
    spent,
    due: reports.reduce((n, r) => n + r.due, 0),
    kept: reports.reduce((n, r) => n + r.kept, 0),
    settled: reports.every((r) => r.settled),
    limited: reports.some((r) => r.limited),
    durationMs: Date.now() - started,
    message: `${what} spent ${plural(spent, 'call')} (${each})`,
  };
}
