// Parts of the Refresh tab: the confirmation of a refresh asked (its cost, Refresh or Cancel), and what a
// refresh is doing or did (its progress, its message, its error).

import { Button, Field, ProgressBar, Text } from '@fluentui/react-components';
import type { Ref } from 'react';
import type { Plan } from '../../api';
import { ErrorMessage } from '../shared/ErrorMessage';
import { InView } from '../shared/InView';
import { useScreenStyles } from '../shared/styles';
import { refreshProgressText, type RefreshProgress } from './refreshProgress';

export function ConfirmRefresh({ text, confirmRef, onConfirm, onCancel }: { text: string; confirmRef: Ref<HTMLButtonElement>; onConfirm: () => void; onCancel: () => void }) {
  const styles = useScreenStyles();
  return (
    <div role="group" aria-label="Confirm refresh" className={styles.screen}>
      <Text>{text}</Text>
      <div className={styles.row}>
        <Button ref={confirmRef} appearance="primary" onClick={onConfirm}>
          Refresh
        </Button>
        <Button onClick={onCancel}>Cancel</Button>
      </div>
    </div>
  );
}

export interface RefreshOutcomeProps {
  progress: RefreshProgress | null;
  result: string;
  error: unknown;
  context: { baseUrl: string; plan: Plan };
}

export function RefreshOutcome({ progress, result, error, context }: RefreshOutcomeProps) {
  return (
    <InView watch={progress ? refreshProgressText(progress) : result || (error ? 'error' : '')}>
      {progress && (
        <Field label="Refreshing" validationMessage={refreshProgressText(progress)} validationState="none">
          {progress.phase === 'blocks' && progress.total > 0 ? <ProgressBar value={progress.done} max={progress.total} /> : <ProgressBar />}
        </Field>
      )}
      <div role="status" aria-live="polite">
        {result}
      </div>
      <ErrorMessage error={error} context={context} />
    </InView>
  );
}
