import { call, type TestSandbox } from '../support/sandbox';

// Shared by the report, total, journal and invariant tests. Fixture look-ups read the sandbox's database
// (to find a category by role, a pending transaction, ...); every behaviour under test goes through HTTP.

export interface CategoryRow {
  id: string;
  name: string;
  account_type: string;
  point_in_time: number;
  parent_id: string | null;
  role: string | null;
}

export function categories(sb: TestSandbox, companyId: string): CategoryRow[] {
  return sb.running.ctx.db
    .prepare('SELECT id, name, account_type, point_in_time, parent_id, role FROM categories WHERE company_id = ? ORDER BY rowid')
    .all(companyId) as CategoryRow[];
}

export function categoryNamed(sb: TestSandbox, companyId: string, name: string): CategoryRow {
  const c = categories(sb, companyId).find((r) => r.name === name);
  if (!c) throw new Error(`no category named ${name}`);
  return c;
}

export function categoryWithRole(sb: TestSandbox, companyId: string, role: string): CategoryRow {
  const c = categories(sb, companyId).find((r) => r.role === role);
  if (!c) throw new Error(`no category with role ${role}`);
  return c;
}

export async function get(sb: TestSandbox, key: string, path: string) {
  return call(sb, key, 'GET', path);
}

/** GET that must succeed; returns the body. */
export async function ok(sb: TestSandbox, key: string, path: string): Promise<any> {
  const res = await call(sb, key, 'GET', path);
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export function expectError(res: { status: number; body: any }, status: number, code: string, param?: string): void {
  expect({ status: res.status, code: res.body?.error?.code, param: res.body?.error?.param }).toEqual({ status, code, param });
}

/** The sandbox's today (YYYY-MM-DD, company zone). */
export async function today(sb: TestSandbox): Promise<string> {
  const res = await fetch(`${sb.controlUrl}/control`);
  return ((await res.json()) as { today: string }).today;
}

export interface Line {
  category_id: string;
  name: string;
  position: number;
  parent_category_id: string | null;
  amount_cents?: number;
  balance_cents?: number;
}

export const amountOf = (l: Line): number => (l.amount_cents ?? l.balance_cents) as number;

/**
 * The section rules every statement follows: the total is the sum of the root lines; lines come
 * depth-first (a child right after its parent's subtree starts); and a parent line is the sum of its
 * children (the demo chart posts nothing to group categories).
 */
export function expectWellFormedSection(section: { total_cents: number; categories: Line[] }): void {
  const lines = section.categories;
  const roots = lines.filter((l) => l.parent_category_id === null);
  expect(section.total_cents).toBe(roots.reduce((t, l) => t + amountOf(l), 0));
  const seen = new Set<string>();
  for (const l of lines) {
    expect(Number.isInteger(amountOf(l))).toBe(true);
    if (l.parent_category_id !== null) expect(seen.has(l.parent_category_id)).toBe(true);
    seen.add(l.category_id);
  }
  expect(seen.size).toBe(lines.length);
  for (const parent of lines) {
    const children = lines.filter((l) => l.parent_category_id === parent.category_id);
    if (children.length > 0) expect(amountOf(parent)).toBe(children.reduce((t, l) => t + amountOf(l), 0));
  }
}

export function lineOf(section: { categories: Line[] }, categoryId: string): Line {
  const l = section.categories.find((c) => c.category_id === categoryId);
  if (!l) throw new Error(`no line for ${categoryId}`);
  return l;
}

const pad = (n: number) => String(n).padStart(2, '0');

export function monthEnd(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return `${month}-${pad(new Date(Date.UTC(y, m, 0)).getUTCDate())}`;
}

export function addMonths(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number);
  const i = y * 12 + (m - 1) + n;
  return `${Math.floor(i / 12)}-${pad((i % 12) + 1)}`;
}

export function dayBefore(date: string): string {
  const t = Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) - 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}
