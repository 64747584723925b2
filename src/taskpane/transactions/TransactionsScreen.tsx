import { Button, Divider, Field, Input, MessageBar, MessageBarBody, MessageBarTitle, ProgressBar, Select, Text, Title3 } from '@fluentui/react-components';
import { useCallback, useEffect, useMemo, useState } from 'react';
import {
  allowsIncrementalRefresh,
  createTransactionsEngine,
  describeFilters,
  mutableFilterNames,
  normalizeFilters,
  COL,
  type ReviewPlan,
  type TransactionFilters,
  type TransactionsEngine,
  type TransactionsTableInfo,
} from '../../engine/transactions';
import { centsToDisplay } from '../../engine/render/money';
import { parseQualified } from '../../engine/ports/address';
import { ErrorMessage } from '../ErrorMessage';
import { useSession, useToday } from '../hooks';
import type { PaneServices } from '../services';
import type { ConnectedState } from '../session';
import { useScreenStyles } from '../styles';

/** A drill-down total for a message: cents become units only through the engine's money module. */
function totalText(cents: number): string {
  return centsToDisplay(cents, 'units').toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

// Transactions: pull a filtered table of transactions onto a new sheet; refresh it (incrementally when its
// filters allow, else a re-pull, and the screen says which); review the department and accounting-date
// edits made in the table (what would be sent, grouped, and what it costs) and push them; shift the
// accounting date of chosen rows; resume a push that was cut short; and open the journal lines behind a
// statement number. Everything the table needs lives in the workbook; the engine does the work.

type FilterForm = Record<'start_date' | 'end_date' | 'status' | 'transaction_type' | 'categorized' | 'category_id' | 'merchant' | 'source_vendor' | 'source_type', string>;

const EMPTY_FORM: FilterForm = {
  start_date: '',
  end_date: '',
  status: '',
  transaction_type: '',
  categorized: '',
  category_id: '',
  merchant: '',
  source_vendor: '',
  source_type: '',
};

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

function callsText(calls: number | null): string {
  return calls === null ? '' : ` (${plural(calls, 'call')})`;
}

export function TransactionsScreen({ services }: { services: PaneServices }) {
  const state = useSession(services);
  if (state.status !== 'connected') return <Text>Connect to a company to pull its transactions.</Text>;
  return <Connected services={services} connection={state} />;
}

function Connected({ services, connection }: { services: PaneServices; connection: ConnectedState }) {
  const styles = useScreenStyles();
  const today = useToday(services);
  const engine: TransactionsEngine = useMemo(
    () => createTransactionsEngine({ client: connection.client, reader: connection.reader, gateway: services.gateway, now: services.now }),
    [connection.client, connection.reader, services.gateway, services.now],
  );
  const [form, setForm] = useState<FilterForm>(EMPTY_FORM);
  const [tables, setTables] = useState<TransactionsTableInfo[]>([]);
  const [selected, setSelected] = useState('');
  const [unfinished, setUnfinished] = useState(0);
  const [busy, setBusy] = useState<string | null>(null);
  const [progress, setProgress] = useState('');
  const [result, setResult] = useState('');
  const [plan, setPlan] = useState<ReviewPlan | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [shiftIds, setShiftIds] = useState('');
  const [shiftMonths, setShiftMonths] = useState('1');
  const [drill, setDrill] = useState({ categoryId: '', start: '', end: '' });
  const [version, setVersion] = useState(0);

  const loadTables = useCallback(async () => {
    const list = await engine.tables();
    setTables(list);
    setSelected((cur) => (cur && list.some((t) => t.bindingId === cur) ? cur : (list.at(-1)?.bindingId ?? '')));
  }, [engine]);

  useEffect(() => {
    void loadTables().catch(setError);
  }, [loadTables, version]);

  useEffect(() => {
    if (!selected) return setUnfinished(0);
    let live = true;
    void engine.unfinishedJobs(selected).then(
      (e) => live && setUnfinished(e.length),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [engine, selected, version]);

  const checked = useMemo(() => normalizeFilters(form as Partial<Record<keyof TransactionFilters, unknown>>), [form]);
  const current = tables.find((t) => t.bindingId === selected);

  async function run(label: string, work: () => Promise<string>): Promise<void> {
    setBusy(label);
    setError(null);
    setResult('');
    setProgress('');
    try {
      const text = await services.actions.track(label, work);
      setResult(text);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(null);
      setProgress('');
      setVersion((v) => v + 1);
    }
  }

  const onProgress = (p: { message: string }) => setProgress(p.message);

  const pull = () =>
    run('Pull transactions', async () => {
      if (!checked.ok) throw new Error(checked.error);
      setPlan(null);
      const res = await engine.pull(checked.value, { onProgress });
      await loadTables();
      setSelected(res.bindingId);
      const mode = res.incremental
        ? 'Refresh will fetch only what changed since.'
        : `Refresh will re-pull the whole selection: ${res.mutableFilters.join(', ')} can change on a transaction, and an incremental sync would miss rows that stop matching.`;
      return `Pulled ${plural(res.rows, 'transaction')} into ${res.sheet}${callsText(res.calls)}. ${mode}`;
    });

  const refresh = () =>
    run('Refresh transactions', async () => {
      const res = await engine.refresh(selected, onProgress);
      const c = res.counts;
      return `${res.mode === 'full' ? 'Re-pulled' : 'Refreshed'}: ${c.updated} updated, ${c.added} added, ${c.removed} removed${c.flagged ? `, ${c.flagged} to review` : ''}${callsText(res.calls)}. ${res.note}`;
    });

  const review = () =>
    run('Review changes', async () => {
      const p = await engine.review(selected);
      setPlan(p);
      return p.edited === 0 ? 'No edits in this table.' : `${plural(p.edited, 'edited row')} found.`;
    });

  const push = () =>
    run('Push changes', async () => {
      const res = await engine.push(selected, { onProgress });
      setPlan(null);
      const jobs = res.jobs.length ? `, ${plural(res.jobs.length, 'job')}` : '';
      const patches = res.patches.length ? `, ${plural(res.patches.length, 'single-row update')}` : '';
      const resumed = res.resumed.entries ? ` Resumed ${plural(res.resumed.entries, 'interrupted job')} first.` : '';
      const warn = res.warnings.length ? ` ${res.warnings.join(' ')}` : '';
      return `Pushed: ${plural(res.updated, 'row')} updated, ${res.pending} pending, ${res.invalid.length + res.held.length} not sent${jobs}${patches}${callsText(res.calls)}. Each row's Push status says what happened.${resumed}${warn}`;
    });

  const resume = () =>
    run('Resume push', async () => {
      const res = await engine.resume(selected, onProgress);
      return `Resumed ${plural(res.entries, 'job')}: ${res.updated} rows updated, ${res.failed} failed, ${res.unknown} still unknown${callsText(res.calls)}.`;
    });

  /** The Id of every row of the transactions table inside the selected range (one round trip for the selection). */
  const useSelectedRows = async () => {
    setError(null);
    try {
      if (!current) return;
      const selection = await services.gateway.getSelection();
      const read = await services.gateway.readTable(current.table);
      const sel = parseQualified(selection.address);
      const table = parseQualified(read.address);
      const idCol = read.columns.indexOf(COL.id);
      const ids: string[] = [];
      if (sel.sheet.toLowerCase() === table.sheet.toLowerCase()) {
        // Data row i sits one row below the header.
        for (let row = sel.box.row; row < sel.box.row + sel.box.rows; row++) {
          const id = read.rows[row - table.box.row - 1]?.[idCol];
          if (id !== undefined && id !== '') ids.push(String(id));
        }
      }
      if (ids.length === 0) throw new Error(`Select rows of the transactions table ${current.table} first (any cells of them; several rows at once are fine).`);
      setShiftIds([...new Set(ids)].join(', '));
    } catch (e) {
      setError(e);
    }
  };

  const shift = () =>
    run('Shift accounting dates', async () => {
      const ids = shiftIds.split(/[\s,]+/).filter(Boolean);
      const months = Number(shiftMonths);
      const res = await engine.shiftAccountingDates(selected, ids, months, { onProgress });
      return `Shifted ${plural(res.updated, 'row')} by ${months} month${Math.abs(months) === 1 ? '' : 's'}; ${res.invalid.length} not sent${callsText(res.calls)}. See Push status.`;
    });

  const drillDownCell = () =>
    run('Show what is behind this cell', async () => {
      const res = await engine.drillDownFromSelection({ today, fiscalYearStartMonth: connection.fiscalYearStartMonth, onProgress });
      const t = res.target;
      return `${plural(res.rows, 'journal line')} of ${res.categoryName}, ${t.start} to ${t.end} (from ${t.source}), on ${res.sheet}, total ${totalText(res.totalCents)}${callsText(res.calls)}. ${res.note}`;
    });

  const drillDown = () =>
    run('Show entries behind a number', async () => {
      const res = await engine.drillDown({ categoryId: drill.categoryId.trim(), start: drill.start.trim(), end: drill.end.trim() }, onProgress);
      return `${plural(res.rows, 'journal line')} of ${res.categoryName} on ${res.sheet}, total ${totalText(res.totalCents)}${callsText(res.calls)}. ${res.note}`;
    });

  const set = (key: keyof FilterForm) => (_: unknown, d: { value: string }) => setForm((f) => ({ ...f, [key]: d.value }));
  const disabled = busy !== null;

  return (
    <div className={styles.screen}>
      <Title3 as="h3">Pull</Title3>
      <div className={styles.twoColumns}>
        <Field label="From date">
          <Input value={form.start_date} onChange={set('start_date')} placeholder={`e.g. ${today.slice(0, 4)}-01-01`} />
        </Field>
        <Field label="To date">
          <Input value={form.end_date} onChange={set('end_date')} placeholder={today} />
        </Field>
      </div>
      <div className={styles.twoColumns}>
        <Field label="Status">
          <Select value={form.status} onChange={set('status')}>
            <option value="">Any</option>
            <option value="approved">Approved</option>
            <option value="pending">Pending</option>
          </Select>
        </Field>
        <Field label="Type">
          <Select value={form.transaction_type} onChange={set('transaction_type')}>
            <option value="">Any</option>
            <option value="standard">Standard</option>
            <option value="transfer">Transfer</option>
            <option value="split">Split</option>
          </Select>
        </Field>
      </div>
      <div className={styles.twoColumns}>
        <Field label="Categorized">
          <Select value={form.categorized} onChange={set('categorized')}>
            <option value="">Any</option>
            <option value="true">Categorized</option>
            <option value="false">Uncategorized</option>
          </Select>
        </Field>
        <Field label="Category id">
          <Input value={form.category_id} onChange={set('category_id')} placeholder="cat_…" />
        </Field>
      </div>
      <div className={styles.twoColumns}>
        <Field label="Merchant contains">
          <Input value={form.merchant} onChange={set('merchant')} />
        </Field>
        <Field label="Source vendor">
          <Input value={form.source_vendor} onChange={set('source_vendor')} />
        </Field>
      </div>
      <Field label="Source type">
        <Select value={form.source_type} onChange={set('source_type')}>
          <option value="">Any</option>
          <option value="bank">Bank</option>
          <option value="credit">Credit</option>
          <option value="reimbursement">Reimbursement</option>
        </Select>
      </Field>
      <Text className={styles.note}>
        {checked.ok
          ? `${describeFilters(checked.value)}. Costs 2 calls plus 1 per 500 rows. ${
              allowsIncrementalRefresh(checked.value)
                ? 'Refresh will be incremental.'
                : `Refresh will re-pull everything: ${mutableFilterNames(checked.value).join(', ')} can change on a transaction.`
            }`
          : checked.error}
      </Text>
      <div className={styles.row}>
        <Button appearance="primary" onClick={pull} disabled={disabled || !checked.ok}>
          Pull
        </Button>
      </div>

      {tables.length > 0 && (
        <>
          <Divider />
          <Title3 as="h3">Edit and push</Title3>
          <Field label="Table">
            <Select value={selected} onChange={(_, d) => setSelected(d.value)}>
              {tables.map((t) => (
                <option key={t.bindingId} value={t.bindingId}>
                  {t.table} — {describeFilters(t.state.filters)}
                </option>
              ))}
            </Select>
          </Field>
          {current && (
            <Text className={styles.note}>
              Edit Department (pick from the list) or Accounting date in the table, then review and push. Pulled values sit at the far right.{' '}
              {current.state.incremental ? 'Refresh is incremental.' : 'Refresh re-pulls (the filters can change on a transaction).'}
            </Text>
          )}
          {unfinished > 0 && (
            <MessageBar intent="warning" layout="multiline">
              <MessageBarBody>
                <MessageBarTitle>An earlier push was interrupted</MessageBarTitle>
                {plural(unfinished, 'job')} saved in this workbook; it is resumed (the same job, never a second one) before the next push.
              </MessageBarBody>
              <Button onClick={resume} disabled={disabled}>
                Resume now
              </Button>
            </MessageBar>
          )}
          <div className={styles.row}>
            <Button onClick={refresh} disabled={disabled || !current}>
              Refresh
            </Button>
            <Button onClick={review} disabled={disabled || !current}>
              Review changes
            </Button>
            <Button appearance="primary" onClick={push} disabled={disabled || !current}>
              Push
            </Button>
          </div>
          {plan && <ReviewView plan={plan} />}

          <Title3 as="h3">Shift accounting dates</Title3>
          <div className={styles.twoColumns}>
            <Field label="Transaction ids">
              <Input value={shiftIds} onChange={(_, d) => setShiftIds(d.value)} placeholder="txn_…, txn_…" />
            </Field>
            <Field label="Months">
              <Input value={shiftMonths} onChange={(_, d) => setShiftMonths(d.value)} />
            </Field>
          </div>
          <div className={styles.row}>
            <Button onClick={() => void useSelectedRows()} disabled={disabled}>
              Use selected rows
            </Button>
            <Button onClick={shift} disabled={disabled || !shiftIds.trim() || !Number.isInteger(Number(shiftMonths)) || Number(shiftMonths) === 0}>
              Shift
            </Button>
          </div>
        </>
      )}

      <Divider />
      <Title3 as="h3">Show the entries behind a number</Title3>
      <Text className={styles.note}>
        The journal lines of a category and its subcategories in a period, on a new sheet. They add up to the statement line (transactions alone would not: pending
        ones post nothing, spreads and depreciation have no transaction).
      </Text>
      <Text className={styles.note}>
        Select a number in a statement block inserted from the Reports tab, or a cell with a FIN.TOTAL, FIN.PNL or FIN.BALANCE formula, then:
      </Text>
      <div className={styles.row}>
        <Button appearance="primary" onClick={drillDownCell} disabled={disabled}>
          Show what&apos;s behind this cell
        </Button>
      </div>
      <Text className={styles.note}>Or type a category id and a period:</Text>
      <Field label="Category id for drill-down">
        <Input value={drill.categoryId} onChange={(_, d) => setDrill((x) => ({ ...x, categoryId: d.value }))} placeholder="cat_…" />
      </Field>
      <div className={styles.twoColumns}>
        <Field label="Period from">
          <Input value={drill.start} onChange={(_, d) => setDrill((x) => ({ ...x, start: d.value }))} placeholder="YYYY-MM-DD" />
        </Field>
        <Field label="Period to">
          <Input value={drill.end} onChange={(_, d) => setDrill((x) => ({ ...x, end: d.value }))} placeholder="YYYY-MM-DD" />
        </Field>
      </div>
      <div className={styles.row}>
        <Button onClick={drillDown} disabled={disabled || !drill.categoryId.trim() || !drill.start.trim() || !drill.end.trim()}>
          Show entries
        </Button>
      </div>

      {busy && (
        <div>
          <ProgressBar aria-label={busy} />
          <Text role="status">{progress || `${busy}…`}</Text>
        </div>
      )}
      {result && (
        <MessageBar intent="success" layout="multiline">
          <MessageBarBody>
            <Text role="status">{result}</Text>
          </MessageBarBody>
        </MessageBar>
      )}
      <ErrorMessage error={error} context={{ baseUrl: connection.baseUrl, plan: connection.plan }} />
    </div>
  );
}

function ReviewView({ plan }: { plan: ReviewPlan }) {
  const styles = useScreenStyles();
  return (
    <section aria-label="Changes to push">
      <Text weight="semibold">
        {plural(plan.groups.length, 'group')} to send ({plural(plan.groups.reduce((n, g) => n + g.rows, 0), 'row')})
      </Text>
      <ul>
        {plan.groups.map((g) => (
          <li key={JSON.stringify(g.update)}>
            {g.description}: {plural(g.rows, 'row')} —{' '}
            {g.method === 'patch' ? 'one PATCH (1 call)' : `${plural(g.jobs, 'bulk job')} (${g.calls}+ calls: submission and polls)`}
          </li>
        ))}
      </ul>
      {plan.invalid.length > 0 && <Text className={styles.note}>{plural(plan.invalid.length, 'row')} not sent: see their Push status. </Text>}
      {plan.held.length > 0 && <Text className={styles.note}>{plural(plan.held.length, 'row')} held: changed or deleted upstream (see Push status). </Text>}
      {plan.unfinishedJobs > 0 && <Text className={styles.note}>{plural(plan.unfinishedJobs, 'interrupted job')} will be resumed first. </Text>}
      <Text>{plan.cost.text}</Text>
    </section>
  );
}
