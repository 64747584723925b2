import { MessageBar, MessageBarBody, MessageBarTitle } from '@fluentui/react-components';
import { useId } from 'react';
import { describeError, type DescribeContext, type UserMessage } from './errors';
import { useScreenStyles } from './styles';

// Every failure the pane shows goes through here: a title and what to do (errors.ts), in an error
// MessageBar that stays on screen. Fluent's MessageBar announces itself through the announcer App puts at
// the top of the pane (AriaLiveAnnouncer), so no live region is made here. Its group is named
// "Error: <title>": the word the red icon says to the eye, for whoever navigates to it.

export interface ErrorMessageProps {
  error: unknown;
  context?: DescribeContext;
}

export function ErrorMessage({ error, context }: ErrorMessageProps) {
  if (error === null || error === undefined) return null;
  const message = describeError(error, context);
  // A new message is a new bar: MessageBar announces when it mounts, not when its text changes.
  return <ErrorBar key={`${message.title}\n${message.body}`} message={message} />;
}

function ErrorBar({ message }: { message: UserMessage }) {
  const styles = useScreenStyles();
  const id = useId();
  return (
    <MessageBar intent="error" layout="multiline" aria-labelledby={`${id}-kind ${id}-title`}>
      <MessageBarBody>
        <span id={`${id}-kind`} className={styles.visuallyHidden}>
          Error:
        </span>{' '}
        <MessageBarTitle id={`${id}-title`}>{message.title}</MessageBarTitle> {message.body}
      </MessageBarBody>
    </MessageBar>
  );
}
