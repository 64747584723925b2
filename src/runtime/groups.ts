// Groups of companies for consolidated FIN lines (issue 16, item 4): =FIN.PNL("Revenue", "2026-Q3", "Group")
// where "Group" names a set of connections. A group is part of the model, so it is kept in the workbook's
// settings (connection names only, never a key): a colleague with the same short names gets the same group.
// A group's figure is the sum of its companies' figures, each through its own connection: no eliminations,
// and only the functions that answer one figure (TOTAL, PNL, BALANCE, CASHFLOW) add up. A category that
// only some of the companies have counts where it exists, as a consolidated statement keeps such a line; a
// category none of them has is the first company's error.

import { FinError, isFinError, type EvalContext, type FinCall, type FinService } from '../engine/fin';
import { nameKey } from './connection';

/** The workbook setting: { [group name]: connection names }. */
export const GROUPS_SETTING = 'fin.groups';

export interface Group {
  name: string;
  members: string[];
}

/** The groups a workbook setting holds (anything malformed is left out). */
export function groupsOf(raw: unknown): Map<string, Group> {
  const out = new Map<string, Group>();
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return out;
  for (const [name, members] of Object.entries(raw as Record<string, unknown>)) {
    if (!Array.isArray(members)) continue;
    const names = members.filter((m): m is string => typeof m === 'string' && m.trim() !== '');
    if (names.length > 0 && name.trim() !== '') out.set(nameKey(name), { name: name.trim(), members: names });
  }
  return out;
}

/** The setting with one group set (or removed, with no members). */
export function withGroup(raw: unknown, name: string, members: readonly string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const g of groupsOf(raw).values()) if (nameKey(g.name) !== nameKey(name)) out[g.name] = g.members;
  if (members.length > 0) out[name.trim()] = [...members];
  return out;
}

/** One company of a group, as the runtime found it: its service, or the error of its missing connection. */
export type GroupMember = { name: string; service: FinService } | { name: string; missing: FinError };

/** The group's figure: each company's, added up (see the top of the file). */
export async function sumOverGroup(
  group: Group,
  members: readonly GroupMember[],
  ctx: EvalContext,
  call: FinCall,
): Promise<number> {
  const missing = members.find((m): m is { name: string; missing: FinError } => 'missing' in m);
  if (missing) throw missing.missing;
  const settled = await Promise.allSettled(members.map((m) => (m as { service: FinService }).service.evaluate(call, ctx)));
  let total = 0;
  let known = 0;
  let firstUnknown: FinError | null = null;
  for (const [i, s] of settled.entries()) {
    const who = members[i].name;
    if (s.status === 'rejected') {
      const error = s.reason as unknown;
      if (isFinError(error) && error.code === 'unknown_category') {
        firstUnknown ??= new FinError(error.kind, `${who}: ${error.message}`, error.code);
        continue;
      }
      throw isFinError(error) ? new FinError(error.kind, `${who}: ${error.message}`, error.code) : error;
    }
    if (typeof s.value !== 'number') {
      throw new FinError('value', `"${group.name}" is a group: it adds up single figures (FIN.TOTAL, FIN.PNL, FIN.BALANCE, FIN.CASHFLOW), not lists or statements`, 'group_not_a_figure');
    }
    total += s.value;
    known += 1;
  }
  if (known === 0 && firstUnknown) throw firstUnknown;
  // Units from cents: keep the sum exact to the cent, as each company's figure is.
  return Math.round(total * 100) / 100;
}
