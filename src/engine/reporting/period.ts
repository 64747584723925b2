// The workbook's reporting period: a cell named FIN_PERIOD holding a month as text (2026-10), which every
// block inserted relative to it and every formula that reads it follow.
//
// Text, not a date serial formatted yyyy-mm: a FIN function is handed a cell's value, never its format, and
// reads a serial as the one day it is, so =FIN.PNL("Revenue", FIN_PERIOD) on a serial would be the P&L of
// the 1st. As text it is the month, and its offsets are period text too (FIN_PERIOD&"-1M", FIN_PERIOD&" YTD",
// FIN.PERIOD(FIN_PERIOD, -1)). FIN_PERIOD-1 is Excel's own arithmetic either way (the day before the 1st),
// which docs/fin-functions.md warns about. The cell is written as text ('@'), so typing 2026-11 over it stays
// text; a serial found there (the format changed by hand) is still read as its month.

import { formatYearMonth, serialToIso, parseIsoDate, type DateSystem, type YearMonth } from '../dates';
import { cellA1, parseQualified } from '../ports/address';
import type { WorkbookGateway } from '../ports/workbook';

export const REPORTING_PERIOD_NAME = 'FIN_PERIOD';

/**
 * Whether a formula names the reporting period (names are not case-sensitive in Excel). A cell that reads it
 * through another cell is not seen: Excel alone knows a formula's dependents.
 */
export function namesReportingPeriod(formula: string): boolean {
  return /(^|[^A-Za-z0-9_.])FIN_PERIOD(?![A-Za-z0-9_.(])/i.test(formula);
}

/** Where a new reporting period cell goes: its own sheet, a label beside it. */
export const REPORTING_PERIOD_SHEET = 'Reporting period';

export type ReportingPeriod =
  | { readonly state: 'none' }
  | { readonly state: 'set'; readonly month: YearMonth; readonly text: string; readonly address: string }
  /** The name is there but its cell holds no month (or the name refers to #REF!). */
  | { readonly state: 'invalid'; readonly address: string | null; readonly message: string };

/** `2026-10` -> the month; null for anything else (the reporting period is a month, nothing wider). */
export function parseReportingMonth(text: string): YearMonth | null {
  const m = /^\s*(\d{4})-(\d{2})\s*$/.exec(text);
  if (!m) return null;
  const month = Number(m[2]);
  return month >= 1 && month <= 12 ? { year: Number(m[1]), month } : null;
}

function monthOfValue(value: unknown, dateSystem: DateSystem): YearMonth | null {
  if (typeof value === 'string') return parseReportingMonth(value);
  if (typeof value === 'number') {
    const iso = serialToIso(value, dateSystem);
    const ymd = iso.ok ? parseIsoDate(iso.value) : null;
    return ymd && { year: ymd.year, month: ymd.month };
  }
  return null;
}

/** The reporting period as the workbook holds it now; reads two things of the host, calls nothing. */
export async function readReportingPeriod(gateway: WorkbookGateway): Promise<ReportingPeriod> {
  const where = await gateway.locateBlock(REPORTING_PERIOD_NAME);
  if (where.state === 'missing') return { state: 'none' };
  if (where.state === 'broken') return { state: 'invalid', address: null, message: `The name ${REPORTING_PERIOD_NAME} refers to a deleted cell: set the reporting period again` };
  const read = await gateway.readRange(where.address);
  const value = read.values[0]?.[0];
  const month = monthOfValue(value, typeof value === 'number' ? await gateway.getDateSystem() : 1900);
  if (!month) {
    return { state: 'invalid', address: where.address, message: `${REPORTING_PERIOD_NAME} (${where.address}) holds ${JSON.stringify(value ?? '')}, not a month such as 2026-10` };
  }
  return { state: 'set', month, text: formatYearMonth(month.year, month.month), address: where.address };
}

/**
 * Sets the reporting period: into the cell FIN_PERIOD names when there is one (the name is never moved, so
 * formulas that read it keep reading it), else on a new sheet, labelled, with the name made there.
 */
export async function setReportingPeriod(gateway: WorkbookGateway, month: YearMonth): Promise<string> {
  const text = formatYearMonth(month.year, month.month);
  const where = await gateway.locateBlock(REPORTING_PERIOD_NAME);
  if (where.state === 'found') {
    const { box } = parseQualified(where.address);
    const written = await gateway.writeGrid({ kind: 'anchor', sheet: where.sheet, cell: cellA1(box.row, box.col) }, { values: [[text]] });
    return written.address;
  }
  if (where.state === 'broken') await gateway.deleteName(REPORTING_PERIOD_NAME);
  const sheet = await gateway.writeGrid(
    { kind: 'newSheet', name: REPORTING_PERIOD_SHEET },
    {
      values: [['Reporting period', null], ['Blocks inserted relative to the reporting period, and formulas that read FIN_PERIOD, follow the month in B1.', null]],
      boldRows: [0],
      columnWidths: [110, 70],
    },
  );
  const written = await gateway.writeGrid({ kind: 'anchor', sheet: sheet.sheet, cell: 'B1' }, { values: [[text]] }, { name: REPORTING_PERIOD_NAME, nameVisible: true });
  return written.address;
}
