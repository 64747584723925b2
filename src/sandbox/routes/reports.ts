import { fiscalQuarterStart } from '../calendar';
import type { RouteModule, SandboxContext } from '../context';
import { callerOf } from '../context';
import { requirePermissions } from '../http/auth';
import { invalidDateRange } from '../http/errors';
import { optReportDate, queryOf } from '../http/params';
import { balanceSheet } from '../ledger/balanceSheet';
import { cashFlow } from '../ledger/cashFlow';
import { incomeStatement } from '../ledger/incomeStatement';
import { companyBooks } from '../ledger/reports';

type Query = ReturnType<typeof queryOf>;

/** start_date..end_date of a period report; absent or blank: the current (fiscal) quarter to today. */
function reportPeriod(ctx: SandboxContext, companyId: string, q: Query): { start: string; end: string } {
  const startParam = optReportDate(q, 'start_date');
  const endParam = optReportDate(q, 'end_date');
  const today = ctx.clock.today();
  const start = startParam ?? fiscalQuarterStart(today, companyBooks(ctx.db, companyId).fiscalYearStartMonth);
  const end = endParam ?? today;
  if (start > end) throw invalidDateRange();
  return { start, end };
}

export const reportsRoutes: RouteModule = (app, ctx) => {
  app.get('/reports/income_statement', async (req) => {
    const caller = callerOf(req);
    requirePermissions(caller, ['reports', 'view']);
    const { start, end } = reportPeriod(ctx, caller.companyId, queryOf(req));
    return incomeStatement(ctx.db, caller.companyId, start, end);
  });

  app.get('/reports/balance_sheet', async (req) => {
    const caller = callerOf(req);
    requirePermissions(caller, ['reports', 'view']);
    const date = optReportDate(queryOf(req), 'date') ?? ctx.clock.today();
    return balanceSheet(ctx.db, caller.companyId, date);
  });

  app.get('/reports/cash_flow', async (req) => {
    const caller = callerOf(req);
    requirePermissions(caller, ['reports', 'view']);
    const { start, end } = reportPeriod(ctx, caller.companyId, queryOf(req));
    return cashFlow(ctx.db, caller.companyId, start, end);
  });
};
