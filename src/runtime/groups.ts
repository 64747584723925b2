// Groups of companies for consolidated FIN lines (issue 16, item 4): =FIN.PNL("Revenue", "2026-Q3", "Group")
// where "Group" names a set of connections. A group is part of the model, so it is kept in the workbook's
// settings (connection names or company ids, never a key): a colleague with the same short names gets the
// same group. A group's figure is the sum of its companies' figures, each through its own connection: no
// eliminations, and only the functions that answer one figure (TOTAL, PNL, BALANCE, CASHFLOW) add up. A
// category that only some of the companies have counts where it exists, as a consolidated statement keeps
// such a line; a category none of them has is the first company's error.
//
// Members are companies (issue 25, item 6): each entry is resolved as a formula's company argument is (an
// exact company id, else a connection's name), and a company named twice ("North", " north", its id) counts
// once. Companies that report in different currencies are refused, as a consolidated statement refuses
// them. And a workbook is a file anyone can send: a group it brings could answer under a company's name with
// another company's figures ("Bluebird Robotics": ["West"]). So a group is used on this computer only once
// its definition was accepted here (the user saved it, or accepted it when the pane showed it for review);
// until then its name is just a connection that is not here.

import { FinError, isFinError, type EvalContext, type FinCall, type FinService } from '../engine/fin';
import type { CachedReader } from '../engine/reader/cachedReader';
import type { ReadRequest } from '../engine/reader/requestCache';
import type { SecretStore } from '../engine/ports/storage';
import { nameKey } from './connection';

/** The workbook setting: { [group name]: connection names or company ids }. */
export const GROUPS_SETTING = 'fin.groups';

/** Add-in storage (never the workbook): the definitions of the groups accepted on this computer. */
export const ACCEPTED_GROUPS_SECRET = 'acceptedGroups';

export interface Group {
  name: string;
  /** The entries as the workbook lists them: connection names or company ids. */
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

/**
 * What acceptance is given to: the group's name and entries as formulas match them. The same group in
 * another workbook needs no second review; an entry added or changed in the file needs one.
 */
export function groupDefinition(group: Group): string {
  return JSON.stringify([nameKey(group.name), [...new Set(group.members.map(nameKey))].sort()]);
}

/** The definitions accepted on this computer. */
export async function readAccepted(secrets: SecretStore): Promise<Set<string>> {
  try {
    const list = JSON.parse((await secrets.get(ACCEPTED_GROUPS_SECRET)) ?? '[]') as unknown;
    return new Set(Array.isArray(list) ? list.filter((d): d is string => typeof d === 'string') : []);
  } catch {
    return new Set();
  }
}

export async function storeAccepted(secrets: SecretStore, accepted: ReadonlySet<string>): Promise<void> {
  await secrets.set(ACCEPTED_GROUPS_SECRET, JSON.stringify([...accepted]));
}

/** A connected company of a group, as the runtime found it. */
export interface ConnectedMember {
  /** The connection's name now. */
  name: string;
  companyId: string;
  service: FinService;
  reader: CachedReader;
}

/** The group's companies: each connected one once (by company id, in the group's order), and the entries no connection has. */
export interface ResolvedGroup {
  connected: ConnectedMember[];
  /** Entries that name no connection here, once each (as first written). */
  missing: string[];
}

/** Resolves each entry as a formula's company argument is (`find`), a company named twice counting once. */
export function resolveGroup(group: Group, find: (entry: string) => ConnectedMember | null): ResolvedGroup {
  const connected: ConnectedMember[] = [];
  const missing = new Map<string, string>();
  for (const entry of group.members) {
    const member = find(entry);
    if (!member) {
      if (!missing.has(nameKey(entry))) missing.set(nameKey(entry), entry.trim());
    } else if (!connected.some((m) => m.companyId === member.companyId)) connected.push(member);
  }
  return { connected, missing: [...missing.values()] };
}

/** The currencies of the answers a member's evaluation read (reports and totals carry one; lists do not). */
async function currenciesRead(reader: CachedReader, requests: readonly ReadRequest[]): Promise<string[]> {
  const out = new Set<string>();
  for (const req of requests) {
    const answer = await reader.peek<{ currency?: unknown }>(req).catch(() => undefined);
    const currency = answer?.value?.currency;
    if (typeof currency === 'string' && currency !== '') out.add(currency);
  }
  return [...out];
}

/** Refused as a consolidated statement refuses companies that report in different currencies. */
function currencyError(group: Group, currencies: readonly { name: string; currency: string }[]): FinError {
  const listed = currencies.map((c) => `${c.name} reports in ${c.currency}`).join(', ');
  return new FinError(
    'value',
    `"${group.name}": ${listed}. A group adds amounts in one currency, and neither the API nor the add-in converts them: group companies that report in the same currency`,
    'group_currency',
  );
}

/**
 * The group's figure: each company's, added up (see the top of the file). `missing` is the error of the
 * first entry no connection has: a group with a company not here has no figure.
 */
export async function sumOverGroup(
  group: Group,
  resolved: ResolvedGroup,
  missing: (entry: string) => FinError,
  ctx: EvalContext,
  call: FinCall,
): Promise<number> {
  // Each company's variance against the one budget, added up, would count the budget once per company.
  if (call.name === 'BUDGET' || call.name === 'BUDGET_VARIANCE') {
    throw new FinError('value', `"${group.name}" is a group: a budget is compared with one company's figures, so name a company, not a group`, 'group_budget');
  }
  if (resolved.missing.length > 0) throw missing(resolved.missing[0]);
  const members = resolved.connected;
  const reads = members.map((): ReadRequest[] => []);
  const settled = await Promise.allSettled(
    members.map((m, i) =>
      m.service.evaluate(call, {
        ...ctx,
        noteRead: (req) => {
          ctx.noteRead?.(req);
          reads[i].push(req);
        },
      }),
    ),
  );
  let total = 0;
  let firstUnknown: FinError | null = null;
  /** The members whose figure is in the total. */
  const counted: number[] = [];
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
    counted.push(i);
  }
  if (counted.length === 0 && firstUnknown) throw firstUnknown;
  const currencies = await Promise.all(counted.map((i) => currenciesRead(members[i].reader, reads[i])));
  const each = counted.flatMap((i, n) => currencies[n].map((currency) => ({ name: members[i].name, currency })));
  if (new Set(each.map((c) => c.currency)).size > 1) throw currencyError(group, each);
  // Units from cents: keep the sum exact to the cent, as each company's figure is.
  return Math.round(total * 100) / 100;
}
