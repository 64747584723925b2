import { Badge, Button, Checkbox, Field, ProgressBar, Text, makeStyles, tokens } from '@fluentui/react-components';
import { useCallback, useEffect, useEffectEvent, useMemo, useRef, useState } from 'react';
import type { BindingRecord } from '../../engine/ports/workbook';
import type { WorkbookPlan } from '../../engine/refresh/plan';
import type { RefreshKind } from '../../engine/refresh/workbookRefresh';
import { ChoiceField } from '../shared/ChoiceField';
import { ErrorMessage } from '../shared/ErrorMessage';
import type { RefreshBlock } from '../../engine/statements';
import { useToday } from '../shared/hooks';
import type { ScopeKind, ScopePlan } from '../../engine/refresh/scopeRefresh';
import type { PaneRequest, RefreshAsk } from '../../runtime';
import { InView } from '../shared/InView';
import { refreshProgressText, type RefreshProgress } from './refreshProgress';
import type { ScreenProps } from '../services';
import { useScreenStyles } from '../shared/styles';
import { addMonths, CHANGED_ONLY_BLIND_SPOT, describeSpec, endOfMonth, failureOf, formatAge, isOld, plural, specFromBinding } from '../../runtime/screenKit';

// Refresh: the workbook's one refresh -- changed only (one call to ask what changed, then only what that
// touches) or full -- with the cost of each shown before it spends; books closed through a month end; and
// every block the pane wrote, where it is now, when it was refreshed and whether anything is known to have
// changed since (the add-in's own pushes and shifts are), is closed, or is damaged (then only Forget).

type Pending = { kind: RefreshKind; ask: RefreshAsk; text: string } | { kind: 'block'; block: RefreshBlock; text: string } | { kind: 'scope'; plan: ScopePlan; text: string };

/** What a ribbon Refresh button asked (numbered, so the same ask twice is two asks). */
export interface RibbonAsk {
  request: PaneRequest;
  n: number;
}

const useRefreshStyles = makeStyles({
  blocks: {
    listStyle: 'none',
    margin: 0,
    padding: 0,
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalM,
  },
  failure: {
    color: tokens.colorPaletteRedForeground1,
  },
});

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
  const refreshStyles = useRefreshStyles();
  const today = useToday(services);
  const [plan, setPlan] = useState<WorkbookPlan | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [progress, setProgress] = useState<RefreshProgress | null>(null);
  const [includeReference, setIncludeReference] = useState(false);
  const [closedThrough, setClosedThrough] = useState<string | null>(() => connection.reader.booksClosedThrough());
  const [result, setResult] = useState('');
  const [error, setError] = useState<unknown>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const refreshChangedRef = useRef<HTMLButtonElement>(null);
  const refreshSheetRef = useRef<HTMLButtonElement>(null);
  const refreshSelectionRef = useRef<HTMLButtonElement>(null);
  const blocksHeadingRef = useRef<HTMLHeadingElement>(null);
  /** The button that asked for the pending refresh: focus goes back there on Cancel. */
  const openerRef = useRef<HTMLElement | null>(null);
  /** A refresh is running: it says what it left when done, so the data it changes on the way reads nothing again. */
  const running = useRef(false);
  const now = services.now();
  const choices = useMemo(() => closeChoices(today), [today]);

  const reload = useCallback(async () => {
    if (running.current) return;
    try {
      setPlan(await workspace.plan());
    } catch (e) {
      setError(e);
    }
  }, [workspace]);

  useEffect(() => {
    void reload();
  }, [reload]);

  // A push or shift marks what it changed: the blocks it leaves behind say so without a click.
  useEffect(() => services.runtime.onDataChange(() => void reload()), [services.runtime, reload]);

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

  /** Asks the workspace what something costs (it refuses what cannot be afforded), then shows it to confirm. */
  const asking = async (opener: HTMLElement, what: () => Promise<Pending | null>) => {
    openerRef.current = opener;
    setError(null);
    setResult('');
    try {
      const next = await what();
      if (next) setPending(next);
    } catch (e) {
      setError(e);
    }
  };

  const ask = (kind: RefreshKind, opener: HTMLElement) =>
    asking(opener, async () => {
      const asked = await workspace.askRefresh(kind);
      setPlan(asked.plan);
      return { kind, ask: asked, text: asked.text };
    });

  const askBlock = (block: RefreshBlock, opener: HTMLElement) => asking(opener, async () => ({ kind: 'block', block, text: await workspace.askBlock(block) }));

  /** The selection or the active sheet as it is now: what is in it, and exactly what refreshing it costs. */
  const askScope = (kind: ScopeKind, opener: HTMLElement) =>
    asking(opener, async () => {
      const { plan: scoped, text } = await workspace.askScope(kind, { includeReference });
      if (scoped.calls === 0 && scoped.cells.length === 0 && scoped.blocks.length === 0) {
        setResult(text);
        return null;
      }
      return { kind: 'scope', plan: scoped, text };
    });

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

  /** A refresh of the workbook or a scope spends on each company it reads: the default one first. */
  const everyCompany = connection.connections.map((c) => c.companyId);

  const showFailure = (outcome: { blocks: { failed: { error: unknown }[] }; tables: { outcome: string; error?: unknown }[] }) => {
    const firstFailure = outcome.blocks.failed[0]?.error ?? outcome.tables.find((t) => t.outcome === 'failed')?.error;
    if (firstFailure) setError(firstFailure);
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
      if (job.kind === 'scope') {
        const { plan: scoped } = job;
        setProgress({ phase: 'formulas' });
        const outcome = await services.actions.track(
          scoped.area.kind === 'sheet' ? `Refresh sheet ${scoped.area.sheet}` : 'Refresh selection',
          () =>
            workspace.refreshScope(scoped, {
              onPhase: () => setProgress({ phase: 'formulas' }),
              onProgress: (done, total, fetched) => setProgress({ phase: 'blocks', done, total, distinct: fetched }),
            }),
          everyCompany,
        );
        setResult(outcome.message);
        showFailure(outcome);
      } else if (job.kind === 'block') {
        const reports = job.block.keys.length;
        setProgress({ phase: 'blocks', done: 0, total: reports, distinct: reports });
        const company = job.block.binding.company;
        await services.actions.track(
          `Refresh ${describeSpec(job.block.spec)}`,
          () => workspace.refreshBlock(job.block, (done, total) => setProgress({ phase: 'blocks', done, total, distinct: total })),
          [company],
        );
        const spent = services.actions.entries(company)[0]?.calls ?? 0;
        setResult(`Refreshed the block at ${job.block.binding.address}. Spent ${plural(spent, 'call')}.`);
      } else {
        const { kind } = job;
        setProgress({ phase: kind === 'changed' ? 'asking' : 'formulas' });
        const { result: outcome, plan: left } = await services.actions.track(
          kind === 'changed' ? 'Refresh changes' : 'Full refresh',
          () =>
            workspace.refresh(job.ask, {
              includeReference,
              onPhase: (phase) => setProgress({ phase }),
              onProgress: (done, total, fetched) => setProgress({ phase: 'blocks', done, total, distinct: fetched }),
            }),
          everyCompany,
        );
        after = left;
        // Each block that failed is named: which statement, where, and that its figures are the old ones.
        const named = outcome.blocks.failed.map((f) => {
          const spec = specFromBinding(f.binding);
          return `${spec ? describeSpec(spec) : 'a block'} at ${f.binding.address}`;
        });
        setResult(named.length ? `${outcome.message} Not refreshed, previous figures kept: ${named.join('; ')}.` : outcome.message);
        showFailure(outcome);
      }
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
      <div className={styles.row}>
        <Button ref={refreshChangedRef} appearance="primary" onClick={(e) => void ask('changed', e.currentTarget)} disabledFocusable={busy || pending !== null}>
          Refresh changes
        </Button>
        <Button onClick={(e) => void ask('full', e.currentTarget)} disabledFocusable={busy || pending !== null}>
          Full refresh
        </Button>
      </div>
      <div className={styles.row}>
        <Button ref={refreshSheetRef} onClick={(e) => void askScope('sheet', e.currentTarget)} disabledFocusable={busy || pending !== null}>
          Refresh this sheet
        </Button>
        <Button ref={refreshSelectionRef} onClick={(e) => void askScope('selection', e.currentTarget)} disabledFocusable={busy || pending !== null}>
          Refresh selection
        </Button>
      </div>
      <Text className={styles.note}>
        Refresh changes asks what changed since the last refresh (1 call) and fetches only what that touches
        {plan ? `; a full refresh costs ${plural(plan.fullCalls, 'call')}` : ''}. {CHANGED_ONLY_BLIND_SPOT} Refresh this sheet or the selection
        fetches again only the blocks, FIN cells and tables in it, at the exact cost shown first.
      </Text>
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
        <div role="group" aria-label="Confirm refresh" className={styles.screen}>
          <Text>{pending.text}</Text>
          <div className={styles.row}>
            <Button ref={confirmRef} appearance="primary" onClick={() => void confirm()}>
              Refresh
            </Button>
            <Button
              onClick={() => {
                setPending(null);
                openerRef.current?.focus();
              }}
            >
              Cancel
            </Button>
          </div>
        </div>
      )}
      <InView watch={progress ? refreshProgressText(progress) : result || (error ? 'error' : '')}>
        {progress && (
          <Field label="Refreshing" validationMessage={refreshProgressText(progress)} validationState="none">
            {progress.phase === 'blocks' && progress.total > 0 ? <ProgressBar value={progress.done} max={progress.total} /> : <ProgressBar />}
          </Field>
        )}
        <div role="status" aria-live="polite">
          {result}
        </div>
        <ErrorMessage error={error} context={{ baseUrl: connection.baseUrl, plan: connection.plan }} />
      </InView>
      <h3 ref={blocksHeadingRef} tabIndex={-1}>
        Blocks in this workbook
      </h3>
      {plan && plan.blocks.blocks.length === 0 && <Text>No statements inserted yet. Insert one from the Reports tab.</Text>}
      {plan && plan.blocks.blocks.length > 0 && (
        <ul aria-label="Blocks" className={refreshStyles.blocks}>
          {plan.blocks.blocks.map((block) => {
            const at = Date.parse(block.binding.refreshedAt);
            const old = isOld(block.binding, now);
            const changed = block.changed.length > 0;
            const closed = block.frozen > 0 && block.frozen === block.keys.length;
            const failure = failureOf(block.binding);
            const { placement } = block;
            const damaged = placement.kind === 'damaged';
            const titleId = `block-${block.binding.id}`;
            return (
              <li key={block.binding.id} aria-labelledby={titleId}>
                <Text id={titleId} weight="semibold" block>
                  {describeSpec(block.spec)}
                </Text>
                <Text block className={styles.note}>
                  {damaged ? block.binding.address : placement.address}
                </Text>
                {placement.kind === 'damaged' && (
                  <Text block className={refreshStyles.failure}>
                    {placement.refusal.message}
                  </Text>
                )}
                {placement.kind === 'recorded' && (
                  <Text block className={styles.note}>
                    Found at the address an earlier version recorded, so rows inserted above it since then are not followed. Its next refresh
                    gives it a name that moves with its cells.
                  </Text>
                )}
                {!damaged && failure && (
                  <Text block className={refreshStyles.failure}>
                    Refresh failed {formatAge(Date.parse(failure.at), now)}: {failure.message}. Its figures are from its last good refresh.
                  </Text>
                )}
                <Text block>
                  Refreshed {formatAge(at, now)}{' '}
                  {damaged ? (
                    <Badge appearance="tint" shape="rounded" color="danger">
                      Damaged
                    </Badge>
                  ) : failure ? (
                    <Badge appearance="tint" shape="rounded" color="danger">
                      Refresh failed
                    </Badge>
                  ) : changed ? (
                    <Badge appearance="tint" shape="rounded" color="warning">
                      {block.rolled ? 'Behind the reporting period' : block.budgetChanged ? 'Budget edited' : 'Changed by your push'}
                    </Badge>
                  ) : closed ? (
                    <Badge appearance="tint" shape="rounded" color="informative">
                      Closed
                    </Badge>
                  ) : (
                    <Badge appearance="tint" shape="rounded" color={old ? 'informative' : 'success'}>
                      {old ? 'Over a day old' : 'Current'}
                    </Badge>
                  )}
                </Text>
                {!failure && !damaged && (
                  <Text block className={styles.note}>
                    {changed
                      ? `${
                          block.rolled
                            ? `Behind the reporting period: its next refresh rolls it to ${block.spec.start} to ${block.spec.end}`
                            : block.budgetChanged
                              ? `Its budget ${block.spec.budget ?? ''} was edited since it was written: refresh`
                              : 'Changed by your push: refresh'
                        } (${plural(block.changedCalls, 'call')}).`
                      : closed
                        ? `Within the books closed through ${closedThrough}: kept by every refresh. Refresh this block reopens it.`
                        : 'Nothing known to have changed since it was written: your pushes and shifts are tracked here; changes made elsewhere show after Refresh changes.'}
                    {!closed && block.frozen > 0 ? ` ${block.frozen} of its ${plural(block.keys.length, 'report')} are within the closed books and kept.` : ''}
                  </Text>
                )}
                <div className={styles.row}>
                  {!damaged && (
                    <Button
                      size="small"
                      aria-describedby={titleId}
                      onClick={(e) => void askBlock(block, e.currentTarget)}
                      disabledFocusable={busy || pending !== null}
                    >
                      Refresh this block
                    </Button>
                  )}
                  <Button size="small" appearance="subtle" aria-describedby={titleId} onClick={() => void forget(block.binding)} disabledFocusable={busy}>
                    Forget
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {plan && plan.tables > 0 && (
        <Text className={styles.note}>
          {plural(plan.tables, 'transactions table')} of this company {plan.tables === 1 ? 'is' : 'are'} refreshed with the rest (a changes refresh leaves a table alone when none of the changes is in it).
        </Text>
      )}
    </div>
  );
}
