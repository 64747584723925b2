import { Button, Field, Input, Text } from '@fluentui/react-components';
import { useRef, useState } from 'react';
import type { BudgetCheck, KeptBudget } from '../../engine/budgets';
import type { CallCost } from '../../engine/reader/cachedReader';
import { ActionOutcome } from '../shared/ActionOutcome';
import type { PaneServices } from '../services';
import type { ConnectedState } from '../session';
import { useScreenStyles } from '../shared/styles';
import { useLiveEffect } from '../shared/useLiveEffect';
import { plural } from '../../runtime/screenKit';

// Budgets (issue 27, item 2): the user's own budget sheet, selected once, checked against the chart of accounts
// (which of its lines match a category, which do not and why, which categories no line covers, how its costs
// were typed) and kept under a name, as many as the workbook needs. Statement blocks "Against budget" and the
// formula helper's budget functions use them. A budget stays in the workbook: it is never sent anywhere.

export interface BudgetsPanelProps {
  services: PaneServices;
  connection: ConnectedState;
  budgets: readonly KeptBudget[];
  /** A budget was kept or forgotten: the screens read the list again. */
  onChanged: () => void;
}

/** At most this many names in a list of the check; the rest are counted. */
const SHOWN = 8;

function some(items: readonly string[]): string {
  return items.length > SHOWN ? `${items.slice(0, SHOWN).join('; ')}; and ${items.length - SHOWN} more` : items.join('; ');
}

export function BudgetsPanel({ services, connection, budgets, onChanged }: BudgetsPanelProps) {
  const styles = useScreenStyles();
  const { workspace } = connection;
  const [cost, setCost] = useState<CallCost | null>(null);
  const [check, setCheck] = useState<BudgetCheck | null>(null);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState('');
  const [error, setError] = useState<unknown>(null);
  // Every action may have fetched the chart of accounts (a check that failed too): the price is read again after each.
  const [actions, setActions] = useState(0);
  const checkButton = useRef<HTMLButtonElement>(null);

  useLiveEffect(
    (ifLive) => {
      workspace.budgets.checkCost().then(ifLive(setCost), () => undefined);
    },
    [workspace, actions],
  );

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    setResult('');
    try {
      await work();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
      setActions((n) => n + 1);
    }
  };

  const checkBudget = (kept?: KeptBudget) =>
    run(async () => {
      setCheck(null);
      const checked = await services.actions.track(kept ? `Check the budget ${kept.name}` : 'Check the selected budget', () => workspace.budgets.check(kept?.address ?? undefined), [connection.companyId]);
      setCheck(checked);
      setName(kept?.name ?? (budgets.some((b) => b.name.toLowerCase() === checked.suggestedName.toLowerCase()) ? '' : checked.suggestedName));
    });

  const keep = () =>
    run(async () => {
      if (!check) return;
      const kept = await workspace.budgets.keep(name, check.address);
      setResult(`Kept ${check.address} as the budget ${kept.name}. Formulas read it by its name, as in FIN.BUDGET(${kept.name}, "Rent", FIN_PERIOD).`);
      setCheck(null);
      // The check's region (and the button that had focus) goes: focus stays in the panel, not on the page body.
      checkButton.current?.focus();
      onChanged();
    });

  const forget = (kept: KeptBudget) =>
    run(async () => {
      await workspace.budgets.forget(kept.name);
      setResult(`Forgot the budget ${kept.name}: its cells stay as they are; formulas that name it show #NAME? and blocks against it cannot be rebuilt.`);
      onChanged();
    });

  const missed = check?.unmatched.filter((u) => !u.subtotal) ?? [];
  const subtotals = check?.unmatched.filter((u) => u.subtotal) ?? [];

  return (
    <section aria-label="Budgets" className={styles.screen}>
      <Text weight="semibold">Budgets</Text>
      <Text>
        Select your budget (months across its first row, category names or paths down its first column, figures in units), then check it. It stays in
        this workbook and is never sent anywhere.
      </Text>
      <div className={styles.row}>
        <Button ref={checkButton} onClick={() => void checkBudget()} disabledFocusable={busy}>
          Check the selected budget
        </Button>
        {cost && <Text className={styles.note}>{cost.calls > 0 ? `Checking spends ${plural(cost.calls, 'call')}: the chart of accounts, once` : 'Checking spends no call: the chart of accounts is cached'}</Text>}
      </div>
      {check && (
        <div role="region" aria-label="Budget check" className={styles.screen}>
          <Text>
            {`${check.address}: ${plural(check.matched.length, 'line')} matched to categories, ${check.covers}. Costs typed as ${
              check.costs === 'positive' ? 'positive amounts' : 'negative amounts, as the statement shows them'
            }.`}
          </Text>
          {missed.length > 0 && <Text>{`Lines that match no category, left out: ${some(missed.map((u) => `${u.label} (${u.cell}): ${u.reason}`))}.`}</Text>}
          {subtotals.length > 0 && <Text>{`Subtotals left out (the statement adds up its lines itself): ${some(subtotals.map((u) => u.label))}.`}</Text>}
          {check.skipped.length > 0 && <Text>{`Columns that are no month, left out: ${some(check.skipped.map((s) => `${s.header} (${s.cell})`))}.`}</Text>}
          {check.againstSign.length > 0 && (
            <Text role="alert">{`Typed against the budget's other costs (${check.costs === 'positive' ? 'negative among positive amounts' : 'positive among negative amounts'}), so read as income: ${some(
              check.againstSign.map((a) => `${a.label} (${a.cell})`),
            )}. Type ${check.againstSign.length > 1 ? 'them' : 'it'} as the other costs are, then check again: the budget cannot be kept so.`}</Text>
          )}
          <Text>{check.unbudgeted.length > 0 ? `Categories with no budget line (budgeted at 0): ${some(check.unbudgeted)}.` : 'Every category of the income statement has a budget line.'}</Text>
          <Field label="Budget name" hint="A name formulas can use: letters, digits and _.">
            <Input value={name} onChange={(_, d) => setName(d.value)} spellCheck={false} />
          </Field>
          <div className={styles.row}>
            <Button appearance="primary" onClick={() => void keep()} disabled={name.trim() === '' || check.againstSign.length > 0} disabledFocusable={busy}>
              Keep as a budget
            </Button>
          </div>
        </div>
      )}
      {budgets.length > 0 && (
        <ul aria-label="Kept budgets">
          {budgets.map((b) => (
            <li key={b.name}>
              <Text>{`${b.name}: ${b.address ?? 'not found (its name or cells were deleted)'}`} </Text>
              <Button size="small" onClick={() => void checkBudget(b)} disabled={!b.address} disabledFocusable={busy} aria-label={`Check ${b.name}`}>
                Check
              </Button>{' '}
              <Button size="small" onClick={() => void forget(b)} disabledFocusable={busy} aria-label={`Forget ${b.name}`}>
                Forget
              </Button>
            </li>
          ))}
        </ul>
      )}
      <ActionOutcome progress={null} label="Budgets" unit="" result={result} error={error} connection={connection} />
    </section>
  );
}
