import { Button, Checkbox, Field, MessageBar, MessageBarBody, MessageBarTitle, ProgressBar, Text, makeStyles, tokens } from '@fluentui/react-components';
import { useCallback, useEffect, useState } from 'react';
import type { ShareFacts, ShareResult, SheetSurvey } from '../../engine/share';
import { ErrorMessage } from '../shared/ErrorMessage';
import type { ScreenProps } from '../services';
import { useScreenStyles } from '../shared/styles';
import { holdsFinContent, plural, shareWarnings, suggestedSheets } from '../../runtime/screenKit';

// Share: values copies of the chosen sheets for people without the add-in (engine/share). Reading the
// workbook and the refresh plan spends no call, and neither does the copy: the figures are the ones on the
// sheets. What may not be current is said before the button; the user's own sheets are never changed.

const useShareStyles = makeStyles({
  sheets: {
    display: 'flex',
    flexDirection: 'column',
    border: 'none',
    margin: 0,
    padding: 0,
  },
  legend: {
    padding: 0,
    fontWeight: tokens.fontWeightSemibold,
  },
  warnings: {
    margin: 0,
    paddingLeft: tokens.spacingHorizontalL,
  },
});

/** No FIN evaluation for this long: the functions are not at work. */
const FIN_QUIET_MS = 50;

interface Survey {
  sheets: SheetSurvey[];
  facts: ShareFacts;
}

function sheetSummary(s: SheetSurvey): string {
  const parts: string[] = [];
  if (s.finCells > 0) parts.push(plural(s.finCells, 'FIN formula'));
  const blocks = s.blocks.filter((b) => b.binding.kind !== 'transactions').length;
  const tables = s.blocks.length - blocks;
  if (blocks > 0) parts.push(plural(blocks, 'statement block'));
  if (tables > 0) parts.push(plural(tables, 'transactions table'));
  const others = s.formulaCells - s.finCells;
  if (others > 0) parts.push(plural(others, 'other formula'));
  return parts.length > 0 ? parts.join(', ') : s.hasContent ? 'values only' : 'empty';
}

export function SharePanel({ services, connection }: ScreenProps) {
  const styles = useScreenStyles();
  const shareStyles = useShareStyles();
  const { share } = connection.workspace;
  const [survey, setSurvey] = useState<Survey | null>(null);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState<'reading' | 'copying' | null>('reading');
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [result, setResult] = useState<ShareResult | null>(null);
  const [error, setError] = useState<unknown>(null);

  const look = useCallback(async () => {
    setBusy('reading');
    setError(null);
    try {
      const { sheets, facts } = await share.survey(FIN_QUIET_MS);
      setSurvey({ sheets, facts });
      setChosen(new Set(suggestedSheets(sheets)));
    } catch (e) {
      setError(e);
    } finally {
      setBusy(null);
    }
  }, [share]);

  useEffect(() => {
    void look();
  }, [look]);

  // The push log is offered apart, unticked: a values copy is for people outside, and the log says who
  // changed the books (issue 28, item 4).
  const [withLog, setWithLog] = useState(false);
  const log = survey?.sheets.find((s) => s.pushLog);
  const picked = survey?.sheets.filter((s) => !s.pushLog && chosen.has(s.sheet)) ?? [];
  const copies = picked.length + (withLog && log ? 1 : 0);
  const warnings = survey ? shareWarnings(picked, survey.facts) : [];

  const toggle = (sheet: string, on: boolean) => {
    setResult(null);
    setChosen((old) => {
      const next = new Set(old);
      if (on) next.add(sheet);
      else next.delete(sheet);
      return next;
    });
  };

  const makeCopies = async () => {
    if (!survey || copies === 0) return;
    setBusy('copying');
    setError(null);
    setResult(null);
    try {
      const names = [...picked.map((s) => s.sheet), ...(withLog && log ? [log.sheet] : [])];
      const done = await share.copy(names, survey.facts, (d, total) => setProgress({ done: d, total }), { includePushLog: withLog });
      setResult(done);
      await services.actions.record(connection.companyId, { action: `Share as values (${plural(done.copies.length, 'sheet')})`, calls: 0, at: services.now() });
    } catch (e) {
      setError(e);
    } finally {
      setBusy(null);
      setProgress(null);
    }
  };

  return (
    <div className={styles.screen}>
      <Text>
        Makes a copy of each chosen sheet right after it, &quot;&lt;sheet&gt; (values)&quot;: every FIN formula, statement block and transactions table becomes
        plain values with its number formats, and nothing in the copy needs the add-in. Your sheets stay as they are. It spends no call: the copies hold the
        figures the sheets show now.
      </Text>
      {survey && survey.sheets.length > 0 && (
        <fieldset className={shareStyles.sheets}>
          <legend className={shareStyles.legend}>Sheets to copy</legend>
          {survey.sheets.filter((s) => !s.pushLog).map((s) => (
            <Checkbox
              key={s.sheet}
              label={`${s.sheet} (${sheetSummary(s)})`}
              checked={chosen.has(s.sheet)}
              disabled={busy !== null || !s.hasContent}
              onChange={(_, d) => toggle(s.sheet, d.checked === true)}
            />
          ))}
        </fieldset>
      )}
      {log && (
        <Checkbox
          label={`Also copy the push log (sheet ${log.sheet}: who pushed what to the books, and when). Left out unless ticked.`}
          checked={withLog}
          disabled={busy !== null}
          onChange={(_, d) => {
            setResult(null);
            setWithLog(d.checked === true);
          }}
        />
      )}
      {survey && !survey.sheets.some(holdsFinContent) && <Text>No sheet holds FIN formulas or blocks yet.</Text>}
      {warnings.length > 0 && (
        <MessageBar intent="warning" layout="multiline">
          <MessageBarBody>
            <MessageBarTitle>Check before sharing</MessageBarTitle>
            <ul className={shareStyles.warnings}>
              {warnings.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          </MessageBarBody>
        </MessageBar>
      )}
      <div className={styles.row}>
        <Button appearance="primary" disabled={busy !== null || copies === 0} onClick={() => void makeCopies()}>
          {copies > 1 ? `Make ${copies} values copies` : 'Make a values copy'}
        </Button>
        <Button disabled={busy !== null} onClick={() => void look()}>
          Look again
        </Button>
      </div>
      {busy === 'reading' && <ProgressBar aria-label="Reading the sheets" />}
      {busy === 'copying' && (
        <Field label={progress ? `Copying sheet ${Math.min(progress.done + 1, progress.total)} of ${progress.total}` : 'Copying'}>
          <ProgressBar value={progress?.done ?? 0} max={progress?.total || 1} />
        </Field>
      )}
      {result && (
        <MessageBar intent="success" layout="multiline">
          <MessageBarBody>
            <MessageBarTitle>Values copies made</MessageBarTitle> {result.message}
          </MessageBarBody>
        </MessageBar>
      )}
      <ErrorMessage error={error} />
    </div>
  );
}
