import { Checkbox } from '@fluentui/react-components';
import { useEffect, useEffectEvent, useMemo, useRef, useState } from 'react';
import type { BindingRecord } from '../../engine/ports/workbook';
import type { WorkbookPlan } from '../../engine/refresh/plan';
import { ChoiceField } from '../shared/ChoiceField';
import { useToday } from '../shared/hooks';
import type { PaneRequest } from '../../runtime';
import type { RefreshProgress } from './refreshProgress';
import { ConfirmRefresh, RefreshButtons, RefreshOutcome } from './RefreshParts';
import type { ScreenProps } from '../services';
import { useScreenStyles } from '../shared/styles';
import { addMonths, endOfMonth, fullRefreshAtMost } from '../../runtime/screenKit';
import { BlocksList } from './BlockItem';
import { runRefresh, type Pending } from './runRefresh';
import { useRefreshAsks } from './useRefreshAsks';
import { useRefreshPlan } from './useRefreshPlan';

// Refresh: the workbook's one refresh -- changed only (one call to ask what changed, then only what that
// touches) or full -- with the cost of each shown before it spends; books closed through a month end; and
// every block the pane wrote, where it is now, when it was refreshed and whether anything is known to have
// changed since (the add-in's own pushes and shifts are), is closed, or is damaged (then only Forget).
// The plan is useRefreshPlan's, the asks useRefreshAsks', a confirmed run runRefresh's; each block a BlockItem.

/** What a ribbon Refresh button asked (numbered, so the same ask twice is two asks). */
export interface RibbonAsk {
  request: PaneRequest;
  n: number;
}

export interface RefreshPanelProps extends ScreenProps {
  /** Changes when a ribbon Refresh button asks: show the cost of that refresh and ask. */
  ribbonAsk?: RibbonAsk | null;
}

/** Month ends a close can be set to: the last two years', newest first. */
function closeChoices(today: string): string[] {
  const lastMonthEnd = endOfMonth(addMonths(today, -1));
  return Array.from({ length: 24 }, (_, i) => endOfMonth(addMonths(lastMonthEnd, -i)));
}

export function RefreshPanel({ services, connection, ribbonAsk = null }: RefreshPanelProps) {
  const styles = useScreenStyles();
  const { workspace } = connection;
  const today = useToday(services);
  const [pending, setPending] = useState<Pending | null>(null);
  const [progress, setProgress] = useState<RefreshProgress | null>(null);
  const [includeReference, setIncludeReference] = useState(false);
  const [closedThrough, setClosedThrough] = useState<string | null>(() => connection.reader.booksClosedThrough());
  const [result, setResult] = useState('');
  const [error, setError] = useState<unknown>(null);
  const { plan, setPlan, reload, running } = useRefreshPlan(workspace, services, setError);
  const { openerRef, ask, askBlock, askScope } = useRefreshAsks({ workspace, includeReference, setPlan, setPending, setResult, setError });
  const confirmRef = useRef<HTMLButtonElement>(null);
  const refreshChangedRef = useRef<HTMLButtonElement>(null);
  const refreshSheetRef = useRef<HTMLButtonElement>(null);
  const refreshSelectionRef = useRef<HTMLButtonElement>(null);
  const blocksHeadingRef = useRef<HTMLHeadingElement>(null);
  const now = services.now();
  const choices = useMemo(() => closeChoices(today), [today]);

  useEffect(() => {
    if (pending) confirmRef.current?.focus();
  }, [pending]);

  // Only a new ask from the ribbon asks again, with the ask of the latest render.
  const askFromRibbon = useEffectEvent((request: PaneRequest) => {
    if (request === 'refresh-all' && refreshChangedRef.current) void ask('changed', refreshChangedRef.current);
    if (request === 'refresh-sheet' && refreshSheetRef.current) void askScope('sheet', refreshSheetRef.current);
    if (request === 'refresh-selection' && refreshSelectionRef.current) void askScope('selection', refreshSelectionRef.current);
  });
  useEffect(() => {
    if (ribbonAsk) askFromRibbon(ribbonAsk.request);
  }, [ribbonAsk]);

  const chooseClose = async (value: string) => {
    setError(null);
    const through = value === '' ? null : value;
    try {
      setResult(await workspace.closeBooks(through));
      setClosedThrough(through);
      await reload();
    } catch (e) {
      setError(e);
    }
  };

  const confirm = async () => {
    if (!pending) return;
    const job = pending;
    setPending(null);
    // The confirmation disappears: keep focus on a control that stays (focusable while busy).
    refreshChangedRef.current?.focus();
    running.current = true;
    let after: WorkbookPlan | null = null;
    try {
      const everyCompany = connection.connections.map((c) => c.companyId);
      after = await runRefresh(job, { services, workspace, includeReference, everyCompany, setProgress, setResult, setError });
    } catch (e) {
      setError(e);
    } finally {
      running.current = false;
      setProgress(null);
      // A workbook refresh says what it left; a block or a scope is read again.
      if (after) setPlan(after);
      else await reload();
    }
  };

  const forget = async (binding: BindingRecord) => {
    setError(null);
    try {
      await workspace.forget(binding);
      setResult(`Stopped tracking the block at ${binding.address}; its cells stay as they are.`);
      await reload();
      blocksHeadingRef.current?.focus();
    } catch (e) {
      setError(e);
    }
  };

  const busy = progress !== null;

  return (
    <div className={styles.screen}>
      <RefreshButtons
        refs={{ changed: refreshChangedRef, sheet: refreshSheetRef, selection: refreshSelectionRef }}
        fullCalls={plan ? fullRefreshAtMost(plan) : null}
        disabled={busy || pending !== null}
        onAsk={(kind, opener) => void ask(kind, opener)}
        onAskScope={(kind, opener) => void askScope(kind, opener)}
      />
      <Checkbox
        checked={includeReference}
        onChange={(_, d) => setIncludeReference(d.checked === true)}
        label="Also fetch the categories, departments and company again (a changes refresh leaves them)"
        disabled={busy}
      />
      <ChoiceField
        label="Books closed through"
        hint="Figures up to this month end are kept by every refresh; Refresh this block reopens them."
        value={closedThrough ?? ''}
        choices={[{ key: '', label: 'Not closed' }, ...[...new Set([...(closedThrough ? [closedThrough] : []), ...choices])].map((m) => ({ key: m, label: m }))]}
        onChange={(month) => void chooseClose(month)}
        disabled={busy}
      />
      {pending && (
        <ConfirmRefresh
          text={pending.text}
          confirmRef={confirmRef}
          onConfirm={() => void confirm()}
          onCancel={() => {
            setPending(null);
            openerRef.current?.focus();
          }}
        />
      )}
      <RefreshOutcome progress={progress} result={result} error={error} context={{ baseUrl: connection.baseUrl, plan: connection.plan }} />
      <BlocksList
        plan={plan}
        headingRef={blocksHeadingRef}
        now={now}
        closedThrough={closedThrough}
        askDisabled={busy || pending !== null}
        forgetDisabled={busy}
        onAsk={(b, opener) => void askBlock(b, opener)}
        onForget={(binding) => void forget(binding)}
      />
    </div>
  );
}
