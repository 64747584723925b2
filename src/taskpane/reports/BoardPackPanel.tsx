import { Button, Text } from '@fluentui/react-components';
import { useEffect, useMemo, useState } from 'react';
import type { CallCost } from '../../engine/reader/cachedReader';
import type { ReportingPeriod } from '../../engine/reporting/period';
import { ActionOutcome } from '../shared/ActionOutcome';
import type { PaneServices } from '../services';
import type { ConnectedState } from '../session';
import { useScreenStyles } from '../shared/styles';
import { useLiveEffect } from '../shared/useLiveEffect';
import { derivedNote, parseReportingMonth, plural } from '../../runtime/screenKit';

// The board-pack template: one action inserting a monthly pack keyed on the reporting period (the P&L of the
// month and year to date against the prior year, the P&L by month, the balance sheet against the prior year
// end, the cash flow and a KPI sheet of FIN formulas), its cost shown first.

export interface BoardPackPanelProps {
  services: PaneServices;
  connection: ConnectedState;
  period: ReportingPeriod | null;
  /** The pack this workbook already holds (its KPI sheet), if any: it rolls forward, a second is not inserted. */
  pack: { kpiSheet: string } | null;
  /** Bumped when what is cached may have changed (an insert, a move): the cost is worked out again. */
  costVersion: number;
  onInserted: () => void;
}

export function BoardPackPanel({ services, connection, period, pack, costVersion, onInserted }: BoardPackPanelProps) {
  const styles = useScreenStyles();
  const [cost, setCost] = useState<CallCost | null>(null);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [result, setResult] = useState('');
  const [error, setError] = useState<unknown>(null);
  const monthText = period?.state === 'set' ? period.text : null;
  // By its text: a new object from each read of the cell would price the pack again for nothing.
  const month = useMemo(() => (monthText ? parseReportingMonth(monthText) : null), [monthText]);

  // FIN formulas that calculate (the pack's KPIs just inserted) fill the cache: priced again after each batch.
  const [batches, setBatches] = useState(0);
  useEffect(() => services.runtime.onFinBatch(() => setBatches((n) => n + 1)), [services]);

  useLiveEffect(
    (ifLive) => {
      if (!month || pack) {
        setCost(null);
        return;
      }
      connection.workspace.reporting.packCost(month).then(ifLive(setCost), () => undefined);
    },
    [month, pack, connection.workspace, costVersion, batches],
  );

  const insert = async () => {
    if (!month || pack) return;
    setError(null);
    setResult('');
    setProgress({ done: 0, total: 6 });
    try {
      const pack = await services.actions.track(`Insert the board pack for ${monthText}`, () =>
        connection.workspace.reporting.insertPack(month, (done, total) => setProgress({ done, total })),
      );
      const spent = services.actions.entries(connection.companyId)[0]?.calls ?? 0;
      setResult(
        `Inserted the board pack for ${monthText}: ${plural(pack.blocks.length, 'statement block')} and the sheet ${pack.kpiSheet}. The statements spent ${plural(spent, 'call')}; the KPI formulas fetch the rest of the cost shown as they calculate.`,
      );
    } catch (e) {
      setError(e);
    } finally {
      setProgress(null);
      onInserted();
    }
  };

  return (
    <section aria-label="Board pack" className={styles.screen}>
      <Text weight="semibold">Board pack</Text>
      <Text role="status" aria-live="polite">
        {pack
          ? `This workbook has its board pack (KPI sheet "${pack.kpiSheet}"): it rolls forward with the reporting period above. To insert it again, delete its sheets first.`
          : !month
            ? 'Set the reporting period first: the pack follows it.'
            : cost
              ? `Five statement sheets and a KPI sheet for ${monthText}, rolling forward with the reporting period: costs ${plural(cost.calls, 'call')} (${cost.cached} cached)${derivedNote(cost)}.`
              : ''}
      </Text>
      <div className={styles.row}>
        {/* Focusable when refused (a pack is here), so keyboard focus stays after an insert. */}
        <Button onClick={() => void insert()} disabled={!month} disabledFocusable={progress !== null || pack !== null}>
          Insert the board pack
        </Button>
      </div>
      <ActionOutcome progress={progress} label="Inserting the board pack" unit="sheets" result={result} error={error} connection={connection} />
    </section>
  );
}
