import type { RouteModule } from '../context';
import { callerOf } from '../context';
import { requirePermissions } from '../http/auth';

interface CompanyRow {
  id: string;
  name: string;
  legal_name: string;
  entity_type: string;
  federal_ein_last4: string;
  incorporation_date: string | null;
  incorporation_state: string | null;
  address_line_1: string | null;
  address_line_2: string | null;
  address_city: string | null;
  address_state: string | null;
  address_postal_code: string | null;
  address_country: string | null;
  created: number;
}

function toCompany(r: CompanyRow) {
  return {
    id: r.id,
    object: 'company',
    name: r.name,
    legal_name: r.legal_name,
    entity_type: r.entity_type,
    federal_ein_last4: r.federal_ein_last4,
    incorporation: { date: r.incorporation_date, state: r.incorporation_state },
    legal_address: {
      line_1: r.address_line_1,
      line_2: r.address_line_2,
      city: r.address_city,
      state: r.address_state,
      postal_code: r.address_postal_code,
      country: r.address_country,
    },
    created: r.created,
  };
}

export const companyRoutes: RouteModule = (app, ctx) => {
  app.get('/company', async (req) => {
    const caller = callerOf(req);
    requirePermissions(caller, ['company', 'view']);
    const row = ctx.db.prepare('SELECT * FROM companies WHERE id = ?').get(caller.companyId) as CompanyRow;
    return toCompany(row);
  });
};
