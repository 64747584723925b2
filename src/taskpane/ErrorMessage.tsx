import { MessageBar, MessageBarBody, MessageBarTitle } from '@fluentui/react-components';
import { describeError, type DescribeContext } from './errors';

// Every failure the pane shows goes through here: a title and what to do (errors.ts), announced at once.

export interface ErrorMessageProps {
  error: unknown;
  context?: DescribeContext;
}

export function ErrorMessage({ error, context }: ErrorMessageProps) {
  if (error === null || error === undefined) return null;
  const message = describeError(error, context);
  return (
    <div role="alert">
      <MessageBar intent="error" layout="multiline">
        <MessageBarBody>
          <MessageBarTitle>{message.title}</MessageBarTitle> {message.body}
        </MessageBarBody>
      </MessageBar>
    </div>
  );
}
