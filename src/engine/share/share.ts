// Share as values (issue 15, item 5): copies of the chosen sheets that open anywhere without the add-in.
// Never the user's working model: each chosen sheet gets a copy next to it, "<name> (values)", holding the
// values its cells show (FIN formulas, spilled arrays, statement blocks and transactions tables alike, and
// every other formula too, so the copy does not depend on sheets left behind), with the number formats
// kept, no drop-down list, no name and no binding, and a note of when and whose the figures are: every
// company the sheet's blocks and FIN cells read, by name. It spends no call: the figures are the ones on the
// sheets, and what is stale, still computing or of a company not known is said before.

import { Refusal } from '../refusal';
import { formatRefreshedAt } from '../render';
import { formatAge, OLD_AFTER_MS } from '../statements';
import { plural } from '../text/plural';
import type { ValuesCopy, WorkbookGateway } from '../ports/workbook';
import { holdsFinContent, someCells, type SheetSurvey } from './survey';

/** Excel's limit on a sheet name. */
const SHEET_NAME_MAX = 31;
const COPY_SUFFIX = ' (values)';

export interface ShareFacts {
  /** The companies' names as the note gives them, by company id (an id not here is given as it is). */
  companyNames: Readonly<Record<string, string>>;
  /** When the FIN cells' figures were fetched (the oldest in use), if known. */
  formulasAsOf?: number;
  /** FIN answers known to have changed in the books since they were fetched (the refresh plan's). */
  formulasChanged?: number;
  /**
   * The host had not said it finished calculating (WorkbookGateway.isCalculating): figures read now may be the
   * previous ones. Excel may never say so: on the web any chart keeps it Pending (OfficeDev/office-js#4760), on every
   * host a chart on TODAY or NOW does (#3319).
   */
  calculating?: boolean;
  /**
   * FIN evaluations were still running when looked at (the add-in's own count, so certain): a FIN cell
   * calculating again shows its previous figure, with a spinner rather than #BUSY! (office-js#4152).
   */
  finCalculating?: boolean;
  now: number;
  /** The user's IANA zone, for the time in the note. */
  timeZone?: string;
}

/** The name asked for a sheet's copy: the sheet's, cut to leave room for " (values)" in 31 characters. */
export function copyNameFor(sheet: string): string {
  return `${sheet.slice(0, SHEET_NAME_MAX - COPY_SUFFIX.length).trimEnd()}${COPY_SUFFIX}`;
}

/** The sheets offered ticked: those the add-in feeds. */
export function suggestedSheets(surveys: SheetSurvey[]): string[] {
  return surveys.filter((s) => holdsFinContent(s) && !s.pushLog).map((s) => s.sheet);
}

/** When the chosen sheets' figures were fetched: the oldest block refresh and FIN answer among them. */
export function figuresAsOf(chosen: readonly SheetSurvey[], facts: ShareFacts): number | undefined {
  const times = chosen.flatMap((s) => s.blocks.map((b) => Date.parse(b.binding.refreshedAt))).filter(Number.isFinite);
  if (facts.formulasAsOf !== undefined && chosen.some((s) => s.finCells > 0)) times.push(facts.formulasAsOf);
  return times.length > 0 ? Math.min(...times) : undefined;
}

const listed = new Intl.ListFormat('en-GB', { style: 'long', type: 'conjunction' });

/**
 * The note above a sheet's copy: when the chosen sheets' figures are from (the oldest), and whose this
 * sheet's are: every company it reads, by name; FIN cells whose company is not known are said to be.
 */
export function valuesNote(sheet: SheetSurvey, chosen: readonly SheetSurvey[], facts: ShareFacts): string[] {
  const asOf = figuresAsOf(chosen, facts);
  const when = asOf === undefined ? `${formatRefreshedAt(new Date(facts.now), facts.timeZone)} (copied; refresh time unknown)` : formatRefreshedAt(new Date(asOf), facts.timeZone);
  const names = [...new Set(sheet.companies.map((id) => facts.companyNames[id] ?? id))];
  const unknown = sheet.unknownCompanyCells > 0 ? `${plural(sheet.unknownCompanyCells, 'FIN formula')} of a company not recorded` : '';
  const whose = listed.format(unknown ? [...names, unknown] : names);
  return [whose ? `Values as of ${when} from ${whose}` : `Values as of ${when}`];
}

/** What the user should know before the copy is made; empty when the figures are settled and current. */
export function shareWarnings(chosen: SheetSurvey[], facts: ShareFacts): string[] {
  const out: string[] = [];
  if (chosen.some((s) => s.formulaCells > 0)) {
    if (facts.finCalculating) {
      out.push('FIN formulas are still calculating: a formula calculating again shows its previous figure until its answer arrives, and the copy would keep it. Wait until they finish, then choose Look again.');
    } else if (facts.calculating) {
      out.push(
        'Excel has not said it finished calculating: a formula calculating again shows its previous figure until it is done. Choose Look again in a moment; Excel may never say it while the workbook holds charts, so if this stays, look at the totals before you copy.',
      );
    }
  }
  for (const s of chosen) {
    if (s.busy.length > 0) {
      out.push(`${s.sheet}: ${plural(s.busy.length, 'cell')} still computing (#BUSY! in ${someCells(s.busy)}). The copy would keep #BUSY!: wait until every cell shows a figure.`);
    }
    if (s.errors.length > 0) {
      out.push(`${s.sheet}: ${plural(s.errors.length, 'formula')} showing an error (${someCells(s.errors)}). The copy keeps the error as it is.`);
    }
    if (s.unknownCompanyCells > 0) {
      out.push(
        `${s.sheet}: ${plural(s.unknownCompanyCells, 'FIN formula')} not calculated since the add-in started, so the note cannot name ${s.unknownCompanyCells === 1 ? 'its company' : 'their companies'}: refresh this sheet first (Refresh tab) for a note that names every company.`,
      );
    }
    for (const b of s.blocks) {
      if (b.stale) out.push(`${s.sheet}: a ${b.binding.kind === 'transactions' ? 'transactions table' : 'statement block'} may not be current: ${b.stale}.`);
    }
  }
  if (chosen.some((s) => s.finCells > 0)) {
    if ((facts.formulasChanged ?? 0) > 0) {
      out.push(`${plural(facts.formulasChanged!, 'FIN answer')} changed in the books since fetched: refresh first for current FIN figures.`);
    } else if (facts.formulasAsOf !== undefined && facts.now - facts.formulasAsOf > OLD_AFTER_MS) {
      out.push(`The FIN figures were fetched ${formatAge(facts.formulasAsOf, facts.now)}.`);
    }
  }
  return out;
}

/**
 * How to take the copies out of this workbook (no API makes a new workbook from some sheets). Move or Copy
 * takes the sheets alone; a downloaded copy is the whole file: the hidden sheet of drop-down lists
 * (department names) and the add-in's settings in the workbook (its blocks' records with company and
 * department ids, the groups of companies), which no Excel menu shows or removes.
 */
export const MOVE_OUT_TEXT =
  'To send them on their own: right-click a copy\'s tab (Ctrl+click to pick several), choose Move or Copy, pick "(new book)" and save that workbook: it holds those sheets and nothing else. Excel on the web has no "(new book)": a downloaded copy of the workbook is the whole file. Delete the other sheets from it, and unhide and delete the hidden sheet FinLists (the department lists); it still carries this add-in\'s settings (its blocks\' records, with company and department ids, and the groups of companies), which Excel cannot remove. Where those must not travel, make the copy in Excel for Windows or Mac.';

export interface SharedCopy extends ValuesCopy {
  /** The sheet it copies. */
  source: string;
  /** The note on top of it. */
  note: string[];
}

export interface ShareResult {
  copies: SharedCopy[];
  message: string;
}

/** A copy that still holds a formula: the host did not do what was asked, so nothing is claimed. */
export class CopyNotClean extends Error {
  override readonly name = 'CopyNotClean';
}

export interface ShareOptions {
  /**
   * Resolves true once no FIN evaluation runs (FinService.whenIdle, bounded): asked right before copying, since
   * a FIN cell calculating again shows its previous figure (office-js#4152) and the copy would keep it.
   */
  finSettled?: () => Promise<boolean>;
  /** The push log is copied only when the user ticked it (issue 28, item 4): it says who changed the books. */
  includePushLog?: boolean;
}

/**
 * Makes the copies, one sheet at a time, then reads each back to check that no formula is left. The first
 * copy is activated so the user sees it. No call is spent. Refused, before anything is copied, while FIN
 * formulas are still calculating.
 */
export async function shareAsValues(
  gateway: WorkbookGateway,
  chosen: SheetSurvey[],
  facts: ShareFacts,
  onProgress?: (done: number, total: number) => void,
  options: ShareOptions = {},
): Promise<ShareResult> {
  chosen = chosen.filter((s) => !s.pushLog || options.includePushLog === true);
  if (chosen.length === 0) throw new RangeError('Choose at least one sheet to copy as values.');
  if (options.finSettled && chosen.some((s) => s.finCells > 0) && !(await options.finSettled())) {
    throw new Refusal(
      'FIN formulas are still calculating',
      'A FIN formula calculating again shows its previous figure until its answer arrives, and the copy would keep it. Nothing was copied: wait until they finish, then copy again.',
      'share_calculating',
    );
  }
  const copies: SharedCopy[] = [];
  onProgress?.(0, chosen.length);
  for (const s of chosen) {
    // Each copy's note goes into rows inserted above it, and inserting rows makes Excel calculate every FIN
    // cell again (office-js#3332, #3911; from the cache, no call): the next sheet is copied once they are done.
    if (copies.length > 0 && options.finSettled && s.finCells > 0 && !(await options.finSettled())) {
      throw new Refusal(
        'FIN formulas are still calculating',
        `Made ${plural(copies.length, 'values copy', 'values copies')} (${copies.map((c) => `"${c.sheet}"`).join(', ')}), then stopped: the FIN formulas were calculating again and the next copy would keep their previous figures. Copy the other sheets again in a moment.`,
        'share_calculating',
      );
    }
    const note = valuesNote(s, chosen, facts);
    const copy = await gateway.copySheetAsValues(s.sheet, { name: copyNameFor(s.sheet), note });
    copies.push({ ...copy, source: s.sheet, note });
    const check = await gateway.readSheet(copy.sheet);
    const left = check.formulas.flat().filter((f) => f !== null).length;
    if (left > 0) throw new CopyNotClean(`${copy.sheet} still holds ${plural(left, 'formula')}: delete that sheet and try again.`);
    onProgress?.(copies.length, chosen.length);
  }
  await gateway.activateSheet(copies[0].sheet);
  const names = copies.map((c) => `"${c.sheet}"`).join(', ');
  return { copies, message: `Made ${plural(copies.length, 'values copy', 'values copies')}: ${names}. Your sheets are unchanged. ${MOVE_OUT_TEXT}` };
}
