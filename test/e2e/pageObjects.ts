// How a user works the workbench, in Playwright terms: by roles, labels and visible text only. The task
// pane is the "Task pane" landmark; the workbook is the "Workbook" region with a formula bar (Name Box,
// Formula, and the selected cell's result line), a grid per sheet ("Sheet <name>") and sheet tabs.

import type { Locator, Page } from 'playwright-core';

export const LONG = 120_000;

export function pane(page: Page): Locator {
  return page.getByRole('complementary', { name: 'Task pane' });
}

export function workbook(page: Page): Locator {
  return page.getByRole('region', { name: 'Workbook' });
}

/** The error messages in a scope: Fluent's error MessageBar, a group named "Error: <its title>". */
export function errorMessages(scope: Locator, title?: string): Locator {
  return scope.getByRole('group', { name: title === undefined ? /^Error: / : `Error: ${title}` });
}

/** Waits until the pane offers to connect (the page, its bundle and the pane are up). */
export async function waitForPane(page: Page): Promise<void> {
  await pane(page).getByRole('heading', { name: 'Financial Reporting' }).waitFor({ timeout: 60_000 });
}

export async function openPaneTab(page: Page, name: string): Promise<void> {
  const tab = pane(page).getByRole('tab', { name, exact: true });
  await tab.click();
  await pane(page).locator('[role="tab"][aria-selected="true"]', { hasText: name }).waitFor();
}

/** Try the demo company, and wait for the connected pane (its Reports tab). */
export async function connectDemo(page: Page): Promise<void> {
  await pane(page).getByRole('button', { name: 'Try the demo company' }).click();
  await pane(page).getByRole('tab', { name: 'Reports', exact: true }).waitFor({ timeout: 60_000 });
}

/** Connect with a key and a plan (the plan's option text starts with its name, e.g. "Formation"). */
export async function connectWithKey(page: Page, key: string, plan: string): Promise<void> {
  const p = pane(page);
  await p.getByLabel('API key', { exact: true }).fill(key);
  const select = p.getByLabel('Plan', { exact: true });
  const option = select.locator('option', { hasText: new RegExp(`^${plan}\\b`) });
  await select.selectOption({ label: (await option.textContent())!.trim() });
  await p.getByRole('button', { name: 'Connect', exact: true }).click();
}

export interface StatementChoice {
  statement?: string;
  period?: string;
  layout?: string;
  units?: string;
  where?: 'New sheet' | 'Selected cell';
}

/** Fills the Reports tab (what is given) and returns the cost line shown before inserting. */
export async function chooseStatement(page: Page, choice: StatementChoice): Promise<string> {
  const p = pane(page);
  if (choice.statement) await p.getByLabel('Statement', { exact: true }).selectOption({ label: choice.statement });
  if (choice.period) await p.getByLabel('Period', { exact: true }).selectOption({ label: choice.period });
  if (choice.layout) await p.getByLabel('Layout', { exact: true }).selectOption({ label: choice.layout });
  if (choice.units) await p.getByLabel('Units', { exact: true }).selectOption({ label: choice.units });
  if (choice.where) await p.getByRole('radio', { name: choice.where }).check();
  const cost = p.getByRole('status').filter({ hasText: /^Costs \d+ calls?/ });
  await cost.waitFor();
  return (await cost.textContent())!.trim();
}

/** Clicks Insert and waits for "Inserted the … at <address>. Spent n calls."; returns that line. */
export async function insertStatement(page: Page): Promise<string> {
  const p = pane(page);
  const before = p.getByRole('status').filter({ hasText: /^Inserted the / });
  const previous = (await before.count()) > 0 ? ((await before.first().textContent()) ?? '').trim() : null;
  await p.getByRole('button', { name: 'Insert', exact: true }).click();
  // Each insert lands on a new sheet, so its line names a new address.
  const done = previous === null ? before : before.filter({ hasNotText: previous });
  const failed = errorMessages(p);
  await done.or(failed).first().waitFor({ timeout: LONG });
  if (await failed.isVisible()) throw new Error(`Insert failed: ${await failed.textContent()}`);
  return (await done.textContent())!.trim();
}

export function sheetTab(page: Page, name: string): Locator {
  return workbook(page).getByRole('tablist', { name: 'Sheets' }).getByRole('tab', { name, exact: true });
}

export function sheetGrid(page: Page, name: string): Locator {
  return workbook(page).getByRole('grid', { name: `Sheet ${name}`, exact: true });
}

export async function showSheet(page: Page, name: string): Promise<Locator> {
  await sheetTab(page, name).click();
  const grid = sheetGrid(page, name);
  await grid.waitFor();
  return grid;
}

/**
 * The grid's rendered rows as the user reads them: each row's number and its cells' text (a cell's
 * accessible name where it has one, such as "$ (1,234.00)" for an accounting cell, else its text).
 */
export async function readGrid(grid: Locator): Promise<{ row: number; cells: string[] }[]> {
  return grid.getByRole('row').evaluateAll((rows) =>
    rows
      .map((r) => {
        const header = r.querySelector('[role="rowheader"]');
        const cells = [...r.querySelectorAll('[role="gridcell"]')].map((c) => (c.getAttribute('aria-label') ?? c.textContent ?? '').trim());
        return { row: Number(header?.textContent ?? NaN), cells };
      })
      .filter((r) => Number.isFinite(r.row)),
  );
}

/** Selects a cell by typing its address into the Name Box. */
export async function goToCell(page: Page, address: string): Promise<void> {
  const box = workbook(page).getByLabel('Name Box', { exact: true });
  await box.fill(address);
  await box.press('Enter');
  await workbook(page).getByRole('status', { name: 'Selected cell' }).filter({ hasText: new RegExp(`^${address.replace(/^.*!/, '')}\\b`) }).waitFor();
}

/** Types into the formula box and presses Enter; returns the selected cell's result line once settled. */
export async function enterFormula(page: Page, text: string): Promise<string> {
  const box = workbook(page).getByLabel('Formula', { exact: true });
  await box.fill(text);
  await box.press('Enter');
  return settledResult(page);
}

/** Types a constant (a label, a number) into the selected cell through the formula box. */
export async function enterValue(page: Page, text: string): Promise<void> {
  const box = workbook(page).getByLabel('Formula', { exact: true });
  await box.fill(text);
  await box.press('Enter');
  await workbook(page).getByRole('button', { name: 'Enter', exact: true }).and(page.locator(':disabled')).waitFor();
}

/** The result line of the selected cell once it is no longer calculating. */
export async function settledResult(page: Page): Promise<string> {
  const line = workbook(page).getByRole('status', { name: 'Selected cell' });
  await line.filter({ hasNotText: /Calculating/ }).filter({ hasText: /=|#|Spilled/ }).waitFor({ timeout: LONG });
  return (await line.textContent())!.trim();
}

/** "$ 1,234.56" / "$ (1,234.56)" / "$ -" / "1,234" -> a number (NaN when it is not an amount). */
export function parseAmount(text: string): number {
  const t = text.replace(/[$\s,]/g, '');
  if (t === '-' || t === '') return t === '-' ? 0 : NaN;
  const negative = /^\(.*\)$/.test(t) || t.startsWith('-');
  const n = Number(t.replace(/[()-]/g, ''));
  return negative ? -n : n;
}

/** Cents as the accounting format shows them at a scale: 2 decimals for units, whole numbers otherwise. */
export function centsAt(cents: number, scale: 'units' | 'thousands' | 'millions'): number {
  if (scale === 'units') return cents / 100;
  const divisor = scale === 'thousands' ? 100_000 : 100_000_000;
  const sign = cents < 0 ? -1 : 1;
  // Half away from zero, in integers (Excel's rounding of the displayed value).
  return (sign * Math.floor((Math.abs(cents) + divisor / 2) / divisor)) || 0;
}
