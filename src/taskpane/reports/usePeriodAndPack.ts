// The reporting period and the board pack as the Reports tab prices a move of the period: with a pack in the
// workbook, moving the period prices its KPI and chart formulas' reads too, and the other FIN formulas naming
// FIN_PERIOD where the host can find formulas (a figure the pack's formulas read now is not counted again).

import { useMemo, useState } from 'react';
import type { YearMonth } from '../../engine/dates';
import type { BoardPack } from '../../engine/reporting/boardPack';
import type { Workspace } from '../../runtime';
import { packFormulaReads, parseReportingMonth } from '../../runtime/screenKit';
import { useLiveEffect } from '../shared/useLiveEffect';
import { useReportingPeriod } from './ReportingPeriodPanel';

/** Read again whenever `periodVersion` moves (the period moved, or the pack went in). */
export function usePeriodAndPack(workspace: Workspace, periodVersion: number) {
  const reporting = useReportingPeriod(workspace, periodVersion);
  // With a board pack in the workbook, moving the period prices its KPI and chart formulas' reads too.
  const [pack, setPack] = useState<BoardPack | null>(null);
  useLiveEffect(
    (ifLive) => {
      void workspace.reporting.boardPack().then(ifLive(setPack), () => undefined);
    },
    [workspace, periodVersion],
  );
  const formulaReads = useMemo(() => (pack ? async (month: YearMonth) => packFormulaReads(pack, month) : undefined), [pack]);
  // The other FIN formulas naming FIN_PERIOD, where the host can find formulas (the pack's are priced above).
  // A figure the pack's formulas read now is not counted again for the user's formulas (it is in the cost).
  const periodNow = reporting?.state === 'set' ? reporting.text : null;
  const periodCells = useMemo(() => {
    const scan = workspace.reporting.periodFormulas;
    const now = periodNow ? parseReportingMonth(periodNow) : null;
    const covered = pack && now ? packFormulaReads(pack, now) : [];
    return scan ? () => scan(pack ? [pack.kpiSheet, ...(pack.chartSheet ? [pack.chartSheet] : [])] : [], covered) : undefined;
  }, [workspace, pack, periodNow]);
  return { reporting, pack, formulaReads, periodCells };
}
