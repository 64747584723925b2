import { Button, Field, Input, Title3 } from '@fluentui/react-components';
import { useState, type ReactNode } from 'react';
import { useScreenStyles } from '../shared/styles';
import type { TransactionsActions } from './useTransactionsActions';

// Shift accounting dates: move the accounting date of chosen rows by whole months (one bulk job per 5,000
// rows). The rows are typed as Ids or taken from the rows selected in the table.

export function ShiftForm({ actions, status }: { actions: TransactionsActions; status: ReactNode }) {
  const styles = useScreenStyles();
  const [idsText, setIdsText] = useState('');
  const [monthsText, setMonthsText] = useState('1');
  const months = Number(monthsText);
  const disabled = actions.busy !== null;

  const takeSelectedRows = async () => {
    const ids = await actions.idsOfSelectedRows();
    if (ids) setIdsText(ids.join(', '));
  };

  return (
    <>
      <Title3 as="h3">Shift accounting dates</Title3>
      <div className={styles.twoColumns}>
        <Field label="Transaction ids">
          <Input value={idsText} onChange={(_, d) => setIdsText(d.value)} placeholder="txn_…, txn_…" />
        </Field>
        <Field label="Months">
          <Input value={monthsText} onChange={(_, d) => setMonthsText(d.value)} />
        </Field>
      </div>
      <div className={styles.row}>
        <Button onClick={() => void takeSelectedRows()} disabled={disabled}>
          Use selected rows
        </Button>
        <Button
          onClick={() => actions.shift(idsText.split(/[\s,]+/).filter(Boolean), months)}
          disabled={disabled || !idsText.trim() || !Number.isInteger(months) || months === 0}
        >
          Shift
        </Button>
      </div>
      {status}
    </>
  );
}
