// Charts of statement blocks (Workspace.charts): which blocks there are with their charts, the lines a block
// can chart, inserting one and taking one out. Excel only: no call.

import { blockLines, chartsOf, insertBlockChart, removeBlockChart } from '../../engine/charts/blockCharts';
import type { BindingRecord, WorkbookGateway } from '../../engine/ports/workbook';
import { Refusal } from '../../engine/refusal';
import { describeSpec, specFromBinding } from '../../engine/statements/spec';
import type { Workspace } from './types';

export function workspaceCharts(gateway: WorkbookGateway): Workspace['charts'] {
  /** The block's binding as the workbook holds it now; refused when it is gone (forgotten meanwhile). */
  const statementBinding = async (bindingId: string): Promise<BindingRecord> => {
    const binding = (await gateway.listBindings()).find((b) => b.id === bindingId && specFromBinding(b));
    if (!binding) throw new Refusal('Block not found', 'This block is no longer recorded in the workbook (it was forgotten). Choose another block.', 'chart_block_gone');
    return binding;
  };
  return {
    blocks: async () =>
      (await gateway.listBindings()).flatMap((b) => {
        const spec = specFromBinding(b);
        return spec ? [{ bindingId: b.id, description: describeSpec(spec), address: b.address, charts: chartsOf(b) }] : [];
      }),
    lines: async (bindingId) => blockLines(gateway, await statementBinding(bindingId)),
    insert: async (bindingId, choice) => {
      const { chart, sheet, over } = await insertBlockChart(gateway, await statementBinding(bindingId), choice);
      return { chart, sheet, over };
    },
    remove: async (bindingId, name) => {
      await removeBlockChart(gateway, await statementBinding(bindingId), name);
    },
  };
}
