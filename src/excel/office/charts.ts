/**
 * Excel charts: added over cells of a sheet, their series pointed at ranges anywhere in the workbook, and
 * pointed again when what they show moves. Requirement sets, from Microsoft's packaged host files
 * (node_modules/@microsoft/office-js/dist/excel-win32-16.01.js) and the typings:
 *  - Worksheet.charts, ChartCollection.add, Chart.name, Chart.title, Chart.legend, Chart.setPosition and
 *    Chart.delete: ExcelApi 1.1; ChartCollection.getItemOrNullObject and ChartSeriesCollection.getCount: 1.4;
 *  - ChartSeriesCollection.add, ChartSeries.setValues, setXAxisValues and delete: ExcelApi 1.7.
 * All within the ExcelApi 1.10 that manifest.xml requires. Reading where a series points
 * (ChartSeries.getDimensionDataSourceString) needs ExcelApi 1.15: the add-in never reads it back, it records
 * what it set (engine/charts).
 */
import { boxA1, parseBox, parseQualified } from '../../engine/ports/address';
import type { ChartKind, ChartPlacement, ChartSpec, ChartUpdate } from '../../engine/ports/workbook';
import { chartText, checkChartSpec } from '../hostRules';
import { tryUndo, type Session } from './session';

const CHART_TYPES: Record<ChartKind, string> = { line: 'LineMarkers', column: 'ColumnClustered' };

function rangeAt(session: Session, address: string): Excel.Range {
  const { sheet, box } = parseQualified(address);
  return session.sheet(sheet).getRangeByIndexes(box.row, box.col, box.rows, box.cols);
}

/** One row of figures is a series by rows; one column, by columns. */
function seriesBy(address: string): Excel.ChartSeriesBy {
  return parseQualified(address).box.rows === 1 ? Excel.ChartSeriesBy.rows : Excel.ChartSeriesBy.columns;
}

function pointSeries(session: Session, series: Excel.ChartSeries, name: string, values: string, categories: string): void {
  series.name = chartText(name);
  series.setValues(rangeAt(session, values));
  series.setXAxisValues(rangeAt(session, categories));
}

/**
 * One sync: the chart made from the first series' cells, named, titled, placed, its series pointed. A chart
 * Excel refused half way (a range it would not take) is deleted: never half a chart.
 */
export async function addChart(session: Session, placement: ChartPlacement, spec: ChartSpec, name: string): Promise<void> {
  checkChartSpec(spec, (a) => parseQualified(a).box);
  const over = parseBox(placement.over);
  const sheet = session.sheet(placement.sheet);
  const [first, ...rest] = spec.series;
  const chart = sheet.charts.add(CHART_TYPES[spec.kind] as Excel.ChartType, rangeAt(session, first.values), seriesBy(first.values));
  chart.name = name;
  chart.title.text = chartText(spec.title);
  chart.legend.position = Excel.ChartLegendPosition.bottom;
  chart.legend.visible = true;
  chart.setPosition(boxA1({ ...over, rows: 1, cols: 1 }), boxA1({ row: over.row + over.rows - 1, col: over.col + over.cols - 1, rows: 1, cols: 1 }));
  pointSeries(session, chart.series.getItemAt(0), first.name, first.values, spec.categories);
  for (const s of rest) pointSeries(session, chart.series.add(chartText(s.name)), s.name, s.values, spec.categories);
  session.stats.rows = spec.series.length;
  try {
    await session.sync();
  } catch (error) {
    await tryUndo(() => deleteChart(session, placement.sheet, name));
    throw error;
  }
  session.stats.chunks = 1;
}

/**
 * Three syncs: whether the chart is there, how many series it has, then its title and series: the first
 * ones pointed at the new cells, the ones it has too many deleted (from the last), the ones it lacks added.
 * Excel keeps a series' formatting when it is pointed elsewhere, so the user's styling stays.
 */
export async function updateChart(session: Session, sheetName: string, name: string, spec: ChartSpec): Promise<ChartUpdate> {
  checkChartSpec(spec, (a) => parseQualified(a).box);
  const chart = session.sheet(sheetName).charts.getItemOrNullObject(name).load('name');
  await session.sync();
  if (chart.isNullObject) return 'missing';
  const counted = chart.series.getCount();
  await session.sync();
  // eslint-disable-next-line office-addins/call-sync-before-read, office-addins/load-object-before-read -- a method's ClientResult, read after session.sync() (the rule knows neither)
  const count = counted.value;
  chart.title.text = chartText(spec.title);
  spec.series.forEach((s, i) => {
    if (i < count) pointSeries(session, chart.series.getItemAt(i), s.name, s.values, spec.categories);
  });
  for (let i = count - 1; i >= spec.series.length; i--) chart.series.getItemAt(i).delete();
  for (const s of spec.series.slice(count)) pointSeries(session, chart.series.add(chartText(s.name)), s.name, s.values, spec.categories);
  session.stats.rows = spec.series.length;
  await session.sync();
  session.stats.chunks = 1;
  return 'updated';
}

export async function deleteChart(session: Session, sheetName: string, name: string): Promise<void> {
  const chart = session.sheet(sheetName).charts.getItemOrNullObject(name).load('name');
  await session.sync();
  if (chart.isNullObject) return;
  chart.delete();
  await session.sync();
}
