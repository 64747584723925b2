import type { RouteModule } from '../context';
import { callerOf } from '../context';
import { requirePermissions } from '../http/auth';
import { fullList } from '../http/paging';

interface CategoryRow {
  id: string;
  name: string;
  account_type: string;
  point_in_time: number;
  tier: number;
  position: number;
  parent_id: string | null;
  created: number;
}

interface DepartmentRow {
  id: string;
  name: string;
  tier: number;
  parent_id: string | null;
  assignable: number;
}

export const setupRoutes: RouteModule = (app, ctx) => {
  const { db } = ctx;

  app.get('/categories', async (req) => {
    const caller = callerOf(req);
    requirePermissions(caller, ['accounting_setup', 'view']);
    const rows = db
      .prepare(
        `SELECT id, name, account_type, point_in_time, tier, position, parent_id, created
           FROM categories WHERE company_id = ? ORDER BY tier, position, name, id`,
      )
      .all(caller.companyId) as CategoryRow[];
    return fullList(
      '/categories',
      rows.map((r) => ({
        id: r.id,
        object: 'category',
        name: r.name,
        account_type: r.account_type,
        point_in_time: r.point_in_time === 1,
        tier: r.tier,
        position: r.position,
        parent_id: r.parent_id,
        created: r.created,
      })),
    );
  });

  app.get('/departments', async (req) => {
    const caller = callerOf(req);
    requirePermissions(caller, ['accounting_setup', 'view']);
    const rows = db
      .prepare('SELECT id, name, tier, parent_id, assignable FROM departments WHERE company_id = ? ORDER BY position, id')
      .all(caller.companyId) as DepartmentRow[];
    return fullList(
      '/departments',
      rows.map((r) => ({
        id: r.id,
        object: 'department',
        name: r.name,
        tier: r.tier,
        parent_id: r.parent_id,
        assignable: r.assignable === 1,
      })),
    );
  });
};
