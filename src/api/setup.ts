import { checkFullList } from './paging';
import { CATEGORY_TEXT, checkText, checkTextOfEach, COMPANY_TEXT, DEPARTMENT_TEXT } from './textFields';
import { callOptions, type CallOptions, type Transport } from './transport';
import type { Category, Company, Department, FullList } from './types';

// Accounting setup and the company singleton. GET /company is also how the client learns which
// company its key belongs to, which the call meter needs to count per company.

export function categoriesApi(transport: Transport) {
  return {
    /** GET /categories: every category (tiers 1-3), ordered by tier, position, name. */
    list: async (opts?: CallOptions): Promise<FullList<Category>> => {
      const list = checkFullList((await transport.request<FullList<Category>>({ method: 'GET', path: '/categories', ...callOptions(opts) })).body, '/categories');
      checkTextOfEach(list.data, CATEGORY_TEXT, 'GET', '/categories');
      return list;
    },
  };
}

export function departmentsApi(transport: Transport) {
  return {
    /** GET /departments: every department, in display order. */
    list: async (opts?: CallOptions): Promise<FullList<Department>> => {
      const list = checkFullList((await transport.request<FullList<Department>>({ method: 'GET', path: '/departments', ...callOptions(opts) })).body, '/departments');
      checkTextOfEach(list.data, DEPARTMENT_TEXT, 'GET', '/departments');
      return list;
    },
  };
}

export function companyApi(transport: Transport) {
  return {
    /** GET /company. Also attributes the meter's counts to this company. */
    retrieve: async (opts?: CallOptions): Promise<Company> => {
      const company = checkText((await transport.request<Company>({ method: 'GET', path: '/company', ...callOptions(opts) })).body, COMPANY_TEXT, 'GET', '/company');
      if (typeof company.id === 'string' && company.id !== '') await transport.meter.setCompanyId(company.id);
      return company;
    },
  };
}
