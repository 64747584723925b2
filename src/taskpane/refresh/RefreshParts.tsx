// Parts of the Refresh tab: the refresh buttons with what they cost, the confirmation of a refresh asked (its cost, Refresh or Cancel), and what a
// refresh is doing or did (its progress, its message, its error).

import { Button, Field, ProgressBar, Text } from '@fluentui/react-components';
import type { Ref, RefObject } from 'react';
import type { ScopeKind } from '../../engine/refresh/scopeRefresh';
import type { RefreshKind } from '../../engine/refresh/workbookRefresh';
import type { Plan } from '../../api';
import { CHANGED_ONLY_BLIND_SPOT, plural } from '../../runtime/screenKit';
import { ErrorMessage } from '../shared/ErrorMessage';
import { InView } from '../shared/InView';
import { useScreenStyles } from '../shared/styles';
import { refreshProgressText, type RefreshProgress } from './refreshProgress';

export interface RefreshButtonsProps {
  /** The buttons the ribbon's asks and the focus reach. */
  refs: { changed: RefObject<HTMLButtonElement | null>; sheet: RefObject<HTMLButtonElement | null>; selection: RefObject<HTMLButtonElement | null> };
  /** What a full refresh spends at most, the first one's record of where transactions post included (null: not known yet). */
  fullCalls: number | null;
  disabled: boolean;
  onAsk: (kind: RefreshKind, opener: HTMLElement) => void;
  onAskScope: (kind: ScopeKind, opener: HTMLElement) => void;
}

/** Refresh changes, Full refresh, Refresh this sheet, Refresh selection, and what each fetches. */
export function RefreshButtons({ refs, fullCalls, disabled, onAsk, onAskScope }: RefreshButtonsProps) {
  const styles = useScreenStyles();
  return (
    <>
      <div className={styles.row}>
        <Button ref={refs.changed} appearance="primary" onClick={(e) => onAsk('changed', e.currentTarget)} disabledFocusable={disabled}>
          Refresh changes
        </Button>
        <Button onClick={(e) => onAsk('full', e.currentTarget)} disabledFocusable={disabled}>
          Full refresh
        </Button>
      </div>
      <div className={styles.row}>
        <Button ref={refs.sheet} onClick={(e) => onAskScope('sheet', e.currentTarget)} disabledFocusable={disabled}>
          Refresh this sheet
        </Button>
        <Button ref={refs.selection} onClick={(e) => onAskScope('selection', e.currentTarget)} disabledFocusable={disabled}>
          Refresh selection
        </Button>
      </div>
      <Text className={styles.note}>
        Refresh changes asks what changed since the last refresh (1 call, and 1 for each list of categories or
        departments it holds, whose changes no sync shows) and fetches only what that touches
        {fullCalls !== null ? `; a full refresh costs at most ${plural(fullCalls, 'call')}` : ''}. {CHANGED_ONLY_BLIND_SPOT} Refresh this sheet or the selection
        fetches again only the blocks, FIN cells and tables in it, at the exact cost shown first.
      </Text>
    </>
  );
}

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
