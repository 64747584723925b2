// The Transactions screen's actions and what they leave behind: the workbook's transactions tables and the
// chosen one, the review plan, the running action with its progress, and the last result or error. One
// action runs at a time; each is recorded in the action log with what it cost.

import { useCallback, useState } from 'react';
import type { DrillDownRequest, ReviewPlan, TransactionFilters, TransactionsTableInfo, UnfinishedPush } from '../../engine/transactions';
import { useToday } from '../shared/hooks';
import { useLiveEffect } from '../shared/useLiveEffect';
import { findConnection } from '../../runtime';
import type { PaneServices } from '../services';
import type { ConnectedState } from '../session';
import * as say from './messages';
import type { ResultIntent, Said } from './messages';
import { pulledSheetName, pulledTableName } from './names';
import { idsInSelection } from '../../runtime/screenKit';

/** The form whose button started the running (or last) action: its progress and result show there. */
export type ActionOrigin = 'pull' | 'table' | 'shift' | 'drill';

export interface TransactionsActions {
  /** The transactions tables of this workbook, and the one the buttons act on. */
  tables: TransactionsTableInfo[];
  current: TransactionsTableInfo | undefined;
  select(bindingId: string): void;
  /** Unfinished pushes of the chosen table: each shown, resumed or discarded only on the user's word. */
  unfinished: UnfinishedPush[];
  /** What Review changes found (cleared by a pull or a push). */
  plan: ReviewPlan | null;
  /** The running action's label, or null. */
  busy: string | null;
  /** Where the running or last action was started; null before any. */
  origin: ActionOrigin | null;
  progress: string;
  result: string;
  /** How the result is shown: a push the API refused in part or whole is not a success. */
  resultIntent: ResultIntent;
  error: unknown;
  pull(filters: TransactionFilters): void;
  refresh(): void;
  review(): void;
  push(): void;
  /** Resumes the unfinished pushes the user confirmed. */
  resume(keys: string[]): void;
  /** Forgets unfinished pushes (nothing is sent). */
  discard(keys: string[]): void;
  shift(ids: string[], months: number): void;
  drillDownCell(): void;
  drillDown(request: DrillDownRequest): void;
  /** The Ids of the chosen table's rows under the selection; null (and the error shown) when there are none. */
  idsOfSelectedRows(): Promise<string[] | null>;
}

/** The company id a formula's company argument names among the connections, as the runtime resolves it. */
function companyNamed(connection: ConnectedState): (argument: string) => string | null {
  return (argument) => findConnection(connection.connections, argument)?.companyId ?? null;
}

/** One action at a time: which is running and where it was started, its progress, then its result or error. */
function useActionRun(services: PaneServices) {
  const [busy, setBusy] = useState<string | null>(null);
  const [origin, setOrigin] = useState<ActionOrigin | null>(null);
  const [progress, setProgress] = useState('');
  const [result, setResult] = useState('');
  const [resultIntent, setResultIntent] = useState<ResultIntent>('success');
  const [error, setError] = useState<unknown>(null);
  /** Bumped after every action: the tables and the saved jobs are read again. */
  const [version, setVersion] = useState(0);

  async function run(from: ActionOrigin, label: string, work: () => Promise<string | Said>, companyIds?: readonly string[]): Promise<void> {
    setOrigin(from);
    setBusy(label);
    setError(null);
    setResult('');
    setProgress('');
    try {
      const said = await services.actions.track(label, work, companyIds);
      setResultIntent(typeof said === 'string' ? 'success' : said.intent);
      setResult(typeof said === 'string' ? said : said.text);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(null);
      setProgress('');
      setVersion((v) => v + 1);
    }
  }

  return { busy, origin, setOrigin, progress, setProgress, result, setResult, resultIntent, error, setError, version, run };
}

export function useTransactionsActions(services: PaneServices, connection: ConnectedState): TransactionsActions {
  const today = useToday(services);
  const { workspace } = connection;
  const engine = workspace.transactions;
  const [tables, setTables] = useState<TransactionsTableInfo[]>([]);
  const [selected, setSelected] = useState('');
  const [unfinishedOf, setUnfinishedOf] = useState<{ bindingId: string; pushes: UnfinishedPush[] } | null>(null);
  const [plan, setPlan] = useState<ReviewPlan | null>(null);
  const { busy, origin, setOrigin, progress, setProgress, result, setResult, resultIntent, error, setError, version, run } = useActionRun(services);

  /** Keeps the chosen table while it is still there; otherwise the newest one is chosen. */
  const showTables = useCallback((list: TransactionsTableInfo[]) => {
    setTables(list);
    setSelected((cur) => (cur && list.some((t) => t.bindingId === cur) ? cur : (list.at(-1)?.bindingId ?? '')));
  }, []);

  useLiveEffect(
    (ifLive) => {
      void engine.tables().then(ifLive(showTables), setError);
    },
    [engine, showTables, version, setError],
  );

  useLiveEffect(
    (ifLive) => {
      if (!selected) return;
      void engine.unfinished(selected).then(
        ifLive((pushes) => setUnfinishedOf({ bindingId: selected, pushes })),
        () => undefined,
      );
    },
    [engine, selected, version],
  );

  const current = tables.find((t) => t.bindingId === selected);
  const unfinished = unfinishedOf && unfinishedOf.bindingId === selected ? unfinishedOf.pushes : [];

  /** An action on the selected table spends on the company the table came from (its line goes on that log). */
  const onTable = (): string[] | undefined => (current?.company ? [current.company] : undefined);

  const onProgress = (p: { message: string }) => setProgress(p.message);

  return {
    tables,
    current,
    select: setSelected,
    unfinished,
    plan,
    busy,
    origin,
    progress,
    result,
    resultIntent,
    error,

    pull: (filters) =>
      void run('pull', 'Pull transactions', async () => {
        setPlan(null);
        const sheetName = pulledSheetName(filters, { fiscalYearStartMonth: connection.fiscalYearStartMonth });
        const tableName = pulledTableName(sheetName, tables.map((t) => t.table));
        const res = await engine.pull(filters, { onProgress, sheetName, tableName });
        showTables(await engine.tables());
        setSelected(res.bindingId);
        return say.pulled(res);
      }),

    refresh: () => void run('table', 'Refresh transactions', async () => say.refreshed(await engine.refresh(selected, onProgress)), onTable()),

    review: () =>
      void run('table', 'Review changes', async () => {
        const p = await engine.review(selected);
        setPlan(p);
        return say.reviewed(p);
      }, onTable()),

    push: () =>
      void run('table', 'Push changes', async () => {
        // A push that would stop part way for the month's cap leaves rows half sent: it is not started. The
        // cap is that of the company the table belongs to.
        await workspace.checkAffordable('This push', plan?.cost.total ?? 0, 'Push fewer rows at a time, or wait for the reset.', current?.company);
        const res = await engine.push(selected, { onProgress });
        setPlan(null);
        return say.pushed(res);
      }, onTable()),

    resume: (keys) => void run('table', 'Resume push', async () => say.resumed(await engine.resume(selected, keys, onProgress)), onTable()),

    discard: (keys) =>
      void run('table', 'Discard unfinished push', async () => {
        await engine.discard(selected, keys);
        return say.discarded(keys.length);
      }, onTable()),

    shift: (ids, months) =>
      void run('shift', 'Shift accounting dates', async () => say.shifted(await engine.shiftAccountingDates(selected, ids, months, { onProgress }), months), onTable()),

    // A cell of another connected company's block or formula is drilled into on its connection.
    drillDownCell: () =>
      void run(
        'drill',
        'Show what is behind this cell',
        async () =>
          say.drilledFromCell(
            await engine.drillDownFromSelection({
              today,
              fiscalYearStartMonth: connection.fiscalYearStartMonth,
              fiscalYearOf: (id) => connection.connections.find((c) => c.companyId === id)?.fiscalYearStartMonth,
              companyOf: companyNamed(connection),
              onProgress,
            }),
          ),
        connection.connections.map((c) => c.companyId),
      ),

    drillDown: (request) => void run('drill', 'Show entries behind a number', async () => say.drilledDown(await engine.drillDown(request, onProgress))),

    idsOfSelectedRows: async () => {
      setError(null);
      try {
        if (!current) return null;
        // One read of the selection and one of the table; which rows it covers is the engine's maths.
        const selection = await services.gateway.getSelection();
        const table = await services.gateway.readTable(current.table);
        const ids = idsInSelection(selection.address, table);
        if (ids.length === 0) throw new Error(say.selectRowsFirst(current.table));
        return ids;
      } catch (e) {
        // Said next to the Shift form's buttons, where the user asked.
        setOrigin('shift');
        setResult('');
        setError(e);
        return null;
      }
    },
  };
}
