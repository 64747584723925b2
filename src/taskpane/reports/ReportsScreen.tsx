import { ChoiceField } from '../shared/ChoiceField';
import { Button, Checkbox, Field, Input, Radio, RadioGroup, Text } from '@fluentui/react-components';
import { useCallback, useMemo, useState } from 'react';
import type { Period, YearMonth } from '../../engine/dates';
import type { Scale } from '../../engine/render';
import { ActionOutcome } from '../shared/ActionOutcome';
import { BoardPackPanel } from './BoardPackPanel';
import { DepartmentsField } from './DepartmentsField';
import { useDepartments } from '../shared/useDepartments';
import { ChartPanel } from './ChartPanel';
import { BudgetsPanel } from './BudgetsPanel';
import { useBudgets } from '../shared/useBudgets';
import { ReportingPeriodPanel, useReportingPeriod } from './ReportingPeriodPanel';
import { useCompany, useConnectionOf, useToday } from '../shared/hooks';
import { InView } from '../shared/InView';
import type { ScreenProps } from '../services';
import type { CallCost } from '../../engine/reader/cachedReader';
import type { BoardPack } from '../../engine/reporting/boardPack';
import type { CallsLeft } from '../../engine/budget/callsLeft';
import type { FittingBlock } from '../../engine/statements/fit';
import type { LayoutKey, PeriodChoice, PeriodRelation, StatementKind, StatementSpec } from '../../engine/statements';
import { useScreenStyles } from '../shared/styles';
import { useLiveEffect } from '../shared/useLiveEffect';
import { columnsFor, costText, describeSpec, exceedsLeft, fail, isWholeMonths, LAYOUTS, notStartedText, offersLayout, offersTotal, offersVariance, ok, packFormulaReads, parseReportingMonth, PERIOD_CHOICES, plural, RELATIONS, relativePeriod, resolvePeriod, SCALES, statementLabel, STATEMENTS } from '../../runtime/screenKit';

// Reports: the reporting period (FIN_PERIOD, ReportingPeriodPanel); pick a company (with several connected:
// the block is fetched, priced and refreshed on its connection), a statement, a period (fixed, or
// relative to the reporting period: the block then rolls forward with it), a layout (months or quarters side by side may get a Total column,
// a comparison its Variance columns) and units; see what it will cost (periods already cached are free); insert it on a new sheet or at the
// selected cell, with progress. The block is recorded so Refresh can rebuild it. A block that costs more
// than the month has left is not started (it would stop part way): the pane says so and offers the leading
// periods that fit.

interface Progress {
  done: number;
  total: number;
}

export function ReportsScreen({ services, connection }: ScreenProps) {
  const styles = useScreenStyles();
  const today = useToday(services);
  const [statement, setStatement] = useState<StatementKind>('income_statement');
  const [periodChoice, setPeriodChoice] = useState<PeriodChoice>('last_month');
  /** Set when the period follows the reporting period; periodChoice is then not used. */
  const [relation, setRelation] = useState<PeriodRelation | null>(null);
  const [periodVersion, setPeriodVersion] = useState(0);
  const { workspace } = connection;
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
  const [customStart, setCustomStart] = useState('');
  const [customEnd, setCustomEnd] = useState('');
  const [layoutChoice, setLayout] = useState<LayoutKey>('single');
  /** By department: the department whose children are the columns (null: the top tier; undefined: not chosen yet). */
  const [departmentsUnder, setDepartmentsUnder] = useState<string | null | undefined>(undefined);
  const [total, setTotal] = useState(false);
  // A comparison is read by its variance: offered, and on unless the user turns it off.
  const [variance, setVariance] = useState(true);
  const [scale, setScale] = useState<Scale>('units');
  // Against budget: a budget the workbook keeps (BudgetsPanel), for an income statement.
  const [budgetsVersion, setBudgetsVersion] = useState(0);
  const budgets = useBudgets(workspace, budgetsVersion);
  const [budgetName, setBudgetName] = useState('');
  const layouts = LAYOUTS.filter((l) => offersLayout(statement, l.key) && (l.key !== 'budget' || budgets.length > 0));
  // A layout no longer offered (another statement chosen, the budget forgotten) falls back to one period.
  const layout = layouts.some((l) => l.key === layoutChoice) ? layoutChoice : 'single';
  const budget = layout === 'budget' ? (budgets.find((b) => b.name === budgetName) ?? budgets[0]) : undefined;
  const [where, setWhere] = useState<'newSheet' | 'selection'>('newSheet');
  // The reporting period and the board pack are the default connection's (its FIN formulas name no company);
  // a statement block may be any connected company's, and is refreshed on its connection.
  const statements = workspace.statements;
  const [companyId, setCompanyId] = useState(connection.companyId);
  const chosenId = connection.connections.some((c) => c.companyId === companyId) ? companyId : connection.companyId;
  // Roll forward moves the default company's blocks (the pack's): another company's block takes fixed dates.
  const ofDefault = chosenId === connection.companyId;
  const working = useConnectionOf(connection, chosenId);
  const company = useCompany(connection, chosenId);
  const target = working ?? connection;
  const departments = useDepartments(services, target);
  const blocks = company?.statements ?? statements;
  const callsLeft = useCallback(() => workspace.callsLeft(chosenId), [workspace, chosenId]);
  const [cost, setCost] = useState<(CallCost & { left: CallsLeft | null; fit: FittingBlock | null }) | null>(null);
  const [costVersion, setCostVersion] = useState(0);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [result, setResult] = useState('');
  const [error, setError] = useState<unknown>(null);

  const period = useMemo(() => {
    if (!relation) return resolvePeriod(periodChoice, { today, fiscalYearStartMonth: target.fiscalYearStartMonth, customStart, customEnd });
    if (reporting?.state !== 'set') return fail<Period>('Set the reporting period above first.');
    return ok(relativePeriod(relation, reporting.month, target.fiscalYearStartMonth));
  }, [relation, reporting, periodChoice, today, target.fiscalYearStartMonth, customStart, customEnd]);
  // A budget is kept by month: a period that ends today (this month so far) has no budget to set against it.
  const budgetError = budget && period.ok && !isWholeMonths(period.value) ? 'A budget is kept by month: choose whole months (last month, a quarter, or a period of the reporting period).' : undefined;
  const canTotal = offersTotal({ statement, layout });
  const canVariance = offersVariance({ layout });
  const spec: StatementSpec | null = useMemo(
    () =>
      period.ok && (layout !== 'budget' || (budget && !budgetError))
        ? {
            statement,
            period: relation ? 'custom' : periodChoice,
            start: period.value.start,
            end: period.value.end,
            layout,
            scale,
            fiscalYearStartMonth: target.fiscalYearStartMonth,
            ...(canTotal && total ? { total: true } : {}),
            ...(canVariance && variance ? { variance: true } : {}),
            ...(relation ? { relation } : {}),
            ...(layout === 'by_department' && departmentsUnder ? { departmentsUnder } : {}),
            ...(layout === 'budget' && budget ? { budget: budget.name } : {}),
          }
        : null,
    [period, statement, periodChoice, relation, layout, scale, target.fiscalYearStartMonth, canTotal, total, canVariance, variance, departmentsUnder, budget, budgetError],
  );

  // The year to date differs from the period picked: say which two spans are compared.
  const ytdHint = useMemo(() => {
    if (!spec || spec.layout !== 'prior_ytd' || spec.statement === 'balance_sheet') return undefined;
    const [actual, prior] = columnsFor(spec);
    return `${actual.start} to ${actual.end} against ${prior.start} to ${prior.end}`;
  }, [spec]);

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

  const busy = progress !== null;
  const loading = working === null;

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

  const shortOf = cost !== null && exceedsLeft(cost.calls, cost.left);
  // The period moved or the pack went in: what the blocks read, and so every cost shown, is read again.
  const periodChanged = () => {
    setPeriodVersion((v) => v + 1);
    setCostVersion((v) => v + 1);
  };

  return (
    <div className={styles.screen}>
      <ReportingPeriodPanel
        services={services}
        connection={connection}
        statements={statements}
        today={today}
        period={reporting}
        formulaReads={formulaReads}
        periodFormulas={periodCells}
        onMoved={periodChanged}
      />
      <BudgetsPanel services={services} connection={connection} budgets={budgets} onChanged={() => setBudgetsVersion((v) => v + 1)} />
      <BoardPackPanel
        services={services}
        connection={connection}
        period={reporting}
        pack={pack}
        budgets={budgets}
        costVersion={costVersion}
        onInserted={periodChanged}
      />
      {connection.connections.length > 1 && (
        <ChoiceField
          label="Company"
          hint={
            loading
              ? 'Opening its connection…'
              : `Fetched and refreshed on the ${target.companyName} connection, at its cost.${ofDefault ? '' : ' Fixed dates only: Roll forward moves the default company’s blocks.'}`
          }
          value={chosenId}
          choices={connection.connections.map((c) => ({ key: c.companyId, label: c.isDefault ? `${c.name} (default)` : c.name }))}
          onChange={(id) => {
            setCompanyId(id);
            setDepartmentsUnder(undefined);
            if (id !== connection.companyId) setRelation(null);
          }}
          disabled={busy}
        />
      )}
      <ChoiceField label="Statement" value={statement} choices={STATEMENTS} onChange={setStatement} disabled={busy} />
      <ChoiceField<string>
        label="Period"
        hint={period.ok ? `${period.value.start} to ${period.value.end}${relation ? ', rolling forward with the reporting period' : ''}` : undefined}
        error={!period.ok && (relation || (periodChoice === 'custom' && customStart && customEnd)) ? period.error : undefined}
        value={relation ? `relative:${relation}` : periodChoice}
        choices={[
          { group: 'Fixed dates', choices: PERIOD_CHOICES },
          ...(ofDefault ? [{ group: 'Relative to the reporting period', choices: RELATIONS.map((r) => ({ key: `relative:${r.key}`, label: r.label })) }] : []),
        ]}
        onChange={(key) => {
          const chosen = RELATIONS.find((r) => `relative:${r.key}` === key);
          setRelation(chosen?.key ?? null);
          if (!chosen) setPeriodChoice(key as PeriodChoice);
        }}
        disabled={busy}
      />
      {!relation && periodChoice === 'custom' && (
        <div className={styles.twoColumns}>
          <Field label="Start date">
            <Input type="date" value={customStart} onChange={(_, d) => setCustomStart(d.value)} disabled={busy} />
          </Field>
          <Field label="End date">
            <Input type="date" value={customEnd} onChange={(_, d) => setCustomEnd(d.value)} disabled={busy} />
          </Field>
        </div>
      )}
      <ChoiceField
        label="Layout"
        hint={statement === 'balance_sheet' ? 'A balance sheet is taken at the end of each period.' : ytdHint}
        value={layout}
        choices={layouts}
        onChange={setLayout}
        disabled={busy}
      />
      {layout === 'by_department' && <DepartmentsField departments={departments} value={departmentsUnder} onChange={setDepartmentsUnder} disabled={busy} />}
      {layout === 'budget' && budget && (
        // Actual, Budget, Variance and Variance %: the budget is read from the workbook, for no call.
        <ChoiceField
          label="Budget"
          hint="Actual, Budget, Variance and Variance %, favourable positive. The budget is read from this workbook: no call."
          error={budgetError}
          value={budget.name}
          choices={budgets.map((b) => ({ key: b.name, label: b.address ? b.name : `${b.name} (not found)` }))}
          onChange={setBudgetName}
          disabled={busy}
        />
      )}
      {canTotal && (
        // Summed from the fetched periods' cents when the block is written: costs nothing more.
        <Checkbox label="Add a Total column (no extra call)" checked={total} onChange={(_, d) => setTotal(d.checked === true)} disabled={busy} />
      )}
      {canVariance && (
        // Computed from the two periods' cents when the block is written: costs nothing more.
        <Checkbox
          label="Add Variance and Variance % columns, favourable positive (no extra call)"
          checked={variance}
          onChange={(_, d) => setVariance(d.checked === true)}
          disabled={busy}
        />
      )}
      <ChoiceField label="Units" value={scale} choices={SCALES} onChange={setScale} disabled={busy} />
      <Field label="Insert at">
        <RadioGroup value={where} onChange={(_, d) => setWhere(d.value as 'newSheet' | 'selection')} disabled={busy} layout="horizontal">
          <Radio value="newSheet" label="New sheet" />
          <Radio value="selection" label="Selected cell" />
        </RadioGroup>
      </Field>
      <Text role="status" aria-live="polite" aria-atomic="true">
        {cost ? costText(cost) : spec ? '' : 'Choose a valid period to see the cost.'}
        {shortOf && cost.left ? ` ${notStartedText('This block', cost.calls, cost.left)}` : ''}
        {shortOf && !cost.fit ? ' Choose a shorter period.' : ''}
      </Text>
      <div className={styles.row}>
        {/* Focusable while busy (or refused), so keyboard focus stays here rather than falling to the page. */}
        <Button appearance="primary" onClick={() => void insert()} disabled={!spec} disabledFocusable={busy || shortOf || loading}>
          Insert
        </Button>
        {shortOf && cost.fit && (
          <Button onClick={() => void insert(cost.fit!.spec)} disabledFocusable={busy}>
            {`Insert the first ${plural(cost.fit.periods, spec?.layout === 'quarters' ? 'quarter' : 'month')} (${plural(cost.fit.calls, 'call')})`}
          </Button>
        )}
      </div>
      <InView watch={progress ? `${progress.done}/${progress.total}` : result || (error ? 'error' : '')}>
        <ActionOutcome progress={progress} label="Fetching periods" unit="fetched" result={result} error={error ?? departments.error} connection={target} />
      </InView>
      <ChartPanel connection={connection} version={costVersion + periodVersion} />
    </div>
  );
}
