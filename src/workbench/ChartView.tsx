// A chart of the workbench's workbook, drawn as Excel would draw the add-in's: lines with markers or
// clustered columns, a title, a value axis with round steps, the category labels, a legend below. SVG of our
// own rather than a charting library: two chart kinds need about a hundred lines, the workbench bundle takes
// no new package, and the figures are in the page (a table of the chart's data, for screen readers and the
// journeys), where a canvas library's pixels could not be checked.

import type { MemoryChartView } from '../excel/memoryGateway';

/** Excel's default palette (Office theme), in series order. */
const PALETTE = ['#4472C4', '#ED7D31', '#A5A5A5', '#FFC000', '#5B9BD5', '#70AD47'];

const TITLE_HEIGHT = 26;
const LEGEND_HEIGHT = 22;
const AXIS_LABELS_HEIGHT = 18;
const VALUE_AXIS_WIDTH = 56;
const PADDING = 10;

/** Round steps for the value axis: 1, 2 or 5 times a power of ten, about five of them. */
export function valueTicks(min: number, max: number): number[] {
  const low = Math.min(0, min);
  const high = Math.max(0, max);
  if (low === high) return [0, 1];
  const raw = (high - low) / 5;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  const ticks: number[] = [];
  for (let t = Math.floor(low / step) * step; t <= high + step * 1e-9; t += step) ticks.push(Math.round(t / step) * step);
  if (ticks[ticks.length - 1] < high) ticks.push(ticks[ticks.length - 1] + step);
  return ticks;
}

/** A value axis label as Excel links it to the source's format: "85%" under a percent format, else compact(). */
export function axisLabel(v: number, format: string): string {
  return /%/.test(format.replace(/"[^"]*"/g, '')) ? `${+(v * 100).toFixed(1)}%` : compact(v);
}

/** "1.2M", "35k", "-800": a value axis label. */
export function compact(v: number): string {
  const a = Math.abs(v);
  if (a >= 1e9) return `${+(v / 1e9).toFixed(1)}B`;
  if (a >= 1e6) return `${+(v / 1e6).toFixed(1)}M`;
  if (a >= 1e3) return `${+(v / 1e3).toFixed(1)}k`;
  return `${+v.toFixed(2)}`;
}

function numberOf(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

export function ChartView({ chart, width, height }: { chart: MemoryChartView; width: number; height: number }) {
  const labels = (chart.series[0]?.labels ?? []).map((l) => String(l));
  const count = Math.max(labels.length, ...chart.series.map((s) => s.shown.length));
  const values = chart.series.map((s) => s.shown.map(numberOf));
  const all = values.flat().filter((v): v is number => v !== null);
  const ticks = valueTicks(Math.min(0, ...all), Math.max(0, ...all));
  const [low, high] = [ticks[0], ticks[ticks.length - 1]];
  const plot = {
    left: VALUE_AXIS_WIDTH,
    top: TITLE_HEIGHT,
    width: Math.max(10, width - VALUE_AXIS_WIDTH - PADDING),
    height: Math.max(10, height - TITLE_HEIGHT - AXIS_LABELS_HEIGHT - LEGEND_HEIGHT - PADDING),
  };
  const y = (v: number) => plot.top + plot.height - ((v - low) / (high - low)) * plot.height;
  const slot = plot.width / Math.max(1, count);
  const x = (i: number) => plot.left + slot * (i + 0.5);
  const color = (i: number) => PALETTE[i % PALETTE.length];
  const barWidth = (slot * 0.7) / Math.max(1, chart.series.length);
  const everyLabel = Math.max(1, Math.ceil((count * 44) / plot.width));

  return (
    <figure className="wb-chart" aria-label={`Chart: ${chart.title || chart.name}`} style={{ width, height }}>
      <svg width={width} height={height} aria-hidden="true">
        <rect x={0} y={0} width={width} height={height} fill="white" stroke="#bfbfbf" />
        <text x={width / 2} y={18} textAnchor="middle" className="wb-chart-title">
          {chart.title}
        </text>
        {ticks.map((t) => (
          <g key={t}>
            <line x1={plot.left} x2={plot.left + plot.width} y1={y(t)} y2={y(t)} stroke={t === 0 ? '#8c8c8c' : '#e5e5e5'} />
            <text x={plot.left - 6} y={y(t) + 4} textAnchor="end" className="wb-chart-axis">
              {axisLabel(t, chart.valueFormat)}
            </text>
          </g>
        ))}
        {labels.map((l, i) =>
          i % everyLabel === 0 ? (
            <text key={i} x={x(i)} y={plot.top + plot.height + 14} textAnchor="middle" className="wb-chart-axis">
              {l}
            </text>
          ) : null,
        )}
        {values.map((series, s) =>
          chart.kind === 'column' ? (
            <g key={s} fill={color(s)}>
              {series.map((v, i) =>
                v === null ? null : (
                  <rect key={i} x={x(i) - (barWidth * chart.series.length) / 2 + barWidth * s} y={Math.min(y(v), y(0))} width={Math.max(1, barWidth - 1)} height={Math.abs(y(v) - y(0))} />
                ),
              )}
            </g>
          ) : (
            <g key={s} stroke={color(s)} fill={color(s)}>
              <polyline
                fill="none"
                strokeWidth={2}
                points={series
                  .map((v, i) => (v === null ? null : `${x(i)},${y(v)}`))
                  .filter(Boolean)
                  .join(' ')}
              />
              {series.map((v, i) => (v === null ? null : <circle key={i} cx={x(i)} cy={y(v)} r={3} />))}
            </g>
          ),
        )}
        {chart.series.map((s, i) => {
          const step = width / Math.max(1, chart.series.length);
          return (
            <g key={i} transform={`translate(${step * i + 12}, ${height - 10})`}>
              <rect x={0} y={-8} width={10} height={10} fill={color(i)} />
              <text x={14} y={1} className="wb-chart-axis">
                {s.name}
              </text>
            </g>
          );
        })}
      </svg>
      <table className="wb-chart-data" aria-label={`Data of the chart ${chart.title || chart.name}`}>
        <thead>
          <tr>
            <th scope="col">Series</th>
            {labels.map((l, i) => (
              <th key={i} scope="col">
                {l}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {chart.series.map((s, i) => (
            <tr key={i}>
              <th scope="row">{s.name}</th>
              {s.shown.map((v, j) => (
                <td key={j}>{String(v)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
