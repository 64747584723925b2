import { Button, Text, makeStyles, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import type { LogSummary } from '../../engine/pushLog/log';
import { ErrorMessage } from '../shared/ErrorMessage';
import type { ConnectedState } from '../session';
import { useScreenStyles } from '../shared/styles';
import { useLiveEffect } from '../shared/useLiveEffect';
import { pluralGrouped } from '../../runtime/screenKit';

// The push log's last entries (issue 28, item 3), and a button that shows its sheet: who pushed what, when,
// and how it ended, as the workbook's protected log sheet keeps it. Read from the workbook: no call.

const useLogStyles = makeStyles({
  entries: {
    margin: 0,
    paddingLeft: tokens.spacingHorizontalL,
  },
});

const OUTCOME_WORDS: [keyof LogSummary['counts'], string][] = [
  ['Applied', 'applied'],
  ['Refused', 'refused'],
  ['Failed job', 'in a failed job'],
  ['Not sent', 'not sent'],
  ['Interrupted', 'interrupted'],
];

/** "Entry 3, Shift, 2026-03-05 14:12:09 Europe/Paris (UTC+01:00), by Northwind books for Northwind: 1 change applied". */
export function entryLine(e: LogSummary): string {
  const outcomes = OUTCOME_WORDS.filter(([k]) => e.counts[k] > 0).map(([k, words]) => `${pluralGrouped(e.counts[k], 'change')} ${words}`);
  const resumes = e.resumes?.length ? ` (resumes ${e.resumes.map((n) => `entry ${n}`).join(', ')})` : '';
  const what = outcomes.length ? outcomes.join(', ') : `nothing sent${e.stopped ? ` (${e.stopped})` : ''}`;
  return `Entry ${e.entry}, ${e.action}${resumes}, ${e.when}, by ${e.connection} for ${e.company}: ${what}`;
}

export function PushLogPanel({ connection, version }: { connection: ConnectedState; version: string }) {
  const styles = useScreenStyles();
  const logStyles = useLogStyles();
  const { pushLog } = connection.workspace;
  const [recent, setRecent] = useState<{ sheet: string | null; entries: LogSummary[] } | null>(null);
  const [error, setError] = useState<unknown>(null);

  useLiveEffect(
    (ifLive) => {
      void pushLog.recent(5).then(ifLive(setRecent), ifLive(setError));
    },
    [pushLog, version],
  );

  const open = async () => {
    setError(null);
    try {
      await pushLog.open();
    } catch (e) {
      setError(e);
    }
  };

  return (
    <section aria-label="Push log" className={styles.screen}>
      <Text weight="semibold">Push log</Text>
      {recent && recent.entries.length === 0 ? (
        <Text className={styles.note}>Every push, shift and resumed push is logged on a protected sheet of this workbook, made by the first one.</Text>
      ) : (
        <ul className={logStyles.entries} aria-label="Last pushes">
          {recent?.entries.map((e) => (
            <li key={e.entry}>
              <Text>{entryLine(e)}</Text>
            </li>
          ))}
        </ul>
      )}
      {recent?.sheet && (
        <div className={styles.row}>
          <Button onClick={() => void open()}>Open the push log</Button>
        </div>
      )}
      <ErrorMessage error={error} />
    </section>
  );
}
