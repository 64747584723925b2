import { Badge, Button, Field, ProgressBar, Text, makeStyles, tokens } from '@fluentui/react-components';
import { useCallback, useEffect, useEffectEvent, useRef, useState } from 'react';
import { plural, pluralNoun } from '../engine/text/plural';
import type { BindingRecord } from '../engine/ports/workbook';
import { PaneError } from './errors';
import { ErrorMessage } from './ErrorMessage';
import {
  blockCostText,
  changedCostText,
  changedOnly,
  describeSpec,
  failureOf,
  formatAge,
  hasChanges,
  isOld,
  refreshAllCostText,
  specFromBinding,
  type RefreshBlock,
  type RefreshPlan,
} from '../engine/statements';
import { useStatements } from './hooks';
import { InView } from './InView';
import { refreshProgressText, type RefreshProgress } from './refreshProgress';
import type { ScreenProps } from './ReportsScreen';
import { useScreenStyles } from './styles';

// Refresh: every block the pane wrote, where it is now, when it was refreshed and whether anything is known
// to have changed since (the add-in's own pushes and shifts are) or it is damaged (its cells deleted or
// reshaped: then only Forget); Refresh all (blocks and FIN formulas), Refresh what changed, and Refresh this
// block, each showing what it will spend before it spends it.

type Pending = { kind: 'all'; text: string } | { kind: 'changed'; text: string } | { kind: 'block'; block: RefreshBlock; text: string };

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
  /** Changes when the ribbon's Refresh all asks: show the cost of refreshing everything and ask. */
  askAllSignal?: number;
}

export function RefreshPanel({ services, connection, askAllSignal = 0 }: RefreshPanelProps) {
  const styles = useScreenStyles();
  const statements = useStatements(services, connection);
  const refreshStyles = useRefreshStyles();
  const [plan, setPlan] = useState<RefreshPlan | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [progress, setProgress] = useState<RefreshProgress | null>(null);
  const [result, setResult] = useState('');
  const [error, setError] = useState<unknown>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const refreshAllRef = useRef<HTMLButtonElement>(null);
  const blocksHeadingRef = useRef<HTMLHeadingElement>(null);
  /** The button that asked for the pending refresh: focus goes back there on Cancel. */
  const openerRef = useRef<HTMLElement | null>(null);
  const now = services.now();

  const reload = useCallback(async () => {
    try {
      setPlan(await statements.plan());
    } catch (e) {
      setError(e);
    }
  }, [statements]);

  useEffect(() => {
    void reload();
  }, [reload]);

  // A push or shift marks what it changed: the blocks it leaves behind say so without a click.
  useEffect(() => services.runtime.onDataChange(() => void reload()), [services.runtime, reload]);

  useEffect(() => {
    if (pending) confirmRef.current?.focus();
  }, [pending]);

  // Only a new signal from the ribbon asks again, with the askAll of the latest render.
  const askFromRibbon = useEffectEvent(() => {
    if (refreshAllRef.current) void askAll(refreshAllRef.current);
  });
  useEffect(() => {
    if (askAllSignal > 0) askFromRibbon();
  }, [askAllSignal]);

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

  const askAll = async (opener: HTMLElement) => {
    openerRef.current = opener;
    setError(null);
    setResult('');
    if (await refuseAtCap()) return;
    const fresh = await statements.plan().catch((e: unknown) => {
      setError(e);
      return null;
    });
    if (!fresh) return;
    setPlan(fresh);
    setPending({ kind: 'all', text: refreshAllCostText(fresh) });
  };

  const askChanged = async (opener: HTMLElement) => {
    openerRef.current = opener;
    setError(null);
    setResult('');
    if (await refuseAtCap()) return;
    const fresh = await statements.plan().catch((e: unknown) => {
      setError(e);
      return null;
    });
    if (!fresh) return;
    setPlan(fresh);
    if (!hasChanges(fresh)) {
      setResult('Nothing is known to have changed since it was fetched: nothing to refresh.');
      return;
    }
    setPending({ kind: 'changed', text: changedCostText(fresh) });
  };

  const askBlock = async (block: RefreshBlock, opener: HTMLElement) => {
    openerRef.current = opener;
    setError(null);
    setResult('');
    if (await refuseAtCap()) return;
    setPending({ kind: 'block', block, text: blockCostText(block) });
  };

  const confirm = async () => {
    if (!pending || !plan) return;
    const job = pending;
    setPending(null);
    // The confirmation disappears: keep focus on a control that stays (focusable while busy).
    refreshAllRef.current?.focus();
    const spentText = () => {
      const spent = services.actions.entries(connection.companyId)[0]?.calls ?? 0;
      return `Spent ${plural(spent, 'call')}.`;
    };
    try {
      if (job.kind === 'all' || job.kind === 'changed') {
        const scope = job.kind;
        const scoped = scope === 'all' ? plan : changedOnly(plan);
        // The formulas first (nothing to count yet), then the blocks, counted in the reports they read.
        setProgress({ phase: 'formulas' });
        const outcome = await services.actions.track(scope === 'all' ? 'Refresh all' : 'Refresh what changed', () =>
          statements.refreshAll(scoped, {
            scope,
            refreshFormulas: () => services.runtime.refreshAll({ scope }),
            onProgress: (done, total) => setProgress({ phase: 'blocks', done, total, distinct: scoped.blockCalls }),
          }),
        );
        const n = outcome.refreshed.length;
        const failed = outcome.failed.length;
        // Each block that failed is named: which statement, where, and that its figures are the old ones.
        const named = outcome.failed.map((f) => {
          const spec = specFromBinding(f.binding);
          return `${spec ? describeSpec(spec) : 'a block'} at ${f.binding.address}`;
        });
        setResult(
          failed === 0
            ? `Refreshed ${scope === 'changed' ? 'what changed: ' : ''}${plural(n, 'block')} and the FIN formulas. ${spentText()}`
            : `Refreshed ${n} of ${n + failed} blocks. Not refreshed, ${pluralNoun(failed, 'its', 'their')} previous figures kept: ${named.join('; ')}. ${spentText()}`,
        );
        // The first failure says why, and what to do (a block whose sheet is gone: Forget it).
        if (failed > 0) setError(outcome.failed[0].error);
      } else {
        const reports = job.block.keys.length;
        setProgress({ phase: 'blocks', done: 0, total: reports, distinct: reports });
        await services.actions.track(`Refresh ${describeSpec(job.block.spec)}`, () =>
          statements.refreshBlock(job.block, (done, total) => setProgress({ phase: 'blocks', done, total, distinct: total })),
        );
        setResult(`Refreshed the block at ${job.block.binding.address}. ${spentText()}`);
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
        <Button ref={refreshAllRef} appearance="primary" onClick={(e) => void askAll(e.currentTarget)} disabledFocusable={busy || pending !== null}>
          Refresh all
        </Button>
        <Text className={styles.note}>Rebuilds every block below and recalculates the FIN formulas.</Text>
      </div>
      {plan && hasChanges(plan) && (
        <div className={styles.row}>
          <Button onClick={(e) => void askChanged(e.currentTarget)} disabledFocusable={busy || pending !== null}>
            Refresh what changed
          </Button>
          <Text className={styles.note}>
            Your push changed figures shown here: this fetches only those ({plural(plan.changedCalls.blockCalls + plan.changedCalls.formulaCalls, 'call')} at most).
          </Text>
        </div>
      )}
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
      {plan && plan.blocks.length === 0 && <Text>No statements inserted yet. Insert one from the Reports tab.</Text>}
      {plan && plan.blocks.length > 0 && (
        <ul aria-label="Blocks" className={refreshStyles.blocks}>
          {plan.blocks.map((block) => {
            const at = Date.parse(block.binding.refreshedAt);
            const old = isOld(block.binding, now);
            const changed = block.changed.length > 0;
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
                      Changed by your push
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
                      ? `Changed by your push: refresh (${plural(block.changedCalls, 'call')}).`
                      : 'Nothing known to have changed since it was written: your pushes and shifts are tracked here; changes made elsewhere show after a refresh.'}
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
      {plan && plan.others.length > 0 && (
        <Text className={styles.note}>
          {plural(plan.others.length, 'other block')} (transactions tables or another company) refresh from their own tab.
        </Text>
      )}
    </div>
  );
}
