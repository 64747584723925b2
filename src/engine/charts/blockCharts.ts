// Charts of a statement block (issue 28, item 2): chosen lines of the block across its periods, as a real
// Excel chart beside it whose series read the block's cells. Refreshing or rolling the block forward rewrites
// those cells, so the figures follow with nothing to redo; what can move is the rows, when a line comes or
// goes above a chosen one. So the chart is recorded with the block's binding (its lines by category, or by
// label for totals, which have none), and each rewrite points it at the rows its lines are on now
// (followBlockCharts, called by the block's refresh). Reading where a chart points needs ExcelApi 1.15; the
// record is what the add-in set, and it is set again on every rewrite. No API call anywhere here.

import { boxA1, parseQualified, qualify, type Box } from '../ports/address';
import { GatewayError, type BindingRecord, type ChartKind, type ChartSpec, type Json, type ReadValue, type WorkbookGateway, type WriteValue } from '../ports/workbook';
import { Refusal } from '../refusal';
import { placeBlock } from '../statements/placement';
import { describeSpec, specFromBinding, type StatementSpec } from '../statements/spec';
import { plural } from '../text/plural';

/** Where the charts of a block are kept in its binding's parameters. */
const RECORDS = 'charts';

/** A chart of a block, as its binding keeps it. */
export interface BlockChart {
  /** The Excel chart's name, on the block's sheet. */
  name: string;
  kind: ChartKind;
  title: string;
  /** The chosen lines, in the legend's order: by category (`category:<id>`) or, for totals, by label (`label:<text>`). */
  lines: { key: string; label: string }[];
  /** Chosen lines the block did not have at its last write: they come back as series when it has them again. */
  absent?: string[];
  /** Why the chart was not pointed at the block's rows at its last write (it then shows its older rows). */
  problem?: string;
}

/** A line of a block a chart can show: a row with a figure in every period column. */
export interface ChartLine {
  key: string;
  label: string;
  /** 0-based within the block. */
  row: number;
}

/** What of a block a chart reads: the row of period labels, the period columns, the lines. */
export interface ChartableBlock {
  headerRow: number;
  /** 0-based within the block, contiguous. */
  firstColumn: number;
  columns: number;
  periods: string[];
  lines: ChartLine[];
}

export function chartsOf(binding: BindingRecord): BlockChart[] {
  const raw = (binding.parameters as { [RECORDS]?: unknown })[RECORDS];
  return Array.isArray(raw) ? (raw as unknown as BlockChart[]) : [];
}

function withCharts(binding: BindingRecord, charts: BlockChart[]): BindingRecord {
  const { [RECORDS]: _old, ...rest } = binding.parameters;
  return { ...binding, parameters: charts.length > 0 ? { ...rest, [RECORDS]: charts as unknown as Json } : rest };
}

function text(v: ReadValue | WriteValue | undefined): string {
  return typeof v === 'string' ? v.trim() : '';
}

/**
 * The block's period columns (its binding's columnPeriods: block columns 1..n, a variance column null, the
 * Total column the whole of the others') and, from its cells, the row of their labels and the lines with a figure in
 * each. A line of a category is known by it; a total or subtotal by its label, the first of that label.
 */
export function chartableBlock(binding: BindingRecord, values: readonly (readonly (ReadValue | WriteValue)[])[]): ChartableBlock | null {
  const periods = (binding.parameters as { columnPeriods?: unknown }).columnPeriods;
  const categories = (binding.parameters as { rowCategoryIds?: unknown }).rowCategoryIds;
  if (!Array.isArray(periods)) return null;
  let columns = 0;
  while (columns < periods.length && periods[columns]) columns++;
  // The Total column has a period too, the whole of the others': it is no period of the chart's.
  const span2 = (i: number) => periods[i] as { start: string; end: string };
  if (columns > 1 && span2(columns - 1).start <= span2(0).start && span2(columns - 1).end >= span2(columns - 2).end) columns--;
  // Against budget, the Budget column (no period of the journal's) stands beside Actual: what the chart compares.
  if (columns === 1 && (binding.parameters as { layout?: unknown }).layout === 'budget') columns = 2;
  if (columns === 0) return null;
  const firstColumn = 1;
  const span = (row: readonly (ReadValue | WriteValue)[]) => row.slice(firstColumn, firstColumn + columns);
  const headerRow = values.findIndex((row) => span(row).length === columns && span(row).every((v) => text(v) !== ''));
  if (headerRow < 0) return null;
  const lines: ChartLine[] = [];
  const seen = new Set<string>();
  values.forEach((row, r) => {
    const label = text(row[0]);
    if (r <= headerRow || !label || !span(row).every((v) => typeof v === 'number')) return;
    const category = Array.isArray(categories) && typeof categories[r] === 'string' ? (categories[r] as string) : null;
    const key = category ? `category:${category}` : `label:${label}`;
    if (seen.has(key)) return;
    seen.add(key);
    lines.push({ key, label, row: r });
  });
  return { headerRow, firstColumn, columns, periods: span(values[headerRow]).map(text), lines };
}

/** The chart of `lines` on a block at `box` of `sheet`: a series per line present, against the period labels. */
function specOf(sheet: string, box: Box, block: ChartableBlock, chart: Pick<BlockChart, 'kind' | 'title' | 'lines'>): { spec: ChartSpec | null; absent: string[] } {
  const range = (row: number) => qualify(sheet, { row: box.row + row, col: box.col + block.firstColumn, rows: 1, cols: block.columns });
  const byKey = new Map(block.lines.map((l) => [l.key, l]));
  const absent = chart.lines.filter((l) => !byKey.has(l.key)).map((l) => l.label);
  const series = chart.lines.flatMap((l) => {
    const line = byKey.get(l.key);
    return line ? [{ name: line.label, values: range(line.row) }] : [];
  });
  if (series.length === 0) return { spec: null, absent };
  return { spec: { kind: chart.kind, title: chart.title, categories: range(block.headerRow), series }, absent };
}

/** "Revenue and Net income". */
function listed(labels: readonly string[]): string {
  return labels.length <= 1 ? (labels[0] ?? '') : `${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]}`;
}

/**
 * The columns the block can take: a year to date side by side gains a period each month it rolls forward, up
 * to its fiscal year's; the chart goes right of that, so a roll forward never writes under it.
 */
function widest(spec: StatementSpec, box: Box): number {
  if (spec.relation !== 'ytd' || (spec.layout !== 'months' && spec.layout !== 'quarters')) return box.cols;
  return Math.max(box.cols, 1 + (spec.layout === 'months' ? 12 : 4) + (spec.total ? 1 : 0));
}

/** Where the block is now and what it holds: refused as its refresh would be when it is damaged. */
async function openBlock(gateway: WorkbookGateway, binding: BindingRecord): Promise<{ sheet: string; box: Box; block: ChartableBlock; spec: StatementSpec }> {
  const spec = specFromBinding(binding);
  if (!spec) throw new Refusal('Not a statement block', 'Only a statement block (Reports tab) can be charted from here.', 'chart_not_statement');
  const placement = await placeBlock(gateway, binding, spec);
  if (placement.kind === 'damaged') throw placement.refusal;
  const { sheet, box } = parseQualified(placement.address);
  const block = chartableBlock(binding, (await gateway.readRange(placement.address)).values);
  if (!block || block.lines.length === 0) {
    throw new Refusal('Nothing to chart', `${describeSpec(spec)} has no line with a figure for every period. Refresh it, then try again.`, 'chart_no_lines');
  }
  return { sheet, box, block, spec };
}

/** The lines a chart of the block can show, read from its cells (no call). */
export async function blockLines(gateway: WorkbookGateway, binding: BindingRecord): Promise<ChartableBlock> {
  return (await openBlock(gateway, binding)).block;
}

export interface ChartChoice {
  /** Keys of the chosen lines (blockLines), in the order wanted. */
  lines: string[];
  kind: ChartKind;
  /** Default: the lines' labels ("Revenue and Net income"). */
  title?: string;
}

/** How many cells a new chart covers, beside the block: about 480 x 300 points at Excel's default sizes. */
const CHART_COLUMNS = 8;
const CHART_ROWS = 16;

let sequence = 0;

/**
 * Inserts the chart right of the block (below the block's earlier charts) and records it with the block's
 * binding. A chart whose record cannot be saved is taken out again: never a chart the refresh would not follow.
 */
export async function insertBlockChart(gateway: WorkbookGateway, binding: BindingRecord, choice: ChartChoice): Promise<{ binding: BindingRecord; chart: BlockChart; sheet: string; over: string }> {
  const { sheet, box, block, spec: blockSpec } = await openBlock(gateway, binding);
  const byKey = new Map(block.lines.map((l) => [l.key, l]));
  const chosen = choice.lines.map((key) => byKey.get(key)).filter((l): l is ChartLine => l !== undefined);
  if (chosen.length === 0) throw new Refusal('Choose a line', 'Choose at least one line of the block to chart.', 'chart_no_choice');
  const existing = chartsOf(binding);
  sequence += 1;
  const chart: BlockChart = {
    name: `FinChart_${binding.id.replace(/[^A-Za-z0-9_]/g, '_').slice(-24)}_${existing.length + 1}_${sequence}`,
    kind: choice.kind,
    title: choice.title?.trim() || listed(chosen.map((l) => l.label)),
    lines: chosen.map((l) => ({ key: l.key, label: l.label })),
  };
  const { spec } = specOf(sheet, box, block, chart);
  const over = boxA1({ row: box.row + existing.length * (CHART_ROWS + 1), col: box.col + widest(blockSpec, box) + 1, rows: CHART_ROWS, cols: CHART_COLUMNS });
  await gateway.addChart({ sheet, over }, spec!, chart.name);
  const next = withCharts(binding, [...existing, chart]);
  try {
    await gateway.saveBinding(next);
  } catch (error) {
    await gateway.deleteChart(sheet, chart.name).catch(() => undefined);
    throw error;
  }
  return { binding: next, chart, sheet, over };
}

/** Takes a chart out of the workbook and of the block's record. */
export async function removeBlockChart(gateway: WorkbookGateway, binding: BindingRecord, name: string): Promise<BindingRecord> {
  const sheet = binding.name ? await gateway.locateBlock(binding.name) : null;
  const where = sheet?.state === 'found' ? sheet.sheet : parseQualified(binding.address).sheet;
  await gateway.deleteChart(where, name).catch((e: unknown) => {
    if (!(e instanceof GatewayError && e.code === 'NotFound')) throw e;
  });
  const next = withCharts(binding, chartsOf(binding).filter((c) => c.name !== name));
  await gateway.saveBinding(next);
  return next;
}

/**
 * After the block was written at binding.address with `values`: each of its charts pointed at the rows its
 * lines are on now (the block's refresh calls this). A chart the user deleted or renamed leaves the record;
 * one none of whose lines the block has now is deleted, since its old rows would show other lines' figures
 * (a wrong figure that looks right), and the record says so; one Excel would not update keeps the reason.
 * The binding, as saved. Never throws for a chart: the block itself was written.
 */
export async function followBlockCharts(gateway: WorkbookGateway, binding: BindingRecord, values: readonly (readonly WriteValue[])[], when: string): Promise<BindingRecord> {
  const charts = chartsOf(binding);
  if (charts.length === 0) return binding;
  const block = chartableBlock(binding, values);
  const { sheet, box } = parseQualified(binding.address);
  const kept: BlockChart[] = [];
  for (const chart of charts) {
    const { absent: _a, problem: _p, ...plain } = chart;
    const { spec, absent } = block ? specOf(sheet, box, block, chart) : { spec: null, absent: chart.lines.map((l) => l.label) };
    try {
      if (!spec) {
        await gateway.deleteChart(sheet, chart.name);
        kept.push({ ...plain, absent, problem: `Deleted at the refresh of ${when}: the block no longer has ${absent.length > 1 ? 'any of its lines' : 'its line'} (${listed(absent)}), and its old rows show other figures. Insert it again when the block has them.` });
        continue;
      }
      if ((await gateway.updateChart(sheet, chart.name, spec)) === 'missing') continue;
      kept.push({ ...plain, ...(absent.length > 0 ? { absent } : {}) });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      kept.push({ ...plain, problem: `Not pointed at the block's rows at the refresh of ${when} (${reason}): refresh the block again.` });
    }
  }
  const next = withCharts(binding, kept);
  if (JSON.stringify(next.parameters[RECORDS] ?? null) !== JSON.stringify(binding.parameters[RECORDS] ?? null)) await gateway.saveBinding(next);
  return next;
}

/** "2 charts" / "1 chart, Revenue not in the block now": a block's charts, said in a few words for the pane. */
export function chartsSummary(charts: readonly BlockChart[]): string {
  const absent = charts.flatMap((c) => c.absent ?? []);
  return `${plural(charts.length, 'chart')}${absent.length > 0 ? `; not in the block now: ${listed([...new Set(absent)])}` : ''}`;
}
