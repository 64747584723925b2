// Changing the board pack's roles after it is inserted (issue 37, item 2): the user maps the cost of revenue to
// another category, or to none, from the Reports tab. The KPI sheet's and the charts' table's formulas are
// written again for the new roles, the gross margin's chart added or deleted with its column, and the pack's
// record keeps the new roles, which Roll forward and refreshes read (they rewrite no formula: the formulas
// follow FIN_PERIOD). Reads and writes the workbook only: the formulas then read the statements the pack
// has cached, the same months, so changing a role spends no call.

import type { Json, WorkbookGateway } from '../ports/workbook';
import { Refusal } from '../refusal';
import { rewriteChartRoles } from './boardCharts';
import { BOARD_PACK_SETTING, boardPackIn, rewriteKpis, type BoardPack } from './boardPack';
import type { PackRoles } from './packRoles';

/** Rewrites the pack the workbook holds for `roles` and records them; refused when the workbook holds no pack. */
export async function changePackRoles(gateway: WorkbookGateway, roles: PackRoles): Promise<BoardPack> {
  const pack = await boardPackIn(gateway);
  if (!pack) throw new Refusal('This workbook has no board pack', 'Insert the board pack first (Reports tab, Board pack): its roles are chosen then.', 'no_board_pack');
  const recorded = await gateway.readSetting(BOARD_PACK_SETTING);
  const record = recorded && typeof recorded === 'object' && !Array.isArray(recorded) ? recorded : {};
  await rewriteKpis(gateway, pack.kpiSheet, roles);
  if (pack.chartSheet) await rewriteChartRoles(gateway, pack.chartSheet, pack.fiscalYearStartMonth ?? 1, roles);
  const kept: Json = { costOfRevenue: roles.costOfRevenue ? { ...roles.costOfRevenue } : null };
  await gateway.writeSetting(BOARD_PACK_SETTING, { ...record, roles: kept });
  return { ...pack, roles };
}
