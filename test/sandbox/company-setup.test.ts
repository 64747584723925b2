import { call, startSandbox, type TestSandbox } from '../support/sandbox';

// GET /company, /categories, /departments: exact shapes, order, permissions and company isolation.

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb.close();
});

const sortedKeys = (o: object) => Object.keys(o).sort();

function expectForbidden(res: { status: number; body: any }) {
  expect(res.status).toBe(403);
  expect(res.body.error).toMatchObject({ type: 'permission_error', code: 'insufficient_permission' });
  expect(res.body.error).not.toHaveProperty('param');
}

describe('GET /company', () => {
  it('returns the Company object with exactly the listed fields', async () => {
    const res = await call(sb, sb.keys['growth-admin'], 'GET', '/company');
    expect(res.status).toBe(200);
    const c = res.body;
    expect(sortedKeys(c)).toEqual(
      ['created', 'entity_type', 'federal_ein_last4', 'id', 'incorporation', 'legal_address', 'legal_name', 'name', 'object'].sort(),
    );
    expect(c.id).toBe(sb.companies['growth-admin']);
    expect(c.id).toMatch(/^comp_/);
    expect(c.object).toBe('company');
    expect(typeof c.name).toBe('string');
    expect(typeof c.legal_name).toBe('string');
    expect(typeof c.entity_type).toBe('string');
    expect(c.federal_ein_last4).toMatch(/^\d{4}$/);
    expect(sortedKeys(c.incorporation)).toEqual(['date', 'state']);
    expect(c.incorporation.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(sortedKeys(c.legal_address)).toEqual(['city', 'country', 'line_1', 'line_2', 'postal_code', 'state']);
    expect(Number.isInteger(c.created)).toBe(true);
  });

  it('needs Company: View', async () => {
    expect((await call(sb, sb.keys['growth-readonly'], 'GET', '/company')).status).toBe(200);
    expectForbidden(await call(sb, sb.keys['growth-reports'], 'GET', '/company'));
  });

  it("shows each key its own company only", async () => {
    const res = await call(sb, sb.keys['startup-admin'], 'GET', '/company');
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(sb.companies['startup-admin']);
    expect(res.body.id).not.toBe(sb.companies['growth-admin']);
  });
});

describe('GET /categories', () => {
  it('returns the full unpaginated list of Category objects ordered by tier, position, name', async () => {
    const res = await call(sb, sb.keys['growth-admin'], 'GET', '/categories?limit=1&starting_after=x');
    expect(res.status).toBe(200);
    expect(sortedKeys(res.body)).toEqual(['data', 'object', 'url']);
    expect(res.body).toMatchObject({ object: 'list', url: '/api/v1/categories' });
    const cats: any[] = res.body.data;
    expect(cats.length).toBeGreaterThan(10);
    const ids = new Set(cats.map((c) => c.id));
    for (const c of cats) {
      expect(sortedKeys(c)).toEqual(['account_type', 'created', 'id', 'name', 'object', 'parent_id', 'point_in_time', 'position', 'tier']);
      expect(c.id).toMatch(/^cat_/);
      expect(c.object).toBe('category');
      expect(typeof c.point_in_time).toBe('boolean');
      expect([1, 2, 3]).toContain(c.tier);
      expect(Number.isInteger(c.position)).toBe(true);
      if (c.tier === 1) expect(c.parent_id).toBeNull();
      else expect(ids.has(c.parent_id)).toBe(true);
    }
    for (let i = 1; i < cats.length; i++) {
      const [a, b] = [cats[i - 1], cats[i]];
      const order = a.tier - b.tier || a.position - b.position || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
      expect(order).toBeLessThanOrEqual(0);
    }
    expect(cats.find((c) => c.name === 'Cash')).toMatchObject({ point_in_time: true });
    expect(cats.some((c) => c.point_in_time === false)).toBe(true);
  });

  it('needs Accounting setup: View and shows only the caller company', async () => {
    expectForbidden(await call(sb, sb.keys['growth-reports'], 'GET', '/categories'));
    const growth = (await call(sb, sb.keys['growth-admin'], 'GET', '/categories')).body.data.map((c: any) => c.id);
    const startup = (await call(sb, sb.keys['startup-admin'], 'GET', '/categories')).body.data.map((c: any) => c.id);
    expect(startup.length).toBeGreaterThan(0);
    expect(startup.filter((id: string) => growth.includes(id))).toEqual([]);
  });
});

describe('GET /departments', () => {
  it('returns the full unpaginated tree in display order', async () => {
    const res = await call(sb, sb.keys['growth-readonly'], 'GET', '/departments');
    expect(res.status).toBe(200);
    expect(sortedKeys(res.body)).toEqual(['data', 'object', 'url']);
    expect(res.body).toMatchObject({ object: 'list', url: '/api/v1/departments' });
    const depts: any[] = res.body.data;
    const seen = new Map<string, any>();
    for (const d of depts) {
      expect(sortedKeys(d)).toEqual(['assignable', 'id', 'name', 'object', 'parent_id', 'tier']);
      expect(d.id).toMatch(/^dept_/);
      expect(d.object).toBe('department');
      expect(typeof d.assignable).toBe('boolean');
      expect(d.tier).toBeGreaterThanOrEqual(1);
      expect(d.tier).toBeLessThanOrEqual(4);
      // Display order lists a parent before its children.
      if (d.tier === 1) expect(d.parent_id).toBeNull();
      else expect(seen.get(d.parent_id)?.tier).toBe(d.tier - 1);
      seen.set(d.id, d);
    }
    expect(Math.max(...depts.map((d) => d.tier))).toBe(4);
    // Only leaves can be assignable.
    const parents = new Set(depts.map((d) => d.parent_id));
    for (const d of depts) if (d.assignable) expect(parents.has(d.id)).toBe(false);
  });

  it('needs Accounting setup: View and shows only the caller company', async () => {
    expectForbidden(await call(sb, sb.keys['growth-reports'], 'GET', '/departments'));
    const growth = (await call(sb, sb.keys['growth-admin'], 'GET', '/departments')).body.data.map((d: any) => d.id);
    const startup = (await call(sb, sb.keys['startup-admin'], 'GET', '/departments')).body.data.map((d: any) => d.id);
    expect(startup.filter((id: string) => growth.includes(id))).toEqual([]);
  });
});
