import { Field, ProgressBar } from '@fluentui/react-components';
import type { ConnectedState } from '../session';
import { ErrorMessage } from './ErrorMessage';

/**
 * Under a pane action: its progress while it runs ("3 of 5 sheets"), then what it did (a live status line)
 * or what went wrong, said for the connection it ran on.
 */
export function ActionOutcome({
  progress,
  label,
  unit,
  result,
  error,
  connection,
}: {
  progress: { done: number; total: number } | null;
  /** What the progress bar is for ("Inserting the board pack"). */
  label: string;
  /** What is counted, after "3 of 5" ("sheets", "fetched"). */
  unit: string;
  result: string;
  error: unknown;
  connection: Pick<ConnectedState, 'baseUrl' | 'plan'>;
}) {
  return (
    <>
      {progress && (
        <Field label={label} validationMessage={`${progress.done} of ${progress.total} ${unit}`} validationState="none">
          <ProgressBar value={progress.done} max={Math.max(1, progress.total)} />
        </Field>
      )}
      <div role="status" aria-live="polite">
        {result}
      </div>
      <ErrorMessage error={error} context={{ baseUrl: connection.baseUrl, plan: connection.plan }} />
    </>
  );
}
