import { Button, Checkbox, Field, Input, Text, makeStyles, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import type { BlockChart, ChartableBlock } from '../../engine/charts/blockCharts';
import type { ChartKind } from '../../engine/ports/workbook';
import type { ChartableStatement } from '../../runtime/workspace';
import { ActionOutcome } from '../shared/ActionOutcome';
import { ChoiceField } from '../shared/ChoiceField';
import type { ScreenProps } from '../services';
import { useScreenStyles } from '../shared/styles';
import { useLiveEffect } from '../shared/useLiveEffect';

// A chart of a statement block (issue 28, item 2): chosen lines of a block across its periods, inserted as a
// real Excel chart beside the block. It reads the block's cells and is recorded with it, so a refresh or a
// roll forward keeps it on its lines. Reading the block and inserting spend no call.

const KINDS: readonly { key: ChartKind; label: string }[] = [
  { key: 'line', label: 'Lines' },
  { key: 'column', label: 'Columns' },
];

/** Chosen at first, when the block has them: what a board looks at first. */
const FIRST_CHOICE = ['label:Total revenue', 'label:Net income'];

const useChartStyles = makeStyles({
  lines: {
    display: 'flex',
    flexDirection: 'column',
    maxHeight: '220px',
    overflowY: 'auto',
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    margin: 0,
    padding: tokens.spacingVerticalXS,
  },
  legend: {
    padding: 0,
    fontWeight: tokens.fontWeightSemibold,
  },
  charts: {
    margin: 0,
    paddingLeft: tokens.spacingHorizontalL,
  },
});

function chartNote(chart: BlockChart): string {
  if (chart.problem) return ` — ${chart.problem}`;
  if (chart.absent?.length) return ` — not in the block now: ${chart.absent.join(', ')}`;
  return '';
}

export function ChartPanel({ connection, version }: Pick<ScreenProps, 'connection'> & { version: number }) {
  const styles = useScreenStyles();
  const chartStyles = useChartStyles();
  const { charts } = connection.workspace;
  const [blocks, setBlocks] = useState<ChartableStatement[]>([]);
  const [chosen, setChosen] = useState('');
  const [lines, setLines] = useState<ChartableBlock | null>(null);
  const [picked, setPicked] = useState<string[]>([]);
  const [kind, setKind] = useState<ChartKind>('line');
  const [title, setTitle] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [own, setOwn] = useState(0);

  useLiveEffect(
    (ifLive) => {
      void charts.blocks().then(
        ifLive((list: ChartableStatement[]) => {
          setBlocks(list);
          setChosen((current) => (list.some((b) => b.bindingId === current) ? current : (list.at(-1)?.bindingId ?? '')));
        }),
        ifLive(setError),
      );
    },
    [charts, version, own],
  );

  useLiveEffect(
    (ifLive) => {
      setLines(null);
      if (!chosen) return;
      void charts.lines(chosen).then(
        ifLive((block: ChartableBlock) => {
          setLines(block);
          setPicked(FIRST_CHOICE.filter((key) => block.lines.some((l) => l.key === key)));
        }),
        ifLive(setError),
      );
    },
    [charts, chosen, version],
  );

  const block = blocks.find((b) => b.bindingId === chosen);
  const toggle = (key: string, on: boolean) => setPicked((old) => (on ? [...old.filter((k) => k !== key), key] : old.filter((k) => k !== key)));
  // In the block's order, whatever order they were ticked in.
  const ordered = lines ? lines.lines.filter((l) => picked.includes(l.key)).map((l) => l.key) : [];

  const insert = async () => {
    if (!block || ordered.length === 0) return;
    setBusy(true);
    setError(null);
    setResult('');
    try {
      const done = await charts.insert(block.bindingId, { lines: ordered, kind, title });
      setResult(`Inserted the chart "${done.chart.title}" on ${done.sheet} (over ${done.over}), beside the block. It reads the block's cells and follows its lines through refreshes and roll forward. No call spent.`);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
      setOwn((n) => n + 1);
    }
  };

  const remove = async (name: string) => {
    if (!block) return;
    setBusy(true);
    setError(null);
    setResult('');
    try {
      await charts.remove(block.bindingId, name);
      setResult('The chart was deleted.');
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
      setOwn((n) => n + 1);
    }
  };

  return (
    <section aria-label="Chart a block" className={styles.screen}>
      <Text weight="semibold">Chart a block</Text>
      {blocks.length === 0 ? (
        <Text className={styles.note}>Insert a statement block first: its lines can then be charted across its periods.</Text>
      ) : (
        <>
          <ChoiceField label="Block" value={chosen} choices={blocks.map((b) => ({ key: b.bindingId, label: `${b.description} (${b.address})` }))} onChange={setChosen} disabled={busy} />
          {lines && (
            <fieldset className={chartStyles.lines}>
              <legend className={chartStyles.legend}>{`Lines to chart, across ${lines.periods.length === 1 ? lines.periods[0] : `${lines.periods[0]} to ${lines.periods[lines.periods.length - 1]}`}`}</legend>
              {lines.lines.map((l) => (
                <Checkbox key={l.key} label={l.label} checked={picked.includes(l.key)} disabled={busy} onChange={(_, d) => toggle(l.key, d.checked === true)} />
              ))}
            </fieldset>
          )}
          <ChoiceField label="Chart" value={kind} choices={KINDS} onChange={setKind} disabled={busy} />
          <Field label="Title" hint="Left empty: the lines' names.">
            <Input value={title} onChange={(_, d) => setTitle(d.value)} disabled={busy} />
          </Field>
          <div className={styles.row}>
            <Button onClick={() => void insert()} disabled={!lines} disabledFocusable={busy || ordered.length === 0}>
              Insert chart
            </Button>
          </div>
          {block && block.charts.length > 0 && (
            <ul className={chartStyles.charts} aria-label="Charts of this block">
              {block.charts.map((c) => (
                <li key={c.name}>
                  <Text>{`${c.title}${chartNote(c)}`}</Text>{' '}
                  <Button size="small" appearance="subtle" onClick={() => void remove(c.name)} disabledFocusable={busy} aria-label={`Delete the chart ${c.title}`}>
                    Delete
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
      <ActionOutcome progress={null} label="Inserting the chart" unit="charts" result={result} error={error} connection={connection} />
    </section>
  );
}
