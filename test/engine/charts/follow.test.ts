// What a block's rewrite does to its charts when they cannot simply follow their lines: a chart the user
// deleted leaves the record; one whose lines the block no longer has is deleted rather than left showing
// other lines' figures, and the record says so; one Excel refuses to update keeps the reason, and the
// block's refresh goes on.
import { chartsOf, followBlockCharts, type BlockChart } from '../../../src/engine/charts/blockCharts';
import type { BindingRecord, WriteValue } from '../../../src/engine/ports/workbook';
import { MemoryGateway } from '../../../src/excel/memoryGateway';

const VALUES: WriteValue[][] = [
  ['Northwind', null, null],
  [null, 'Jan 2026', 'Feb 2026'],
  ['Revenue', null, null],
  ['Product', 10, 20],
  ['Total revenue', 10, 20],
  ['Net income', 4, 5],
];

function binding(charts: BlockChart[]): BindingRecord {
  return {
    id: 'statement-1',
    kind: 'statement',
    company: 'comp_1',
    refreshedAt: '2026-03-01T00:00:00Z',
    address: 'Sheet1!A1:C6',
    parameters: {
      rowCategoryIds: [null, null, null, 'cat_product', null, null],
      columnPeriods: [
        { start: '2026-01-01', end: '2026-01-31' },
        { start: '2026-02-01', end: '2026-02-28' },
      ],
      charts: charts as never,
    },
  };
}

const chart = (name: string, keys: [string, string][]): BlockChart => ({ name, kind: 'line', title: name, lines: keys.map(([key, label]) => ({ key, label })) });

async function workbook(...names: string[]): Promise<MemoryGateway> {
  const gw = new MemoryGateway();
  await gw.writeGrid({ kind: 'anchor', sheet: 'Sheet1', cell: 'A1' }, { values: VALUES });
  for (const name of names) await gw.addChart({ sheet: 'Sheet1', over: 'E1:L16' }, { kind: 'line', title: name, categories: 'Sheet1!B2:C2', series: [{ name: 'x', values: 'Sheet1!B6:C6' }] }, name);
  return gw;
}

test('each chart is pointed at the rows of its lines; a line the block lacks is said, and comes back when it is there', async () => {
  const gw = await workbook('FinChart_a');
  const record = chart('FinChart_a', [['category:cat_product', 'Product'], ['category:cat_gone', 'Services'], ['label:Net income', 'Net income']]);
  const next = await followBlockCharts(gw, binding([record]), VALUES, 'now');
  expect(gw.chartsOn('Sheet1')[0].series.map((x) => [x.name, x.values, x.shown])).toEqual([
    ['Product', 'Sheet1!B4:C4', [10, 20]],
    ['Net income', 'Sheet1!B6:C6', [4, 5]],
  ]);
  expect(chartsOf(next)).toEqual([{ ...record, absent: ['Services'] }]);
  expect(chartsOf((await gw.listBindings())[0])).toEqual([{ ...record, absent: ['Services'] }]);
});

test("a chart the user deleted leaves the record; one whose lines are all gone is deleted and the record says why", async () => {
  const gw = await workbook('FinChart_kept', 'FinChart_orphan');
  const kept = chart('FinChart_kept', [['label:Net income', 'Net income']]);
  const orphan = chart('FinChart_orphan', [['category:cat_gone', 'Services']]);
  const deleted = chart('FinChart_deleted', [['label:Net income', 'Net income']]);
  const next = await followBlockCharts(gw, binding([kept, orphan, deleted]), VALUES, '2026-03-02 09:00 GMT');
  expect(gw.chartsOn('Sheet1').map((c) => c.name)).toEqual(['FinChart_kept']);
  expect(chartsOf(next)).toEqual([
    kept,
    {
      ...orphan,
      absent: ['Services'],
      problem: 'Deleted at the refresh of 2026-03-02 09:00 GMT: the block no longer has its line (Services), and its old rows show other figures. Insert it again when the block has them.',
    },
  ]);
});

test('Excel refusing the update keeps the reason with the chart; nothing is thrown, the block was written', async () => {
  const gw = await workbook('FinChart_a');
  await gw.protectSheet('Sheet1');
  const record = chart('FinChart_a', [['label:Net income', 'Net income']]);
  const next = await followBlockCharts(gw, binding([record]), VALUES, 'now');
  expect(chartsOf(next)).toEqual([{ ...record, problem: expect.stringMatching(/^Not pointed at the block's rows at the refresh of now \(The sheet Sheet1 is protected/) }]);
});

test('a block without charts costs nothing: no write at all', async () => {
  const gw = await workbook();
  const b = binding([]);
  expect(await followBlockCharts(gw, b, VALUES, 'now')).toBe(b);
  expect(await gw.listBindings()).toEqual([]);
});
