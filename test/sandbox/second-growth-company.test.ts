import { call, startSandbox, type TestSandbox } from '../support/sandbox';

// The second Growth company (growth2-admin) exists for consolidation: its chart of accounts and its
// department tree overlap the first company's, as the API lists them. Consolidation matches lines by name
// path, case- and space-insensitively, so the two charts hold every case it meets: paths both have, paths
// only one has, and paths that differ only in case or spacing.

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb.close();
});

interface Node {
  id: string;
  name: string;
  parent_id: string | null;
}

async function list(label: string, path: string): Promise<Node[]> {
  const res = await call(sb, sb.keys[label], 'GET', path);
  expect(res.status).toBe(200);
  return res.body.data as Node[];
}

/** Every node's name path from its root, joined with " > " (for departments, from below the company root). */
function namePaths(nodes: Node[], skipRoot = false): string[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const pathOf = (n: Node): string[] => {
    const parent = n.parent_id === null ? undefined : byId.get(n.parent_id);
    if (!parent) return skipRoot ? [] : [n.name];
    return [...pathOf(parent), n.name];
  };
  return nodes.map(pathOf).filter((p) => p.length > 0).map((p) => p.join(' > '));
}

const normal = (path: string) => path.toLowerCase().replace(/\s+/g, '');

/** Paths of a and b split into: the same exactly, only in a, only in b, and matched only case- and space-insensitively. */
function compare(a: string[], b: string[]) {
  const exactB = new Set(b);
  const exactA = new Set(a);
  const normalA = new Set(a.map(normal));
  const normalB = new Set(b.map(normal));
  return {
    shared: a.filter((p) => exactB.has(p)),
    onlyA: a.filter((p) => !normalB.has(normal(p))),
    onlyB: b.filter((p) => !normalA.has(normal(p))),
    looselyMatched: b.filter((p) => !exactA.has(p) && normalA.has(normal(p))),
  };
}

it('is another company on the Growth plan, in the same currency', async () => {
  const first = (await call(sb, sb.keys['growth-admin'], 'GET', '/company')).body;
  const second = (await call(sb, sb.keys['growth2-admin'], 'GET', '/company')).body;
  expect(second.id).toBe(sb.companies['growth2-admin']);
  expect(second.id).not.toBe(first.id);
  expect(second.name).toBe('Westbrook Software');
  expect(second.name).not.toBe(first.name);
  const row = (id: string) =>
    sb.running.ctx.db.prepare('SELECT plan, plan_status, currency, fiscal_year_start_month FROM companies WHERE id = ?').get(id);
  expect(row(second.id)).toEqual(row(first.id));
  expect(row(second.id)).toMatchObject({ plan: 'growth', plan_status: 'active' });
  const currencies = sb.running.ctx.db
    .prepare('SELECT DISTINCT currency FROM transactions WHERE company_id IN (?, ?)')
    .pluck()
    .all(first.id, second.id);
  expect(currencies).toEqual(['USD']);
});

it('has a chart of accounts that overlaps the first company\u2019s but is not identical', async () => {
  const first = namePaths(await list('growth-admin', '/categories'));
  const second = namePaths(await list('growth2-admin', '/categories'));
  const c = compare(first, second);
  expect(c.shared.length).toBeGreaterThan(0.85 * second.length);
  expect(c.onlyA.sort()).toEqual([
    'Cost of Revenue > Hosting & Infrastructure > Data & APIs',
    'Liabilities > Current Liabilities > Intercompany Payable',
    'Operating Expenses > Sales & Marketing > Events & Conferences',
  ]);
  expect(c.onlyB.sort()).toEqual([
    'Operating Expenses > Payroll & Benefits > Sales Commissions',
    'Operating Expenses > Sales & Marketing > Trade Shows',
    'Other Income > Grant Income',
  ]);
  expect(c.looselyMatched.sort()).toEqual([
    'Operating Expenses > General & Administrative > Bank  Fees',
    'Operating Expenses > General & Administrative > Office supplies',
  ]);
  // both name their cash category Cash, at the same path
  expect(c.shared).toContain('Assets > Current Assets > Cash');
});

it('has a department tree that overlaps likewise, below each company\u2019s root', async () => {
  const firstTree = await list('growth-admin', '/departments');
  const secondTree = await list('growth2-admin', '/departments');
  const roots = (nodes: Node[]) => nodes.filter((n) => n.parent_id === null).map((n) => n.name);
  expect(roots(firstTree)).toEqual(['Northwind Analytics']);
  expect(roots(secondTree)).toEqual(['Westbrook Software']);
  const second = namePaths(secondTree, true);
  const c = compare(namePaths(firstTree, true), second);
  expect(c.shared).toEqual(expect.arrayContaining(['Go-to-Market > Sales > Sales East', 'Research & Development > Engineering > Platform', 'General & Administrative > Finance > Operations']));
  expect(c.shared.length).toBeGreaterThan(0.8 * second.length);
  expect(c.onlyA).toEqual(expect.arrayContaining(['Go-to-Market > Customer Success', 'Research & Development > Engineering > Data Science', 'General & Administrative > Legacy Projects']));
  expect(c.onlyB.sort()).toEqual([
    'Go-to-Market > Sales > Field Sales (retired)',
    'Go-to-Market > Sales > Partnerships',
    'Research & Development > Engineering > Mobile',
  ]);
  expect(c.looselyMatched).toEqual(['Go-to-Market > Marketing > Brand & content']);
});

it('posts to the categories only one company has, so consolidation has lines to keep and mark', async () => {
  const q = (label: string, name: string) =>
    sb.running.ctx.db
      .prepare('SELECT COUNT(*) FROM journal_lines l JOIN categories c ON c.id = l.category_id WHERE l.company_id = ? AND c.name = ?')
      .pluck()
      .get(sb.companies[label], name) as number;
  expect(q('growth-admin', 'Data & APIs')).toBeGreaterThan(0);
  expect(q('growth-admin', 'Events & Conferences')).toBeGreaterThan(0);
  expect(q('growth2-admin', 'Trade Shows')).toBeGreaterThan(0);
  expect(q('growth2-admin', 'Office supplies')).toBeGreaterThan(0);
  expect(q('growth2-admin', 'Bank  Fees')).toBeGreaterThan(0);
});
