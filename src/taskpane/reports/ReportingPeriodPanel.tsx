import { Button, Field, Input, Text } from '@fluentui/react-components';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { YearMonth } from '../../engine/dates';
import type { ReportingPeriod } from '../../engine/reporting/period';
import type { PeriodFormulas } from '../../engine/reporting/periodFormulas';
import type { RollPlan } from '../../engine/reporting/rollForward';
import type { ReadRequest } from '../../engine/reader/requestCache';
import type { StatementsEngine } from '../../engine/statements';
import { ActionOutcome } from '../shared/ActionOutcome';
import type { PaneServices } from '../services';
import type { ConnectedState } from '../session';
import type { Workspace } from '../../runtime';
import { useScreenStyles } from '../shared/styles';
import { useLiveEffect } from '../shared/useLiveEffect';
import { derivedNote, formatYearMonth, monthIndex, monthIndexToYearMonth, parseReportingMonth, plural, REPORTING_PERIOD_NAME } from '../../runtime/screenKit';

// The reporting period (FIN_PERIOD): the month the relative blocks and the FIN cells that read it follow.
// Moving it shows its cost first (the relative blocks' new periods not cached, the reads the caller knows its
// formulas make, and about what the other formulas naming FIN_PERIOD read now), then writes the cell and
// rolls the blocks forward through the cache.

/** The workbook's reporting period, read again whenever `version` changes (after a move, an insert). */
export function useReportingPeriod(workspace: Workspace, version: number): ReportingPeriod | null {
  const [period, setPeriod] = useState<ReportingPeriod | null>(null);
  useLiveEffect(
    (ifLive) => {
      workspace.reporting.period().then(ifLive(setPeriod), ifLive(() => setPeriod({ state: 'none' })));
    },
    [workspace, version],
  );
  return period;
}

/** The month before the company's current one, as text: the month a pack is usually closed for. */
function lastMonthText(today: string): string {
  const m = monthIndexToYearMonth(monthIndex(today) - 1);
  return formatYearMonth(m.year, m.month);
}

export interface ReportingPeriodPanelProps {
  services: PaneServices;
  connection: ConnectedState;
  statements: StatementsEngine;
  today: string;
  period: ReportingPeriod | null;
  /** What the FIN cells that read FIN_PERIOD will read at a month, where known (the board pack's KPIs). */
  formulaReads?: (month: YearMonth) => Promise<ReadRequest[]>;
  /** The other FIN formulas that name FIN_PERIOD and about what they spend when it moves, where the host can find them. */
  periodFormulas?: () => Promise<PeriodFormulas>;
  /** Told after the period moved (the screen reads it again). */
  onMoved: () => void;
}

function costWords(plan: RollPlan, formulas: PeriodFormulas | null): string {
  const blocks = plan.blocks.length;
  const moves = blocks > 0 ? `rolls ${plural(blocks, 'block')} forward` : 'moves no block';
  // A block by department reads the month's journal entries: their pages are known once read ("at least", "about").
  const estimate = plan.cost.estimated ? `${plan.cost.estimated} ` : '';
  const pages = plan.cost.estimated ? '; journal entries are read 500 to a call, so their pages are known once read' : '';
  const cost = `Moving to ${formatYearMonth(plan.month.year, plan.month.month)} ${moves}: costs ${estimate}${plural(plan.cost.calls, 'call')} (${plan.cost.cached} cached${pages})${derivedNote(plan.cost)}.`;
  if (!formulas || formulas.cells === 0) return `${cost} Formulas that read ${REPORTING_PERIOD_NAME} recalculate too.`;
  const one = formulas.cells === 1;
  const unknown = formulas.unknown > 0 ? `; ${formulas.unknown} not calculated yet, not counted` : '';
  const who = one ? 'The FIN formula' : `The ${formulas.cells} FIN formulas`;
  const reads = one ? 'it reads' : 'they read';
  // What the pack's formulas and the blocks read now is left out of the count: it is in the cost above.
  const more = formulas.calls > 0 ? `about ${plural(formulas.calls, 'call')} more, what ${reads} now` : `no call more, what ${reads} now being in the cost above`;
  return `${cost} ${who} naming ${REPORTING_PERIOD_NAME} ${one ? 'recalculates' : 'recalculate'} too: ${more}${unknown}.`;
}

export function ReportingPeriodPanel({ services, connection, statements, today, period, formulaReads, periodFormulas, onMoved }: ReportingPeriodPanelProps) {
  const styles = useScreenStyles();
  const [text, setText] = useState('');
  const [plan, setPlan] = useState<RollPlan | null>(null);
  const [formulas, setFormulas] = useState<PeriodFormulas | null>(null);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [result, setResult] = useState('');
  const [error, setError] = useState<unknown>(null);
  const current = period?.state === 'set' ? period.text : null;
  // The field starts at the current period, or at last month for a workbook without one; once only, so a
  // field the user is editing is never filled in under them when the period is read again.
  const started = useRef(false);
  useEffect(() => {
    if (period === null || started.current) return;
    started.current = true;
    setText((typed) => (typed !== '' ? typed : (current ?? lastMonthText(today))));
  }, [period, current, today]);
  const month = parseReportingMonth(text);
  const moving = month !== null && formatYearMonth(month.year, month.month) !== current;

  const target = moving ? formatYearMonth(month.year, month.month) : null;
  useLiveEffect(
    (ifLive) => {
      setPlan(null);
      const to = target === null ? null : parseReportingMonth(target);
      if (!to) return;
      void (async () => {
        const reads = formulaReads ? await formulaReads(to) : [];
        // The formulas are counted as they are now: unreadable, they are only mentioned.
        return Promise.all([statements.planRoll(to, reads), periodFormulas?.().catch(() => null) ?? null]);
      })().then(
        ifLive(([next, found]) => {
          setFormulas(found);
          setPlan(next);
        }),
        () => undefined,
      );
    },
    [target, statements, formulaReads, periodFormulas, period],
  );

  const apply = useCallback(async () => {
    if (!month) return;
    setError(null);
    setResult('');
    const words = formatYearMonth(month.year, month.month);
    // Told only once the period cell may have been written: a roll refused before it reads nothing again.
    let written = false;
    try {
      // One way for a first period and a move: the roll writes the cell, then rebuilds what follows it.
      const chosen = plan ?? (await statements.planRoll(month, formulaReads ? await formulaReads(month) : []));
      // Refused on what it costs for sure: the other formulas' "about" may well be cached by then.
      await connection.workspace.checkAffordable(`Moving to ${words}`, chosen.cost.calls, 'Move the period after the reset.');
      written = true;
      setProgress({ done: 0, total: chosen.blocks.length });
      const outcome = await services.actions.track(`Set the reporting period to ${words}`, () => statements.roll(chosen, (done, total) => setProgress({ done, total })));
      const spent = services.actions.entries(connection.companyId)[0]?.calls ?? 0;
      const rolled = outcome.rolled.length > 0 ? `rolled ${plural(outcome.rolled.length, 'block')} forward, ` : '';
      const failed = outcome.failed.length > 0 ? ` ${plural(outcome.failed.length, 'block')} could not be rolled: see Refresh.` : '';
      setResult(`${REPORTING_PERIOD_NAME} is ${words} (${outcome.address}): ${rolled}spent ${plural(spent, 'call')}.${failed}`);
      if (outcome.failed.length > 0) setError(outcome.failed[0].error);
    } catch (e) {
      setError(e);
    } finally {
      setProgress(null);
      if (written) onMoved();
    }
  }, [month, plan, statements, formulaReads, services, connection.workspace, connection.companyId, onMoved]);

  const busy = progress !== null;
  const invalid = text.trim() !== '' && month === null;
  const status =
    period === null
      ? ''
      : period.state === 'set' && !moving
        ? `${REPORTING_PERIOD_NAME} is ${period.text} (${period.address}).`
        : [
            period.state === 'none' ? `No reporting period yet: setting one makes the name ${REPORTING_PERIOD_NAME} on a new sheet.` : period.state === 'invalid' ? period.message : '',
            plan ? costWords(plan, formulas) : moving ? 'Working out the cost...' : '',
          ]
            .filter(Boolean)
            .join(' ');

  return (
    <section aria-label="Reporting period" className={styles.screen}>
      <Field
        label="Reporting period"
        hint={`A month (2026-10). Formulas read it as ${REPORTING_PERIOD_NAME}.`}
        validationState={invalid ? 'error' : 'none'}
        validationMessage={invalid ? 'Type a month as YYYY-MM, such as 2026-10' : undefined}
      >
        <Input value={text} onChange={(_, d) => setText(d.value)} disabled={busy} />
      </Field>
      <Text role="status" aria-live="polite">
        {status}
      </Text>
      <div className={styles.row}>
        <Button onClick={() => void apply()} disabled={!moving} disabledFocusable={busy}>
          {period?.state === 'set' ? 'Roll forward' : 'Set reporting period'}
        </Button>
      </div>
      <ActionOutcome progress={progress} label="Rolling blocks forward" unit="rebuilt" result={result} error={error} connection={connection} />
    </section>
  );
}
