import { call, startSandbox, type TestSandbox } from '../support/sandbox';
import { categoryNamed, expectError, ok, today } from './ledgerFixtures';
import { newKey, standardIds, submit, waitForJob } from './txnFixtures';

// The variant dialect (src/sandbox/http/dialect.ts): the same books as the standard dialect, answered with
// other names and shapes where the spec says "not shown", and the spec's own rules kept: `param` names the
// missing parameter, money is in `_cents` fields, ids keep their prefixes, sections keep their shape.

let standard: TestSandbox;
let variant: TestSandbox;
let admin: string;
let growth: string;
let Y: number;

beforeAll(async () => {
  [standard, variant] = await Promise.all([startSandbox(), startSandbox({ dialect: 'variant' })]);
  admin = standard.keys['growth-admin'];
  growth = standard.companies['growth-admin'];
  expect(variant.keys['growth-admin']).toBe(admin);
  Y = Number((await today(standard)).slice(0, 4)) - 1;
});
afterAll(async () => {
  await Promise.all([standard.close(), variant.close()]);
});

const centsFields = (o: object) => Object.keys(o).filter((k) => k.endsWith('_cents'));

describe('the category parameter of /aggregations/total and /parties/merchants', () => {
  it.each(['/aggregations/total', '/parties/merchants'])('%s: the standard name is ignored, and the missing one is named by param', async (path) => {
    const c = categoryNamed(standard, growth, 'Revenue');
    const res = await call(variant, admin, 'GET', `${path}?category_id=${c.id}&start_date=${Y}-01-01&end_date=${Y}-01-31`);
    expectError(res, 400, 'parameter_missing', 'category');
    expect(res.body.error.message).toContain('category');
    expect(res.body.error.message).not.toContain('category_id');
    expectError(await call(variant, admin, 'GET', `${path}?category=cat_nope&start_date=${Y}-01-01&end_date=${Y}-01-31`), 404, 'resource_missing', 'category');
  });
});

describe('answers', () => {
  it('a total carries its amount in the only _cents field, the same figure as the standard total_cents', async () => {
    const c = categoryNamed(standard, growth, 'Revenue');
    const q = `start_date=${Y}-01-01&end_date=${Y}-06-30`;
    const a = await ok(standard, admin, `/aggregations/total?category_id=${c.id}&${q}`);
    const b = await ok(variant, admin, `/aggregations/total?category=${c.id}&${q}`);
    expect(centsFields(b)).toEqual(['amount_cents']);
    expect(b.amount_cents).toBe(a.total_cents);
    expect(b.amount_cents).not.toBe(0);
    expect(b.category).toBe(c.id);
  });

  it('a merchant is an object whose only text field besides object is the name', async () => {
    const c = categoryNamed(standard, growth, 'Software Subscriptions');
    const a = await ok(standard, admin, `/parties/merchants?category_id=${c.id}&limit=20`);
    const b = await ok(variant, admin, `/parties/merchants?category=${c.id}&limit=20`);
    expect(b.data.map((m: { merchant_name: string }) => m.merchant_name)).toEqual(a.data.map((m: { name: string }) => m.name));
    expect(b.data.length).toBeGreaterThan(0);
    for (const m of b.data) expect(Object.keys(m).sort()).toEqual(['merchant_name', 'object']);
  });

  it('journal entries: other field names, one signed amount per posting, and a date range the standard names do not set', async () => {
    const c = categoryNamed(standard, growth, 'Revenue');
    const a = await ok(standard, admin, `/journal_entries?category_id=${c.id}&start_date=${Y}-03-01&end_date=${Y}-03-31&limit=5`);
    const b = await ok(variant, admin, `/journal_entries?category_id=${c.id}&posted_from=${Y}-03-01&posted_to=${Y}-03-31&limit=5`);
    expect(b.data.map((e: { id: string }) => e.id)).toEqual(a.data.map((e: { id: string }) => e.id));
    const [ea, eb] = [a.data[0], b.data[0]];
    expect(eb).toMatchObject({ id: ea.id, object: 'journal_entry', posted_on: ea.date, source_transaction_id: ea.transaction_id, entry_type: ea.kind, description: ea.memo });
    expect(eb.postings).toEqual(ea.lines.map((l: { category_id: string; department_id: string | null; debit_cents: number; credit_cents: number }) => ({
      category_id: l.category_id,
      department_id: l.department_id,
      amount_cents: l.debit_cents - l.credit_cents,
    })));
    // The standard names are unknown parameters here: ignored, so the list is not limited to March.
    const unfiltered = await ok(variant, admin, `/journal_entries?category_id=${c.id}&start_date=${Y}-03-01&end_date=${Y}-03-31&limit=5`);
    expect(unfiltered.data[0].posted_on < `${Y}-03-01`).toBe(true);
    expectError(await call(variant, admin, 'GET', `/journal_entries?posted_from=${Y}-03-31&posted_to=${Y}-03-01`), 400, 'invalid_date_range', 'posted_from');
    expect(await ok(variant, admin, `/journal_entries/${ea.id}`)).toEqual(eb);
  });

  it('a cash flow names its sections otherwise and gives no net income, beginning or ending cash', async () => {
    const q = `start_date=${Y}-01-01&end_date=${Y}-03-31`;
    const a = await ok(standard, admin, `/reports/cash_flow?${q}`);
    const b = await ok(variant, admin, `/reports/cash_flow?${q}`);
    expect(centsFields(b)).toEqual(['change_in_cash_cents']);
    expect(b.change_in_cash_cents).toBe(a.change_in_cash_cents);
    expect(b.operating_activities).toEqual(a.operating_activities);
    expect(b.investing).toEqual(a.investing_activities);
    expect(b.financing).toEqual(a.financing_activities);
    expect(b.investing_activities).toBeUndefined();
  });

  it('a transaction names its second sync field otherwise', async () => {
    const a = await ok(standard, admin, '/transactions?limit=1');
    const b = await ok(variant, admin, '/transactions?limit=1');
    expect(b.data[0].last_modified).toBe(a.data[0].updated);
    expect(b.data[0].updated).toBeUndefined();
    expect((await ok(variant, admin, `/transactions/${b.data[0].id}`)).last_modified).toBe(a.data[0].updated);
  });

  it("a failed job's errors carry the transaction's id in a field of another name", async () => {
    const ids = standardIds(variant, growth, 2);
    const res = await submit(variant, admin, { transaction_ids: ids, updates: { department_id: 'dept_not_assignable_anywhere' } }, newKey());
    expect(res.status).toBe(404);
    // An unassignable department fails the job per target (docs/api-decisions.md).
    const notAssignable = variant.running.ctx.db
      .prepare("SELECT id FROM departments WHERE company_id = ? AND assignable = 0 LIMIT 1")
      .get(growth) as { id: string };
    const submitted = await submit(variant, admin, { transaction_ids: ids, updates: { department_id: notAssignable.id } }, newKey());
    expect(submitted.status).toBe(202);
    const job = await waitForJob(variant, admin, submitted.body.id);
    expect(job.status).toBe('failed');
    expect(job.errors.data.length).toBe(2);
    for (const e of job.errors.data) {
      expect(Object.keys(e).sort()).toEqual(['code', 'message', 'transaction', 'type']);
      expect(ids).toContain(e.transaction);
    }
  });
});
