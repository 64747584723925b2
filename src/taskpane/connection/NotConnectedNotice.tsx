import { Button, MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle } from '@fluentui/react-components';
import { useRef } from 'react';
import type { NotConnectedState } from '../../engine/fin';
import { useNotConnectedFormulas } from '../shared/hooks';
import type { PaneServices } from '../services';
import { plural, pluralNoun } from '../../runtime/screenKit';

// Right after connecting, above the tabs: the FIN formulas that showed "Not connected" before. A few calls'
// worth were recalculated at once and this says what that spent; more waits here for the user's go-ahead,
// with what it may cost. Each state is its own MessageBar, so each is announced when it appears.

export interface NotConnectedNoticeProps {
  services: PaneServices;
  /** The notice is gone (Not now, Dismiss): focus goes somewhere that stays. */
  onDismissed: () => void;
}

export function NotConnectedNotice({ services, onDismissed }: NotConnectedNoticeProps) {
  const state = useNotConnectedFormulas(services);
  const { runtime } = services;
  // The button pressed disappears with the question: focus stays on the notice, which shows the progress.
  const notice = useRef<HTMLElement>(null);
  if (state.status === 'none') return null;
  const dismiss = () => {
    runtime.dismissNotConnected();
    onDismissed();
  };
  const recalculate = () => {
    notice.current?.focus();
    void runtime.recalculateNotConnected();
  };
  return (
    <section ref={notice} tabIndex={-1} aria-label="Formulas that showed Not connected">
      <Notice state={state} onRecalculate={recalculate} onDismiss={dismiss} />
    </section>
  );
}

function Notice({ state, onRecalculate, onDismiss }: { state: NotConnectedState; onRecalculate: () => void; onDismiss: () => void }) {
  switch (state.status) {
    case 'none':
      return null;
    case 'asking':
      return (
        <MessageBar key="asking" intent="warning" layout="multiline">
          <MessageBarBody>
            <MessageBarTitle>{plural(state.formulas, 'formula')} showed Not connected.</MessageBarTitle> Excel does not calculate{' '}
            {pluralNoun(state.formulas, 'it', 'them')} again on its own; left as {pluralNoun(state.formulas, 'it is', 'they are')},{' '}
            {pluralNoun(state.formulas, 'it waits', 'they wait')} for Refresh all.
          </MessageBarBody>
          <MessageBarActions>
            <Button size="small" appearance="primary" onClick={onRecalculate}>
              Recalculate {pluralNoun(state.formulas, 'it', 'them')} (up to {plural(state.calls, 'call')})
            </Button>
            <Button size="small" onClick={onDismiss}>
              Not now
            </Button>
          </MessageBarActions>
        </MessageBar>
      );
    case 'recalculating':
      return (
        <MessageBar key="recalculating" intent="info" layout="multiline">
          <MessageBarBody>
            Recalculating the {plural(state.formulas, 'formula')} that showed Not connected (up to {plural(state.calls, 'call')})…
          </MessageBarBody>
        </MessageBar>
      );
    case 'done':
      return (
        <MessageBar key={`done-${state.message}`} intent={state.failed ? 'warning' : 'success'} layout="multiline">
          <MessageBarBody>{state.message}</MessageBarBody>
          <MessageBarActions>
            <Button size="small" onClick={onDismiss}>
              Dismiss
            </Button>
          </MessageBarActions>
        </MessageBar>
      );
  }
}
