import { Button, MessageBar, MessageBarBody, MessageBarTitle, Text, Title3 } from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { ChoiceField } from '../shared/ChoiceField';
import { useScreenStyles } from '../shared/styles';

/** An ISO instant in the user's local date and time, the zone named. */
function localTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZoneName: 'short' });
}
import { ChangesToPush } from './ChangesToPush';
import { unfinishedPush, tableNote } from './messages';
import type { TransactionsActions } from './useTransactionsActions';
import { describeFilters, plural } from '../../runtime/screenKit';

// Edit and push: the table the buttons act on; Refresh it, Review the edits made in it (what would be sent,
// grouped, and what it costs), Push them; and resume a push that was cut short.

export function EditAndPushForm({ actions, status }: { actions: TransactionsActions; status: ReactNode }) {
  const styles = useScreenStyles();
  const { current, busy } = actions;
  const disabled = busy !== null;

  return (
    <>
      <Title3 as="h3">Edit and push</Title3>
      <ChoiceField
        label="Table"
        value={current?.bindingId ?? ''}
        choices={actions.tables.map((t) => ({ key: t.bindingId, label: `${t.table} — ${describeFilters(t.state.filters)}` }))}
        onChange={actions.select}
      />
      {current && <Text className={styles.note}>{tableNote(current.state.incremental)}</Text>}
      {actions.unfinished.map((u) => (
        <MessageBar key={u.idempotencyKey} intent="warning" layout="multiline">
          <MessageBarBody>
            <MessageBarTitle>An earlier push did not finish</MessageBarTitle>
            {unfinishedPush(u, localTime)}
          </MessageBarBody>
          <div className={styles.row}>
            {u.resumable && (
              <Button onClick={() => actions.resume([u.idempotencyKey])} disabled={disabled}>
                Resume ({plural(u.calls, 'call')})
              </Button>
            )}
            <Button onClick={() => actions.discard([u.idempotencyKey])} disabled={disabled}>
              Discard
            </Button>
          </div>
        </MessageBar>
      ))}
      <div className={styles.row}>
        <Button onClick={actions.refresh} disabled={disabled || !current}>
          Refresh
        </Button>
        <Button onClick={actions.review} disabled={disabled || !current}>
          Review changes
        </Button>
        <Button appearance="primary" onClick={actions.push} disabled={disabled || !current}>
          Push
        </Button>
      </div>
      {status}
      {actions.plan && <ChangesToPush plan={actions.plan} />}
    </>
  );
}
