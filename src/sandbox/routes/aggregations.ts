import { isIsoDate, monthEnd, monthOf, monthStart } from '../calendar';
import type { RouteModule } from '../context';
import { callerOf } from '../context';
import type { Db } from '../db/open';
import { requirePermissions } from '../http/auth';
import { ApiError, invalidDate, invalidRequest, parameterMissing, resourceMissing } from '../http/errors';
import { optString, queryOf } from '../http/params';
import { companyBooks } from '../ledger/reports';
import { categoryTotal } from '../ledger/totals';
import { loadChart, type CategoryNode, type Chart } from '../ledger/tree';

type Query = ReturnType<typeof queryOf>;

/** A query parameter, with a blank value treated as absent. */
function given(q: Query, name: string): string | undefined {
  const v = optString(q, name);
  return v === undefined || v.trim() === '' ? undefined : v;
}

/**
 * The required category parameter of /aggregations/total and /parties/merchants. Any id that is not a
 * category of the caller's company (malformed, unknown, another company's, a cash-flow grp_ id) is 404.
 */
export function categoryParam(db: Db, companyId: string, q: Query): { chart: Chart; node: CategoryNode } {
  const id = given(q, 'category_id');
  if (id === undefined) throw parameterMissing('category_id');
  const chart = loadChart(db, companyId);
  const node = chart.byId.get(id);
  if (!node) throw resourceMissing(`No such category: '${id.slice(0, 80)}'.`, 'category_id');
  return { chart, node };
}

/** The month (YYYY-MM) of a full-date parameter; the day is checked, then ignored. */
function monthOfDateParam(value: string, param: string): string {
  if (!isIsoDate(value)) throw invalidDate(param, value);
  return monthOf(value);
}

function monthParam(value: string, param: string): string {
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(value)) {
    throw new ApiError(400, 'invalid_request_error', 'invalid_date', `Invalid month for ${param}: '${value}'. Use YYYY-MM.`, param);
  }
  return value;
}

function required(q: Query, name: string): string {
  const v = given(q, name);
  if (v === undefined) throw parameterMissing(name);
  return v;
}

type Window = { kind: 'periodic'; startMonth: string; endMonth: string } | { kind: 'point_in_time'; month: string };

/**
 * The months a total covers. Periodic categories take start_date + end_date (or the deprecated
 * start_month + end_month); point-in-time categories take date (or the deprecated end_month, the month
 * the balance is taken at). Month and full-date parameters never mix.
 */
function totalWindow(q: Query, node: CategoryNode): Window {
  const present = (names: string[]) => names.filter((n) => given(q, n) !== undefined);
  const monthNames = present(['start_month', 'end_month']);
  const dateNames = present(['start_date', 'end_date', 'date']);
  if (monthNames.length > 0 && dateNames.length > 0) {
    throw invalidRequest('Send either start_month/end_month or full dates (start_date, end_date, date), not both.', monthNames[0]);
  }
  if (node.pointInTime) {
    const wrong = present(['start_date', 'end_date', 'start_month'])[0];
    if (wrong) throw invalidRequest(`Category ${node.id} is point in time: send date (YYYY-MM-DD), not ${wrong}.`, wrong);
    if (monthNames.length > 0) return { kind: 'point_in_time', month: monthParam(required(q, 'end_month'), 'end_month') };
    return { kind: 'point_in_time', month: monthOfDateParam(required(q, 'date'), 'date') };
  }
  if (given(q, 'date') !== undefined) {
    throw invalidRequest(`Category ${node.id} is periodic: send start_date and end_date, not date.`, 'date');
  }
  const [startName, endName] = monthNames.length > 0 ? ['start_month', 'end_month'] : ['start_date', 'end_date'];
  const startRaw = required(q, startName);
  const endRaw = required(q, endName);
  const parse = monthNames.length > 0 ? monthParam : monthOfDateParam;
  const startMonth = parse(startRaw, startName);
  const endMonth = parse(endRaw, endName);
  if (startMonth > endMonth) {
    throw new ApiError(400, 'invalid_request_error', 'invalid_date_range', `${startName} must not be in a later month than ${endName}.`, startName);
  }
  return { kind: 'periodic', startMonth, endMonth };
}

export const aggregationsRoutes: RouteModule = (app, ctx) => {
  app.get('/aggregations/total', async (req) => {
    const caller = callerOf(req);
    requirePermissions(caller, ['reports', 'view']);
    const q = queryOf(req);
    const { chart, node } = categoryParam(ctx.db, caller.companyId, q);
    const window = totalWindow(q, node);
    const merchant = optString(q, 'merchant') ?? null;
    const periodic = window.kind === 'periodic';
    const from = periodic ? monthStart(window.startMonth) : null;
    const to = monthEnd(periodic ? window.endMonth : window.month);
    const total = categoryTotal(ctx.db, caller.companyId, chart, node, from, to, merchant, { withoutComputedEarnings: ctx.settings.totalsWithoutComputedEarnings });
    return {
      object: 'aggregation_total',
      category_id: node.id,
      total_cents: total.totalCents,
      currency: companyBooks(ctx.db, caller.companyId).currency,
      start_date: from,
      end_date: periodic ? to : null,
      start_month: periodic ? window.startMonth : null,
      end_month: periodic ? window.endMonth : null,
      date: periodic ? null : to,
      month: periodic ? null : window.month,
      merchant,
      refreshed_at: total.refreshedAt,
    };
  });
};
