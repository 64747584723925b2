import crypto from 'node:crypto';
import { call, type TestSandbox } from '../support/sandbox';

// Fixture look-ups for the transaction, job, account and card tests. They read the sandbox's database to
// find rows with a given shape (a transfer, a non-assignable department, ...); every behaviour under test
// still goes through HTTP.

export function all<T = any>(sb: TestSandbox, sql: string, ...args: unknown[]): T[] {
  return sb.running.ctx.db.prepare(sql).all(...args) as T[];
}

export function one<T = any>(sb: TestSandbox, sql: string, ...args: unknown[]): T {
  const row = sb.running.ctx.db.prepare(sql).get(...args) as T | undefined;
  if (row === undefined) throw new Error(`fixture not found: ${sql} ${JSON.stringify(args)}`);
  return row;
}

export const growth = (sb: TestSandbox) => sb.companies['growth-admin'];
export const startup = (sb: TestSandbox) => sb.companies['startup-admin'];

/** Ids of editable transactions (standard, visible, not deleted) of a company, oldest first after `offset`. */
export function standardIds(sb: TestSandbox, companyId: string, n: number, offset = 0): string[] {
  return all<{ id: string }>(
    sb,
    `SELECT id FROM transactions WHERE company_id = ? AND transaction_type = 'standard' AND hidden = 0 AND deleted = 0
      ORDER BY id LIMIT ? OFFSET ?`,
    companyId,
    n,
    offset,
  ).map((r) => r.id);
}

/** An assignable leaf department and a department that cannot be assigned. */
export function departments(sb: TestSandbox, companyId: string): { assignable: string[]; notAssignable: string } {
  const assignable = all<{ id: string }>(
    sb,
    `SELECT id FROM departments d WHERE company_id = ? AND assignable = 1
       AND NOT EXISTS (SELECT 1 FROM departments c WHERE c.parent_id = d.id) ORDER BY position`,
    companyId,
  ).map((r) => r.id);
  const notAssignable = one<{ id: string }>(
    sb,
    `SELECT id FROM departments d WHERE company_id = ?
       AND (assignable = 0 OR EXISTS (SELECT 1 FROM departments c WHERE c.parent_id = d.id)) ORDER BY position`,
    companyId,
  ).id;
  return { assignable, notAssignable };
}

export function categories(sb: TestSandbox, companyId: string): { selectable: string[]; notSelectable: string } {
  const selectable = all<{ id: string }>(sb, 'SELECT id FROM categories WHERE company_id = ? AND selectable = 1 ORDER BY tier, position', companyId).map(
    (r) => r.id,
  );
  const notSelectable = one<{ id: string }>(sb, 'SELECT id FROM categories WHERE company_id = ? AND selectable = 0', companyId).id;
  return { selectable, notSelectable };
}

export const newKey = () => crypto.randomUUID();

export function submit(sb: TestSandbox, key: string, body: unknown, idempotencyKey: string = newKey()) {
  return call(sb, key, 'POST', '/transactions/bulk/update', body, { 'Idempotency-Key': idempotencyKey });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls GET /jobs/{id} until `until` holds (default: a final status). */
export async function waitForJob(sb: TestSandbox, key: string, id: string, until = (job: any) => job.status === 'success' || job.status === 'failed') {
  for (let i = 0; i < 400; i++) {
    const res = await call(sb, key, 'GET', `/jobs/${id}`);
    if (res.status !== 200) throw new Error(`GET /jobs/${id}: ${res.status} ${JSON.stringify(res.body)}`);
    if (until(res.body)) return res.body;
    await sleep(25);
  }
  throw new Error(`job ${id} did not reach the expected state`);
}

/** Asserts an error response by status, code and (when given) param. */
export function expectError(res: { status: number; body: any }, status: number, code: string, param?: string): void {
  const got = { status: res.status, code: res.body?.error?.code, param: res.body?.error?.param };
  expect(param === undefined ? { ...got, param: undefined } : got).toEqual({ status, code, param });
}
