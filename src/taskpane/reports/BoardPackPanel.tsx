import { Button, Checkbox, Text } from '@fluentui/react-components';
import { useEffect, useId, useMemo, useState } from 'react';
import type { KeptBudget } from '../../engine/budgets';
import type { CallCost } from '../../engine/reader/cachedReader';
import type { BoardPack, PackCosts, PackParts } from '../../engine/reporting/boardPack';
import type { PackRoles } from '../../engine/reporting/packRoles';
import type { ReportingPeriod } from '../../engine/reporting/period';
import { PackRolesField } from './PackRolesField';
import { PackRolesEdit } from './PackRolesEdit';
import { ActionOutcome } from '../shared/ActionOutcome';
import { ChoiceField } from '../shared/ChoiceField';
import { ErrorMessage } from '../shared/ErrorMessage';
import type { PaneServices } from '../services';
import type { ConnectedState } from '../session';
import { useScreenStyles } from '../shared/styles';
import { useLiveEffect } from '../shared/useLiveEffect';
import { derivedNote, parseReportingMonth, plural } from '../../runtime/screenKit';

// The board-pack template: one action inserting a monthly pack keyed on the reporting period (the P&L of the
// month and year to date against the prior year, the P&L by month, the balance sheet against the prior year
// end, the cash flow, with a kept budget the month and year to date against it, the month by department, a
// KPI sheet of FIN formulas and a sheet of charts), its cost shown first. The P&L by department reads the
// month's journal entries, whose pages are known only once read: the cost says "at least" or "about" then.
// The charts and the P&L by department are the costly parts (a company may have 10 calls a month): each is a
// choice, ticked by default, with what it adds said beside it; the pack's cost follows what is ticked.

export interface BoardPackPanelProps {
  services: PaneServices;
  connection: ConnectedState;
  period: ReportingPeriod | null;
  /** The pack this workbook already holds (its KPI sheet), if any: it rolls forward, a second is not inserted. */
  pack: BoardPack | null;
  /** The budgets the workbook keeps: the pack sets the month and the year to date against the one chosen. */
  budgets: readonly KeptBudget[];
  /** Bumped when what is cached may have changed (an insert, a move): the cost is worked out again. */
  costVersion: number;
  onInserted: () => void;
}

/** The picker's choice for a pack with no budget comparison. */
const NO_BUDGET = '';

/** "17 calls", "at least 3 calls": what a part adds. */
function partCostText(cost: CallCost): string {
  return `${cost.estimated ? `${cost.estimated} ` : ''}${plural(cost.calls, 'call')}`;
}

const COUNT_WORDS = ['Four', 'Five', 'Six', 'Seven'];

/** "Seven statement sheets (the P&L by department and against the budget B among them), a KPI sheet and a sheet of charts" */
function packContents(parts: PackParts, budget: string | undefined): string {
  const among = [...(parts.byDepartment ? ['by department'] : []), ...(budget ? [`against the budget ${budget}`] : [])];
  const sheets = `${COUNT_WORDS[among.length + 1]} statement sheets${among.length ? ` (the P&L ${among.join(' and ')} among them)` : ''}`;
  return `${sheets}, a KPI sheet${parts.charts ? ' and a sheet of charts' : ''}`;
}

/** "costs at least 20 calls (3 cached)", and why it is an estimate when it is one. */
function packCostText(cost: CallCost): string {
  const calls = `costs ${cost.estimated ? `${cost.estimated} ` : ''}${plural(cost.calls, 'call')} (${cost.cached} cached)${derivedNote(cost)}`;
  return cost.estimated ? `${calls}: the P&L by department reads the month's journal entries, 500 to a call, so their pages are known once read.` : `${calls}.`;
}

/** A costly part of the pack, ticked or not, with what it adds said beside it. */
function PartChoice({ label, cost, checked, onChange, disabled }: { label: string; cost: CallCost | null; checked: boolean; onChange: (checked: boolean) => void; disabled: boolean }) {
  const id = useId();
  const styles = useScreenStyles();
  return (
    <div className={styles.row}>
      <Checkbox label={label} checked={checked} onChange={(_, d) => onChange(d.checked === true)} disabled={disabled} aria-describedby={id} />
      <Text id={id} size={200}>
        {cost ? `${checked ? 'adds' : 'would add'} ${partCostText(cost)}` : ''}
      </Text>
    </div>
  );
}

export function BoardPackPanel({ services, connection, period, pack, budgets, costVersion, onInserted }: BoardPackPanelProps) {
  const styles = useScreenStyles();
  const [costs, setCosts] = useState<PackCosts | null>(null);
  const [parts, setParts] = useState<PackParts>({ charts: true, byDepartment: true });
  const [costError, setCostError] = useState<unknown>(null);
  // The first kept budget unless the user picks another, or none.
  const [budgetChoice, setBudgetChoice] = useState<string | null>(null);
  const budget = budgetChoice === NO_BUDGET ? undefined : (budgets.find((b) => b.name === budgetChoice) ?? budgets[0])?.name;
  // The categories of the roles the spec does not name, as confirmed here; undefined: proposed when inserting.
  const [roles, setRoles] = useState<PackRoles | undefined>(undefined);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [error, setError] = useState<unknown>(null);
  // The pack just inserted: what its statements spent, and when, so its formulas' calls add up after it.
  const [inserted, setInserted] = useState<{ text: string; at: number; statements: number } | null>(null);
  const monthText = period?.state === 'set' ? period.text : null;
  // By its text: a new object from each read of the cell would price the pack again for nothing.
  const month = useMemo(() => (monthText ? parseReportingMonth(monthText) : null), [monthText]);

  // FIN formulas that calculate (the pack's KPIs just inserted) fill the cache: priced again after each batch.
  const [batches, setBatches] = useState(0);
  useEffect(() => services.runtime.onFinBatch(() => setBatches((n) => n + 1)), [services]);
  // The chart read early for the roles (its call is the pack's): priced again, or the cost shown counts it twice.
  const [chartReads, setChartReads] = useState(0);

  // What the pack spent in all: its statements, then its KPI and chart formulas as Excel calculates them (the
  // action log's lines for FIN formulas since), said again after each batch until they are all in.
  const result = useMemo(() => {
    if (!inserted) return '';
    void batches;
    const formulas = services.actions
      .entries(connection.companyId)
      .filter((e) => e.at >= inserted.at && e.action.startsWith('FIN formulas'))
      .reduce((n, e) => n + e.calls, 0);
    return `${inserted.text} Spent ${plural(inserted.statements + formulas, 'call')}: the statements ${inserted.statements}, the formulas ${formulas} as they calculated.`;
  }, [inserted, batches, services.actions, connection.companyId]);

  useLiveEffect(
    (ifLive) => {
      setCostError(null);
      if (!month || pack) {
        setCosts(null);
        return;
      }
      connection.workspace.reporting.packCost(month, { ...parts, ...(budget ? { budget } : {}) }).then(ifLive(setCosts), ifLive((e: unknown) => {
        setCosts(null);
        setCostError(e);
      }));
    },
    [month, pack, budget, parts, connection.workspace, costVersion, batches, chartReads],
  );

  const insert = async () => {
    if (!month || pack || costError !== null) return;
    setError(null);
    setInserted(null);
    // The blocks, the KPI sheet and the charts' sheet, as the engine counts them.
    setProgress({ done: 0, total: 5 + (budget ? 2 : 0) + (parts.byDepartment ? 1 : 0) + 1 + (parts.charts ? 1 : 0) });
    try {
      const pack = await services.actions.track(`Insert the board pack for ${monthText}`, () =>
        connection.workspace.reporting.insertPack(month, { ...parts, ...(budget ? { budget } : {}), ...(roles ? { roles } : {}) }, (done, total) => setProgress({ done, total })),
      );
      const line = services.actions.entries(connection.companyId)[0];
      const sheets = pack.chartSheet ? `, the sheet ${pack.kpiSheet} and the charts on ${pack.chartSheet}` : ` and the sheet ${pack.kpiSheet}`;
      setInserted({ text: `Inserted the board pack for ${monthText}: ${plural(pack.blocks.length, 'statement block')}${sheets}.`, at: line?.at ?? Date.now(), statements: line?.calls ?? 0 });
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
          ? `This workbook has its board pack (KPI sheet "${pack.kpiSheet}"${pack.chartSheet ? `, charts on "${pack.chartSheet}"` : ''}): it rolls forward with the reporting period above. To insert it again, delete its sheets first.`
          : !month
            ? 'Set the reporting period first: the pack follows it.'
            : costs
              ? `${packContents(parts, budget)} for ${monthText}, rolling forward with the reporting period: ${packCostText(costs.pack)}`
              : ''}
      </Text>
      {!pack && month && (
        <>
          <PartChoice
            label="Board charts"
            cost={costs?.charts ?? null}
            checked={parts.charts}
            onChange={(charts) => setParts((p) => ({ ...p, charts }))}
            disabled={progress !== null}
          />
          <PartChoice
            label="P&L by department for the month"
            cost={costs?.byDepartment ?? null}
            checked={parts.byDepartment}
            onChange={(byDepartment) => setParts((p) => ({ ...p, byDepartment }))}
            disabled={progress !== null}
          />
        </>
      )}
      {pack && <PackRolesEdit services={services} connection={connection} pack={pack} costVersion={costVersion} onChanged={onInserted} />}
      {!pack && month && <PackRolesField services={services} connection={connection} roles={roles} onChange={setRoles} disabled={progress !== null} costVersion={costVersion} onChartRead={() => setChartReads((n) => n + 1)} />}
      {!pack && budgets.length > 0 && (
        <ChoiceField
          label="Budget in the pack"
          hint="The month and the year to date against it; the budget is read from the workbook, never sent."
          value={budget ?? NO_BUDGET}
          choices={[...budgets.map((b) => ({ key: b.name, label: b.name })), { key: NO_BUDGET, label: 'No budget comparison' }]}
          onChange={setBudgetChoice}
          disabled={progress !== null}
        />
      )}
      <ErrorMessage error={costError} />
      <div className={styles.row}>
        {/* Focusable when refused (a pack is here), so keyboard focus stays after an insert. */}
        <Button onClick={() => void insert()} disabled={!month} disabledFocusable={progress !== null || pack !== null || costError !== null}>
          Insert the board pack
        </Button>
      </div>
      <ActionOutcome progress={progress} label="Inserting the board pack" unit="sheets" result={result} error={error} connection={connection} />
    </section>
  );
}
