// The budgets kept in the workbook: each is a visible workbook name on the user's own cells (Excel moves it with
// them, and a row inserted inside grows it), which formulas use as it is (=FIN.BUDGET(Budget_2026, …)), and the
// list of those names in the workbook's settings, so the pane can offer them. Nothing of a budget leaves the
// workbook: it is read from its cells whenever it is used, and never sent anywhere.

import { monthIndex, monthIndexToYearMonth, serialToIso, type DateSystem, type YearMonth } from '../dates';
import { cellA1, parseQualified, quoteSheet } from '../ports/address';
import { GatewayError, type Json, type WorkbookGateway } from '../ports/workbook';
import { Refusal } from '../refusal';
import { REPORTING_PERIOD_NAME } from '../reporting/period';
import { blockName } from '../statements/placement';
import { budgetSizeProblem, readBudget, type BudgetSheet } from './sheet';

/** The workbook setting listing the budgets' names. */
export const BUDGETS_SETTING = 'fin.budgets';

export interface KeptBudget {
  readonly name: string;
  /** Where its name points now; null when the name or its cells are gone. */
  readonly address: string | null;
}

/** A budget as its cells hold it now. */
export interface ReadBudget {
  readonly name: string;
  readonly address: string;
  readonly sheet: BudgetSheet;
}

/**
 * The budgets' names as listed in the workbook's settings, which a crafted file can fill with anything: the
 * add-in's own names (FIN_PERIOD, a block's FinBlock_… or its given name) are never budgets, so keeping a
 * budget cannot repoint them and forgetting one cannot delete them.
 */
async function keptNames(gateway: WorkbookGateway): Promise<string[]> {
  const stored = await gateway.readSetting(BUDGETS_SETTING);
  if (!Array.isArray(stored)) return [];
  const own = new Set([REPORTING_PERIOD_NAME, ...(await gateway.listBindings()).flatMap((b) => [blockName(b.id), b.name ?? ''])].map((n) => n.toLowerCase()));
  return stored.filter((n): n is string => typeof n === 'string' && n.trim() !== '' && !own.has(n.toLowerCase()) && !/^FinBlock_/i.test(n));
}

/** The budgets the workbook keeps, in the order they were kept, and where each is now. */
export async function listBudgets(gateway: WorkbookGateway): Promise<KeptBudget[]> {
  const out: KeptBudget[] = [];
  for (const name of await keptNames(gateway)) {
    const at = await gateway.locateBlock(name);
    out.push({ name, address: at.state === 'found' ? at.address : null });
  }
  return out;
}

/** The month of a date serial in the workbook's date system. */
export function serialMonths(system: DateSystem): (serial: number) => YearMonth | null {
  return (serial) => {
    const iso = serialToIso(serial, system);
    return iso.ok ? monthIndexToYearMonth(monthIndex(iso.value)) : null;
  };
}

/** A range's cells read as a budget, with each place in a message named by its address ("Budget!D7"). */
export async function readBudgetAt(gateway: WorkbookGateway, address: string): Promise<BudgetSheet> {
  const { box: asked } = parseQualified(address);
  const tooLarge = budgetSizeProblem(asked.rows, asked.cols);
  if (tooLarge) throw new Refusal('The budget cannot be read', tooLarge, 'budget_unreadable');
  const read = await gateway.readRange(address);
  const { sheet, box } = parseQualified(read.address);
  const budget = readBudget(read.values, {
    monthOfSerial: serialMonths(await gateway.getDateSystem()),
    cellName: (row, column) => `${quoteSheet(sheet)}!${cellA1(box.row + row, box.col + column)}`,
  });
  if (!budget.ok) throw new Refusal('The budget cannot be read', budget.error, 'budget_unreadable');
  return budget.value;
}

/** A kept budget read from its cells now; refused, saying what to do, when its name or cells are gone. */
export async function readKeptBudget(gateway: WorkbookGateway, name: string): Promise<ReadBudget> {
  const at = await gateway.locateBlock(name);
  if (at.state !== 'found') {
    const why = at.state === 'missing' ? 'its name is no longer in the workbook' : 'its cells were deleted';
    throw new Refusal('Budget not found', `The budget ${name} cannot be read: ${why}. Select it and keep it again (Reports tab, Budgets).`, 'budget_missing');
  }
  return { name, address: at.address, sheet: await readBudgetAt(gateway, at.address) };
}

/** Where the selected budget is (to check it before keeping it): the whole selection, at least two by two. */
export async function selectedBudget(gateway: WorkbookGateway): Promise<string> {
  const selection = await gateway.getSelection();
  if (selection.rowCount < 2 || selection.columnCount < 2) {
    throw new Refusal('Select the budget', 'Select the whole budget: its months across the first row and its category names down the first column.', 'budget_selection');
  }
  return selection.address;
}

/**
 * Keeps the cells at `address` as the budget `name`: the name is made (or, for a budget kept already, pointed
 * there) and listed. A name the workbook uses for something else, or that Excel refuses, is refused first.
 */
export async function keepBudget(gateway: WorkbookGateway, name: string, address: string): Promise<KeptBudget> {
  const wanted = name.trim();
  const kept = await keptNames(gateway);
  const known = kept.find((n) => n.toLowerCase() === wanted.toLowerCase());
  if (!known && (await gateway.locateBlock(wanted)).state !== 'missing') {
    throw new Refusal('Name taken', `The workbook already uses the name ${wanted} for something else: pick another name for the budget.`, 'budget_name_taken');
  }
  try {
    await gateway.nameRange(address, known ?? wanted);
  } catch (error) {
    if (error instanceof GatewayError && error.code === 'InvalidInput') {
      throw new Refusal(
        'Not a name Excel accepts',
        `Excel does not accept "${wanted}" as a name: start with a letter, use letters, digits and _ (Budget_2026), and nothing that reads as a cell (FY2026, A1).`,
        'budget_name_refused',
      );
    }
    throw error;
  }
  if (!known) await gateway.writeSetting(BUDGETS_SETTING, [...kept, wanted] as Json);
  return { name: known ?? wanted, address };
}

/** The add-in stops offering the budget and its name goes (its cells stay; formulas that use the name show #NAME?). */
export async function forgetBudget(gateway: WorkbookGateway, name: string): Promise<void> {
  const kept = await keptNames(gateway);
  const known = kept.find((n) => n.toLowerCase() === name.toLowerCase());
  if (!known) throw new Refusal('Not a budget', `${name} is not one of the budgets this workbook keeps: nothing was deleted.`, 'budget_missing');
  await gateway.deleteName(known);
  await gateway.writeSetting(BUDGETS_SETTING, kept.filter((n) => n.toLowerCase() !== name.toLowerCase()) as Json);
}
