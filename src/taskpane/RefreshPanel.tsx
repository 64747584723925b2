import { Badge, Button, Checkbox, Field, ProgressBar, Select, Text, makeStyles, tokens } from '@fluentui/react-components';
import { useCallback, useEffect, useEffectEvent, useMemo, useRef, useState } from 'react';
import { plural } from '../engine/text/plural';
import type { BindingRecord } from '../engine/ports/workbook';
import { addMonths, endOfMonth } from '../engine/dates';
import { closedSettingKey } from '../engine/reader/closedBooks';
import { CHANGED_ONLY_BLIND_SPOT, changedRefreshText, fullRefreshText, planWorkbookRefresh, type WorkbookPlan } from '../engine/refresh/plan';
import { consolidatedWith } from '../engine/consolidation/insert';
import type { RefreshKind } from '../engine/refresh/workbookRefresh';
import { companiesCostText } from '../engine/refresh/byCompany';
import { PaneError } from './errors';
import { ErrorMessage } from './ErrorMessage';
import { blockCostText, describeSpec, failureOf, formatAge, isOld, specFromBinding, type RefreshBlock } from '../engine/statements';
import { useCallsLeft, useOtherCompanyPlans, useScopeRefreshDeps, useStatements, useToday, useTransactionsEngine, useWorkbookRefresh } from './hooks';
import { planScopeRefresh, refreshScope, scopeArea, scopeCostText, type ScopeKind, type ScopePlan } from '../engine/refresh/scopeRefresh';
import type { PaneRequest } from '../runtime';
import { exceedsLeft, notStartedText } from '../engine/budget/callsLeft';
import { InView } from './InView';
import { refreshProgressText, type RefreshProgress } from './refreshProgress';
import type { ScreenProps } from './ReportsScreen';
import { useScreenStyles } from './styles';

// Refresh: the workbook's one refresh -- changed only (one call to ask what changed, then only what that
// touches) or full -- with the cost of each shown before it spends; books closed through a month end; and
// every block the pane wrote, where it is now, when it was refreshed and whether anything is known to have
// changed since (the add-in's own pushes and shifts are), is closed, or is damaged (then only Forget).

type Pending = { kind: RefreshKind; text: string } | { kind: 'block'; block: RefreshBlock; text: string } | { kind: 'scope'; plan: ScopePlan; text: string };

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
  const statements = useStatements(services, connection);
  const tablesEngine = useTransactionsEngine(services, connection);
  const refreshWorkbook = useWorkbookRefresh(services, connection, statements, tablesEngine);
  const scopeDeps = useScopeRefreshDeps(services, connection, statements, tablesEngine);
  const otherPlans = useOtherCompanyPlans(services, connection, tablesEngine);
  const refreshStyles = useRefreshStyles();
  const today = useToday(services);
  const callsLeft = useCallsLeft(connection);
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
  const now = services.now();
  const choices = useMemo(() => closeChoices(today), [today]);

  const planNow = useCallback(async (): Promise<WorkbookPlan> => {
    const blocks = await statements.plan();
    const tables = (await tablesEngine.tables()).filter((t) => t.company === connection.companyId).length;
    const store = connection.reader.stateStore;
    if (!store) throw new Error('The connection has no storage for its refresh record');
    return planWorkbookRefresh(blocks, tables, store, connection.companyId, await consolidatedWith(services.gateway, connection.companyId));
  }, [statements, tablesEngine, services.gateway, connection.reader, connection.companyId]);

  const reload = useCallback(async () => {
    try {
      setPlan(await planNow());
    } catch (e) {
      setError(e);
    }
  }, [planNow]);

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

  /** The cap already refused a call this month: refreshing would only empty the cache. */
  const refuseAtCap = async (): Promise<boolean> => {
    const limit = await statements.capBlock();
    if (!limit) return false;
    setError(
      new PaneError(
        'Monthly API limit reached',
        `Nothing can be fetched until the limit resets on ${limit.resetDate} at 00:00 Pacific Time, so nothing was refreshed. The figures in the workbook stay as they are.`,
        'monthly_limit_exceeded',
      ),
    );
    return true;
  };

  /** A refresh that would stop part way for the month's cap is not started: say so, and what costs less. */
  const refuseOverLeft = async (what: string, calls: number, instead: string): Promise<boolean> => {
    const left = await callsLeft();
    if (!exceedsLeft(calls, left)) return false;
    setError(new PaneError('Not started: too few calls left this month', `${notStartedText(what, calls, left)} ${instead}`, 'calls_left'));
    return true;
  };

  const ask = async (kind: RefreshKind, opener: HTMLElement) => {
    openerRef.current = opener;
    setError(null);
    setResult('');
    if (await refuseAtCap()) return;
    const fresh = await planNow().catch((e: unknown) => {
      setError(e);
      return null;
    });
    if (!fresh) return;
    setPlan(fresh);
    // What a changes refresh costs at least: 1 call to ask and what the add-in's own pushes changed.
    const least = kind === 'full' || !fresh.watermark ? fresh.fullCalls : 1 + fresh.knownCalls;
    const name = kind === 'full' || !fresh.watermark ? 'A full refresh' : 'Refresh changes';
    if (await refuseOverLeft(name, least, kind === 'full' ? 'Refresh changes or Refresh this block cost less.' : 'Refresh this block costs less.')) return;
    // The other companies the workbook reads: each one's cost on its own cap, checked and shown before spending.
    const others = await otherPlans();
    const textOf = (p: WorkbookPlan) => (kind === 'changed' ? changedRefreshText(p) : fullRefreshText(p));
    for (const o of others) {
      const theirs = kind === 'full' || !o.plan.watermark ? o.plan.fullCalls : 1 + o.plan.knownCalls;
      if (exceedsLeft(theirs, o.left)) {
        setError(new PaneError('Not started: too few calls left this month', `${o.name}: ${notStartedText(name, theirs, o.left)}`, 'calls_left'));
        return;
      }
    }
    const own = { name: connection.connections[0]?.name ?? connection.companyName, text: textOf(fresh) };
    setPending({ kind, text: companiesCostText([own, ...others.map((o) => ({ name: o.name, text: textOf(o.plan), ...(o.left ? { left: o.left } : {}) }))]) });
  };

  const askBlock = async (block: RefreshBlock, opener: HTMLElement) => {
    openerRef.current = opener;
    setError(null);
    setResult('');
    if (await refuseAtCap()) return;
    if (await refuseOverLeft('This block', block.keys.length, 'Choose a block with fewer periods, or wait for the reset.')) return;
    const reopens = block.frozen > 0 ? ' It reopens its closed periods for this refresh.' : '';
    setPending({ kind: 'block', block, text: `${blockCostText(block)}${reopens}` });
  };

  /** The selection or the active sheet as it is now: what is in it, and exactly what refreshing it costs. */
  const askScope = async (kind: ScopeKind, opener: HTMLElement) => {
    openerRef.current = opener;
    setError(null);
    setResult('');
    if (await refuseAtCap()) return;
    let scoped: ScopePlan;
    try {
      scoped = await planScopeRefresh(scopeDeps, await scopeArea(services.gateway, kind), { includeReference });
    } catch (e) {
      setError(e);
      return;
    }
    if (scoped.calls === 0 && scoped.cells.length === 0 && scoped.blocks.length === 0) {
      setResult(scopeCostText(scoped));
      return;
    }
    const name = kind === 'sheet' ? 'Refreshing this sheet' : 'Refreshing the selection';
    if (await refuseOverLeft(name, scoped.calls, 'Select fewer cells, or wait for the reset.')) return;
    setPending({ kind: 'scope', plan: scoped, text: scopeCostText(scoped) });
  };

  const chooseClose = async (value: string) => {
    setError(null);
    const through = value === '' ? null : value;
    try {
      const key = closedSettingKey(connection.companyId);
      if (through === null) await services.gateway.removeSetting(key);
      else await services.gateway.writeSetting(key, through);
      connection.reader.setBooksClosedThrough(through);
      setClosedThrough(through);
      setResult(through === null ? 'Books not closed: every figure is refreshed as usual.' : `Books closed through ${through}: figures up to then are kept by every refresh.`);
      await reload();
    } catch (e) {
      setError(e);
    }
  };

  /** A refresh of the workbook or a scope spends on each company it reads: the default one first. */
  const everyCompany = connection.connections.map((c) => c.companyId);

  const confirm = async () => {
    if (!pending || !plan) return;
    const job = pending;
    setPending(null);
    // The confirmation disappears: keep focus on a control that stays (focusable while busy).
    refreshChangedRef.current?.focus();
    try {
      if (job.kind === 'scope') {
        const { plan: scoped } = job;
        setProgress({ phase: 'formulas' });
        const outcome = await services.actions.track(
          scoped.area.kind === 'sheet' ? `Refresh sheet ${scoped.area.sheet}` : 'Refresh selection',
          () =>
            refreshScope(scopeDeps, scoped, {
              onPhase: () => setProgress({ phase: 'formulas' }),
              onProgress: (done, total, fetched) => setProgress({ phase: 'blocks', done, total, distinct: fetched }),
            }),
          everyCompany,
        );
        setResult(outcome.message);
        const firstFailure = outcome.blocks.failed[0]?.error ?? outcome.tables.find((t) => t.outcome === 'failed')?.error;
        if (firstFailure) setError(firstFailure);
      } else if (job.kind === 'block') {
        const reports = job.block.keys.length;
        setProgress({ phase: 'blocks', done: 0, total: reports, distinct: reports });
        const company = job.block.binding.company;
        await services.actions.track(
          `Refresh ${describeSpec(job.block.spec)}`,
          () => statements.refreshBlock(job.block, (done, total) => setProgress({ phase: 'blocks', done, total, distinct: total })),
          [company],
        );
        const spent = services.actions.entries(company)[0]?.calls ?? 0;
        setResult(`Refreshed the block at ${job.block.binding.address}. Spent ${plural(spent, 'call')}.`);
      } else {
        const kind = job.kind;
        setProgress({ phase: kind === 'changed' ? 'asking' : 'formulas' });
        const outcome = await services.actions.track(
          kind === 'changed' ? 'Refresh changes' : 'Full refresh',
          () =>
            refreshWorkbook(kind, {
              includeReference,
              // The plan just shown: the refresh need not read every block's place again to bound its sync.
              everything: plan.blocks.blockCalls + plan.blocks.formulaCalls,
              onPhase: (phase) => setProgress({ phase }),
              onProgress: (done, total, fetched) => setProgress({ phase: 'blocks', done, total, distinct: fetched }),
            }),
          everyCompany,
        );
        // Each block that failed is named: which statement, where, and that its figures are the old ones.
        const named = outcome.blocks.failed.map((f) => {
          const spec = specFromBinding(f.binding);
          return `${spec ? describeSpec(spec) : 'a block'} at ${f.binding.address}`;
        });
        setResult(named.length ? `${outcome.message} Not refreshed, previous figures kept: ${named.join('; ')}.` : outcome.message);
        const firstFailure = outcome.blocks.failed[0]?.error ?? outcome.tables.find((t) => t.outcome === 'failed')?.error;
        if (firstFailure) setError(firstFailure);
      }
    } catch (e) {
      setError(e);
    } finally {
      setProgress(null);
      await reload();
    }
  };

  const forget = async (binding: BindingRecord) => {
    setError(null);
    try {
      await statements.forget(binding);
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
      <Field label="Books closed through" hint="Figures up to this month end are kept by every refresh; Refresh this block reopens them.">
        <Select value={closedThrough ?? ''} onChange={(_, d) => void chooseClose(d.value)} disabled={busy}>
          <option value="">Not closed</option>
          {[...new Set([...(closedThrough ? [closedThrough] : []), ...choices])].map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </Select>
      </Field>
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
                      {block.rolled ? 'Behind the reporting period' : 'Changed by your push'}
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
                      ? `${block.rolled ? `Behind the reporting period: its next refresh rolls it to ${block.spec.start} to ${block.spec.end}` : 'Changed by your push: refresh'} (${plural(block.changedCalls, 'call')}).`
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
