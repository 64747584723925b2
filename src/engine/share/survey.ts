// What each sheet holds that a values copy changes or should warn about, read from the workbook as it is
// (no call): formulas (FIN ones counted apart), cells still computing (#BUSY!) or showing an error, the
// add-in's blocks on it with their state from the refresh plan (stale, failed, damaged, old), and whose
// figures it shows: the companies of its blocks and of its FIN cells (each cell's last evaluation says which
// company or group it read; a cell not evaluated since the add-in started cannot say).

import { CONSOLIDATED_BINDING_KIND } from '../consolidation/insert';
import type { FinCell } from '../fin';
import { cellA1, parseQualified, qualify } from '../ports/address';
import type { BindingRecord, SheetContent, WorkbookGateway } from '../ports/workbook';
import { recentEntries } from '../pushLog/log';
import { failureOf, formatAge, isOld, type RefreshPlan } from '../statements';
import { callsFin, finCallCount, isBusy, isErrorValue } from './cells';

export interface BlockOnSheet {
  binding: BindingRecord;
  /** Why its figures may not be current, or null. */
  stale: string | null;
}

export interface SheetSurvey {
  sheet: string;
  /** Anything typed or calculated on it. */
  hasContent: boolean;
  /** Cells whose formula calls a FIN function. */
  finCells: number;
  /** Cells holding any formula: each becomes its value in the copy. */
  formulaCells: number;
  /** Formula cells showing #BUSY! (sheet-qualified addresses). */
  busy: string[];
  /** Formula cells showing an error (sheet-qualified addresses). */
  errors: string[];
  /** The add-in's blocks (statements, transactions tables) on it. */
  blocks: BlockOnSheet[];
  /** Company ids whose figures it shows (its blocks', then its FIN cells'), each once. */
  companies: string[];
  /** FIN cells whose company is not known (not evaluated since the add-in started). */
  unknownCompanyCells: number;
  /**
   * The workbook's push log (issue 28, item 4): who pushed what to the books. Left out of values copies
   * unless the user asks for it; its cells are not read (it only grows, and holds no formula).
   */
  pushLog?: true;
}

/** The companies FIN cells read when last evaluated (the runtime's record), and how many cells it has none of. */
export type FinCompanies = (cells: readonly FinCell[]) => { companyIds: string[]; unknown: number };

export interface SurveyFacts {
  /** The statement blocks' refresh plan (statements.plan(): no call); without it blocks are judged by age. */
  plan?: RefreshPlan;
  now: number;
  /** Whose figures the FIN cells show; without it, none is known. */
  finCompanies?: FinCompanies;
}

/** The companies a block shows: its company, or a consolidated block's members. */
function blockCompanies(binding: BindingRecord): string[] {
  if (binding.kind !== CONSOLIDATED_BINDING_KIND) return [binding.company];
  const members = (binding.parameters as { members?: unknown }).members;
  return Array.isArray(members) ? members.flatMap((m: unknown) => (typeof (m as { companyId?: unknown })?.companyId === 'string' ? [(m as { companyId: string }).companyId] : [])) : [];
}

/** Which sheet a block is on now: a named block wherever Excel moved it, else where it was written. */
async function sheetOf(gateway: WorkbookGateway, binding: BindingRecord): Promise<string | null> {
  if (binding.name) {
    const found = await gateway.locateBlock(binding.name);
    if (found.state === 'found') return found.sheet;
    if (found.state === 'broken') return null;
  }
  try {
    return parseQualified(binding.address).sheet;
  } catch {
    return null;
  }
}

function staleness(binding: BindingRecord, facts: SurveyFacts): string | null {
  const block = facts.plan?.blocks.find((b) => b.binding.id === binding.id);
  if (failureOf(binding)) return 'its last refresh failed';
  if (block?.placement.kind === 'damaged') return 'its cells were changed by hand';
  if (block && block.changed.length > 0) return 'the books changed since it was refreshed';
  if (isOld(binding, facts.now)) return `it was refreshed ${formatAge(Date.parse(binding.refreshedAt), facts.now)}`;
  return null;
}

export function surveyContent(content: SheetContent, blocks: BlockOnSheet[], finCompanies?: FinCompanies): SheetSurvey {
  const companies = [...new Set(blocks.flatMap((b) => blockCompanies(b.binding)))];
  const survey: SheetSurvey = { sheet: content.sheet, hasContent: content.address !== null, finCells: 0, formulaCells: 0, busy: [], errors: [], blocks, companies, unknownCompanyCells: 0 };
  if (!content.address) return survey;
  const { box } = parseQualified(content.address);
  const fin: FinCell[] = [];
  content.formulas.forEach((row, r) =>
    row.forEach((formula, c) => {
      const value = content.values[r]?.[c] ?? '';
      const at = () => qualify(content.sheet, { row: box.row + r, col: box.col + c, rows: 1, cols: 1 });
      if (formula === null) {
        // A value spilled by a FIN array that is still computing reads #BUSY! too.
        if (isBusy(value)) survey.busy.push(at());
        return;
      }
      survey.formulaCells++;
      if (callsFin(formula)) {
        survey.finCells++;
        fin.push({ sheet: content.sheet, row: box.row + r, col: box.col + c, calls: finCallCount(formula) });
      }
      if (isBusy(value)) survey.busy.push(at());
      else if (isErrorValue(value)) survey.errors.push(at());
    }),
  );
  if (fin.length > 0) {
    const read = finCompanies?.(fin) ?? { companyIds: [], unknown: fin.length };
    survey.companies = [...new Set([...companies, ...read.companyIds])];
    survey.unknownCompanyCells = read.unknown;
  }
  return survey;
}

/** Every visible sheet, surveyed; reads the workbook only. */
export async function surveyWorkbook(gateway: WorkbookGateway, facts: SurveyFacts): Promise<SheetSurvey[]> {
  const bindings = await gateway.listBindings();
  const located = await Promise.all(bindings.map(async (b) => ({ binding: b, sheet: await sheetOf(gateway, b) })));
  const out: SheetSurvey[] = [];
  const log = (await recentEntries(gateway, 0)).sheet?.toLowerCase();
  for (const info of await gateway.listSheets()) {
    if (!info.visible) continue;
    if (info.name.toLowerCase() === log) {
      out.push({ sheet: info.name, hasContent: true, finCells: 0, formulaCells: 0, busy: [], errors: [], blocks: [], companies: [], unknownCompanyCells: 0, pushLog: true });
      continue;
    }
    const blocks = located
      .filter((l) => l.sheet !== null && l.sheet.toLowerCase() === info.name.toLowerCase())
      .map((l) => ({ binding: l.binding, stale: staleness(l.binding, facts) }));
    out.push(surveyContent(await gateway.readSheet(info.name), blocks, facts.finCompanies));
  }
  return out;
}

/** A sheet the add-in feeds: it holds FIN formulas or blocks. */
export function holdsFinContent(s: SheetSurvey): boolean {
  return s.finCells > 0 || s.blocks.length > 0;
}

/** "B4", "B4, C9 and 3 more": a few addresses, for a sentence. */
export function someCells(addresses: string[], max = 3): string {
  const shown = addresses.slice(0, max).map((a) => {
    const { box } = parseQualified(a);
    return cellA1(box.row, box.col);
  });
  const more = addresses.length - shown.length;
  if (more > 0) return `${shown.join(', ')} and ${more} more`;
  return shown.length > 1 ? `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}` : (shown[0] ?? '');
}
