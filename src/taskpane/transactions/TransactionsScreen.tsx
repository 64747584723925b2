import { Divider, MessageBar, MessageBarBody, ProgressBar, Text } from '@fluentui/react-components';
import { ErrorMessage } from '../shared/ErrorMessage';
import { useSession, useToday } from '../shared/hooks';
import { InView } from '../shared/InView';
import { useCategories } from '../shared/useCategories';
import type { PaneServices } from '../services';
import type { ConnectedState } from '../session';
import { useScreenStyles } from '../shared/styles';
import { DrillDownForm } from './DrillDownForm';
import { EditAndPushForm } from './EditAndPushForm';
import { NOT_CONNECTED } from './messages';
import { PullForm } from './PullForm';
import { PushLogPanel } from './PushLogPanel';
import { ShiftForm } from './ShiftForm';
import { useTransactionsActions, type ActionOrigin, type TransactionsActions } from './useTransactionsActions';

// Transactions: pull a filtered table of transactions onto a new sheet; refresh it (incrementally when its
// filters allow, else a re-pull, and the screen says which); review the department and accounting-date
// edits made in the table (what would be sent, grouped, and what it costs) and push them; shift the
// accounting date of chosen rows; resume a push that was cut short; open the journal lines behind a
// statement number; and see the last entries of the push log, whose sheet it opens. Everything the table needs lives in the workbook; the engine does the work. An
// action's progress and result appear under the buttons of the form that started it, where the user is.

export function TransactionsScreen({ services }: { services: PaneServices }) {
  const state = useSession(services);
  if (state.status !== 'connected') return <Text>{NOT_CONNECTED}</Text>;
  return <Connected services={services} connection={state} />;
}

function Connected({ services, connection }: { services: PaneServices; connection: ConnectedState }) {
  const styles = useScreenStyles();
  const today = useToday(services);
  const actions = useTransactionsActions(services, connection);
  // One chart of accounts for the screen's category pickers: loading it in one fills both.
  const categories = useCategories(services, connection);
  const status = (form: ActionOrigin) => (actions.origin === form ? <Outcome actions={actions} connection={connection} /> : null);

  return (
    <div className={styles.screen}>
      <PullForm actions={actions} categories={categories} today={today} status={status('pull')} />
      {actions.tables.length > 0 && (
        <>
          <Divider />
          <EditAndPushForm actions={actions} status={status('table')} />
          <ShiftForm actions={actions} status={status('shift')} />
        </>
      )}
      <ErrorMessage error={categories.error} context={{ baseUrl: connection.baseUrl, plan: connection.plan }} />
      <Divider />
      <DrillDownForm actions={actions} categories={categories} status={status('drill')} />
      <Divider />
      {/* Read again when an action ends (a push, a shift, a resume appends to the log). */}
      <PushLogPanel connection={connection} version={`${actions.busy ?? ''}|${actions.result}`} />
    </div>
  );
}

/** The running action's progress, then its result or its error, kept in sight. */
function Outcome({ actions, connection }: { actions: TransactionsActions; connection: ConnectedState }) {
  const { busy, progress, result, resultIntent, error } = actions;
  return (
    <InView watch={busy ? `${busy}: ${progress}` : result || (error ? 'error' : '')}>
      {busy && (
        <div>
          <ProgressBar aria-label={busy} />
          <Text role="status">{progress || `${busy}…`}</Text>
        </div>
      )}
      {result && (
        // Keyed by the text: each result is a new bar, which the announcer reads out when it appears.
        <MessageBar key={result} intent={resultIntent} layout="multiline">
          <MessageBarBody>
            <Text>{result}</Text>
          </MessageBarBody>
        </MessageBar>
      )}
      <ErrorMessage error={error} context={{ baseUrl: connection.baseUrl, plan: connection.plan }} />
    </InView>
  );
}
