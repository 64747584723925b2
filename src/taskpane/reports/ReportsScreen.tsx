import { ChoiceField } from '../shared/ChoiceField';
import { Button, Field, Radio, RadioGroup, Text } from '@fluentui/react-components';
import { useState } from 'react';
import { ActionOutcome } from '../shared/ActionOutcome';
import { BoardPackPanel } from './BoardPackPanel';
import { useDepartments } from '../shared/useDepartments';
import { ChartPanel } from './ChartPanel';
import { BudgetsPanel } from './BudgetsPanel';
import { useBudgets } from '../shared/useBudgets';
import { ReportingPeriodPanel } from './ReportingPeriodPanel';
import { useCompany, useConnectionOf, useToday } from '../shared/hooks';
import { InView } from '../shared/InView';
import type { ScreenProps } from '../services';
import { useScreenStyles } from '../shared/styles';
import { costText, exceedsLeft, notStartedText, plural } from '../../runtime/screenKit';
import { StatementFields } from './StatementFields';
import { useBlockInsert } from './useBlockInsert';
import { usePeriodAndPack } from './usePeriodAndPack';
import { useStatementChoice } from './useStatementChoice';

// Reports: the reporting period (FIN_PERIOD, ReportingPeriodPanel); pick a company (with several connected:
// the block is fetched, priced and refreshed on its connection), a statement, a period (fixed, or
// relative to the reporting period: the block then rolls forward with it), a layout (months or quarters side by side may get a Total column,
// a comparison its Variance columns) and units; see what it will cost (periods already cached are free); insert it on a new sheet or at the
// selected cell, with progress. The block is recorded so Refresh can rebuild it. A block that costs more
// than the month has left is not started (it would stop part way): the pane says so and offers the leading
// periods that fit. The period and pack are usePeriodAndPack's, the form's choice useStatementChoice's (its
// fields StatementFields), the cost and the insert useBlockInsert's.

export function ReportsScreen({ services, connection }: ScreenProps) {
  const styles = useScreenStyles();
  const today = useToday(services);
  const [periodVersion, setPeriodVersion] = useState(0);
  const { workspace } = connection;
  const { reporting, pack, formulaReads, periodCells } = usePeriodAndPack(workspace, periodVersion);
  // Against budget: a budget the workbook keeps (BudgetsPanel), for an income statement.
  const [budgetsVersion, setBudgetsVersion] = useState(0);
  const budgets = useBudgets(workspace, budgetsVersion);
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
  const choice = useStatementChoice({ today, reporting, budgets, fiscalYearStartMonth: target.fiscalYearStartMonth });
  const { spec } = choice;
  const { cost, costVersion, setCostVersion, progress, result, error, insert } = useBlockInsert({ services, connection, chosenId, working, blocks, spec, where });

  const busy = progress !== null;
  const loading = working === null;
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
            choice.setDepartmentsUnder(undefined);
            if (id !== connection.companyId) choice.setRelation(null);
          }}
          disabled={busy}
        />
      )}
      <StatementFields choice={choice} budgets={budgets} departments={departments} ofDefault={ofDefault} disabled={busy} />
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
