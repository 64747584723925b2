import { Button, Checkbox, Field, Input, ProgressBar, Radio, RadioGroup, Select, Text } from '@fluentui/react-components';
import { useEffect, useMemo, useState } from 'react';
import { PERIOD_CHOICES } from '../engine/dates';
import type { Scale } from '../engine/render';
import { plural } from '../engine/text/plural';
import { ErrorMessage } from './ErrorMessage';
import { useCallsLeft, useStatements, useToday } from './hooks';
import { InView } from './InView';
import type { PaneServices } from './services';
import type { ConnectedState } from './session';
import type { CallCost } from '../engine/reader/cachedReader';
import { exceedsLeft, notStartedText, type CallsLeft } from '../engine/budget/callsLeft';
import { leadingPeriodsWithin, type FittingBlock } from '../engine/statements/fit';
import {
  LAYOUTS,
  SCALES,
  STATEMENTS,
  costText,
  describeSpec,
  offersTotal,
  resolvePeriod,
  statementLabel,
  type LayoutKey,
  type PeriodChoice,
  type StatementKind,
  type StatementSpec,
} from '../engine/statements';
import { useScreenStyles } from './styles';

// Reports: pick a statement, a period, a layout (months or quarters side by side may get a Total column)
// and units; see what it will cost (periods already cached are free); insert it on a new sheet or at the
// selected cell, with progress. The block is recorded so Refresh can rebuild it. A block that costs more
// than the month has left is not started (it would stop part way): the pane says so and offers the leading
// periods that fit.

interface Progress {
  done: number;
  total: number;
}

export interface ScreenProps {
  services: PaneServices;
  connection: ConnectedState;
}

export function ReportsScreen({ services, connection }: ScreenProps) {
  const styles = useScreenStyles();
  const today = useToday(services);
  const [statement, setStatement] = useState<StatementKind>('income_statement');
  const [periodChoice, setPeriodChoice] = useState<PeriodChoice>('last_month');
  const [customStart, setCustomStart] = useState('');
  const [customEnd, setCustomEnd] = useState('');
  const [layout, setLayout] = useState<LayoutKey>('single');
  const [total, setTotal] = useState(false);
  const [scale, setScale] = useState<Scale>('units');
  const [where, setWhere] = useState<'newSheet' | 'selection'>('newSheet');
  const statements = useStatements(services, connection);
  const callsLeft = useCallsLeft(connection);
  const [cost, setCost] = useState<(CallCost & { left: CallsLeft | null; fit: FittingBlock | null }) | null>(null);
  const [costVersion, setCostVersion] = useState(0);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [result, setResult] = useState('');
  const [error, setError] = useState<unknown>(null);

  const period = useMemo(
    () => resolvePeriod(periodChoice, { today, fiscalYearStartMonth: connection.fiscalYearStartMonth, customStart, customEnd }),
    [periodChoice, today, connection.fiscalYearStartMonth, customStart, customEnd],
  );
  const canTotal = offersTotal({ statement, layout });
  const spec: StatementSpec | null = useMemo(
    () =>
      period.ok
        ? {
            statement,
            period: periodChoice,
            start: period.value.start,
            end: period.value.end,
            layout,
            scale,
            fiscalYearStartMonth: connection.fiscalYearStartMonth,
            ...(canTotal && total ? { total: true } : {}),
          }
        : null,
    [period, statement, periodChoice, layout, scale, connection.fiscalYearStartMonth, canTotal, total],
  );

  useEffect(() => {
    if (!spec) {
      setCost(null);
      return;
    }
    let live = true;
    void (async () => {
      const c = await statements.cost(spec);
      const left = await callsLeft();
      const fit = exceedsLeft(c.calls, left) ? await leadingPeriodsWithin(spec, left.left, (requests) => connection.reader.cost(requests)) : null;
      if (live) setCost({ ...c, left, fit });
    })().catch(() => undefined);
    return () => {
      live = false;
    };
  }, [spec, statements, connection, callsLeft, costVersion]);

  const busy = progress !== null;

  const insert = async (chosen: StatementSpec | null = spec) => {
    if (!chosen) return;
    setError(null);
    setResult('');
    setProgress({ done: 0, total: cost?.requests ?? 0 });
    const action = `Insert ${describeSpec(chosen)}`;
    let fetched = 0;
    try {
      const { written } = await services.actions.track(action, () =>
        statements.insert(chosen, where, (done, total) => {
          fetched = done;
          setProgress({ done, total });
        }),
      );
      const spent = services.actions.entries(connection.companyId)[0]?.calls ?? 0;
      setResult(`Inserted the ${statementLabel(chosen.statement).toLowerCase()} at ${written.address}. Spent ${plural(spent, 'call')}.`);
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

  return (
    <div className={styles.screen}>
      <Field label="Statement">
        <Select value={statement} onChange={(_, d) => setStatement(d.value as StatementKind)} disabled={busy}>
          {STATEMENTS.map((s) => (
            <option key={s.key} value={s.key}>
              {s.label}
            </option>
          ))}
        </Select>
      </Field>
      <Field
        label="Period"
        hint={period.ok ? `${period.value.start} to ${period.value.end}` : undefined}
        validationState={!period.ok && periodChoice === 'custom' && customStart && customEnd ? 'error' : 'none'}
        validationMessage={!period.ok && periodChoice === 'custom' && customStart && customEnd ? period.error : undefined}
      >
        <Select value={periodChoice} onChange={(_, d) => setPeriodChoice(d.value as PeriodChoice)} disabled={busy}>
          {PERIOD_CHOICES.map((p) => (
            <option key={p.key} value={p.key}>
              {p.label}
            </option>
          ))}
        </Select>
      </Field>
      {periodChoice === 'custom' && (
        <div className={styles.twoColumns}>
          <Field label="Start date">
            <Input type="date" value={customStart} onChange={(_, d) => setCustomStart(d.value)} disabled={busy} />
          </Field>
          <Field label="End date">
            <Input type="date" value={customEnd} onChange={(_, d) => setCustomEnd(d.value)} disabled={busy} />
          </Field>
        </div>
      )}
      <Field label="Layout" hint={statement === 'balance_sheet' ? 'A balance sheet is taken at the end of each period.' : undefined}>
        <Select value={layout} onChange={(_, d) => setLayout(d.value as LayoutKey)} disabled={busy}>
          {LAYOUTS.map((l) => (
            <option key={l.key} value={l.key}>
              {l.label}
            </option>
          ))}
        </Select>
      </Field>
      {canTotal && (
        // Summed from the fetched periods' cents when the block is written: costs nothing more.
        <Checkbox label="Add a Total column (no extra call)" checked={total} onChange={(_, d) => setTotal(d.checked === true)} disabled={busy} />
      )}
      <Field label="Units">
        <Select value={scale} onChange={(_, d) => setScale(d.value as Scale)} disabled={busy}>
          {SCALES.map((s) => (
            <option key={s.key} value={s.key}>
              {s.label}
            </option>
          ))}
        </Select>
      </Field>
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
        <Button appearance="primary" onClick={() => void insert()} disabled={!spec} disabledFocusable={busy || shortOf}>
          Insert
        </Button>
        {shortOf && cost.fit && (
          <Button onClick={() => void insert(cost.fit!.spec)} disabledFocusable={busy}>
            {`Insert the first ${plural(cost.fit.periods, spec?.layout === 'quarters' ? 'quarter' : 'month')} (${plural(cost.fit.calls, 'call')})`}
          </Button>
        )}
      </div>
      <InView watch={progress ? `${progress.done}/${progress.total}` : result || (error ? 'error' : '')}>
        {progress && (
          <Field label="Fetching periods" validationMessage={`${progress.done} of ${progress.total} fetched`} validationState="none">
            <ProgressBar value={progress.done} max={Math.max(1, progress.total)} />
          </Field>
        )}
        <div role="status" aria-live="polite">
          {result}
        </div>
        <ErrorMessage error={error} context={{ baseUrl: connection.baseUrl, plan: connection.plan }} />
      </InView>
    </div>
  );
}
