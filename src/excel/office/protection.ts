/**
 * Excel's sheet protection, without a password (Worksheet.protection, WorksheetProtection.protect and
 * unprotect: ExcelApi 1.2, within the manifest's 1.10). The state is read first: protecting a protected sheet,
 * or lifting protection from one without it, fails with AccessDenied in current Excel for Windows
 * (OfficeDev/office-js#6784), where earlier builds did nothing.
 */
import type { Session } from './session';

/**
 * What a protected sheet still lets the user do: filter (the push log is a table) and widen columns to read
 * it. Cells stay locked.
 */
export const PROTECTION_OPTIONS: Excel.WorksheetProtectionOptions = { allowAutoFilter: true, allowFormatColumns: true };

export async function isProtected(session: Session, sheet: string): Promise<boolean> {
  const protection = session.sheet(sheet).protection.load('protected');
  await session.sync();
  return protection.protected;
}

export async function setProtection(session: Session, sheet: string, on: boolean): Promise<void> {
  if ((await isProtected(session, sheet)) === on) return;
  const protection = session.sheet(sheet).protection;
  if (on) protection.protect(PROTECTION_OPTIONS);
  else protection.unprotect();
  await session.sync();
}
