// The demo chart of accounts (three tiers) and department trees (four tiers). The second Growth company's
// chart is the template with a few differences (ChartVariant) and its tree overlaps the first's, so
// consolidation meets shared, one-sided and nearly matching paths. The third Growth company names and
// shapes its chart its own way (two revenue roots, cost of sales under an "Expenses" root, no "Operating
// Expenses" category), so templates that read a company's chart are tried on more than our demo's names.

import type { Db } from '../db/open';
import { newId } from '../ids';
import type { CashFlowClass, CategoryRole } from '../ledger/roles';
import type { CompanyKey } from './roster';
import type { Rand } from './util';

export type AccountType = 'asset' | 'liability' | 'equity' | 'revenue' | 'expense' | 'other_income' | 'other_expense' | 'tax';

interface CategoryTemplate {
  key: string;
  name: string;
  type: AccountType;
  parent?: string;
  role?: CategoryRole;
  cfc?: CashFlowClass;
  /** Default: leaves selectable, groups (anything with children) not. */
  selectable?: boolean;
}

// Order matters: siblings get positions in this order. Every balance-sheet category carries its own
// cash_flow_class (groups too, as the inherited default for categories added under them later).
const CATEGORY_TEMPLATE: CategoryTemplate[] = [
  // Assets
  { key: 'assets', name: 'Assets', type: 'asset', cfc: 'working_capital' },
  { key: 'current_assets', name: 'Current Assets', type: 'asset', parent: 'assets', cfc: 'working_capital' },
  { key: 'cash', name: 'Cash', type: 'asset', parent: 'current_assets', role: 'cash', cfc: 'cash', selectable: false },
  { key: 'ar', name: 'Accounts Receivable', type: 'asset', parent: 'current_assets', role: 'accounts_receivable', cfc: 'working_capital' },
  { key: 'prepaid', name: 'Prepaid Expenses', type: 'asset', parent: 'current_assets', role: 'prepaid_expenses', cfc: 'working_capital' },
  { key: 'fixed_assets', name: 'Fixed Assets', type: 'asset', parent: 'assets', cfc: 'investing' },
  { key: 'computer_equipment', name: 'Computer Equipment', type: 'asset', parent: 'fixed_assets', cfc: 'investing' },
  { key: 'furniture', name: 'Furniture & Fixtures', type: 'asset', parent: 'fixed_assets', cfc: 'investing' },
  { key: 'accum_depr', name: 'Accumulated Depreciation', type: 'asset', parent: 'fixed_assets', role: 'accumulated_depreciation', cfc: 'non_cash', selectable: false },
  // Liabilities
  { key: 'liabilities', name: 'Liabilities', type: 'liability', cfc: 'working_capital' },
  { key: 'current_liabilities', name: 'Current Liabilities', type: 'liability', parent: 'liabilities', cfc: 'working_capital' },
  { key: 'card_liability', name: 'Credit Cards Payable', type: 'liability', parent: 'current_liabilities', role: 'card_liability', cfc: 'working_capital', selectable: false },
  { key: 'ap', name: 'Accounts Payable', type: 'liability', parent: 'current_liabilities', cfc: 'working_capital' },
  { key: 'accrued', name: 'Accrued Liabilities', type: 'liability', parent: 'current_liabilities', role: 'accrued_liabilities', cfc: 'working_capital' },
  { key: 'intercompany', name: 'Intercompany Payable', type: 'liability', parent: 'current_liabilities', cfc: 'working_capital', selectable: false },
  { key: 'long_term_liabilities', name: 'Long-Term Liabilities', type: 'liability', parent: 'liabilities', cfc: 'financing' },
  { key: 'term_loan', name: 'Term Loan', type: 'liability', parent: 'long_term_liabilities', cfc: 'financing' },
  // Equity
  { key: 'equity', name: 'Equity', type: 'equity', cfc: 'financing' },
  { key: 'contributed_capital', name: 'Contributed Capital', type: 'equity', parent: 'equity', cfc: 'financing' },
  { key: 'preferred_stock', name: 'Preferred Stock', type: 'equity', parent: 'contributed_capital', cfc: 'financing' },
  { key: 'opening_equity', name: 'Opening Balance Equity', type: 'equity', parent: 'contributed_capital', role: 'opening_equity', cfc: 'financing', selectable: false },
  { key: 'retained_earnings', name: 'Retained Earnings', type: 'equity', parent: 'equity', role: 'retained_earnings', cfc: 'none', selectable: false },
  // Revenue
  { key: 'revenue', name: 'Revenue', type: 'revenue' },
  { key: 'subscription_revenue', name: 'Subscription Revenue', type: 'revenue', parent: 'revenue' },
  { key: 'platform_subscriptions', name: 'Platform Subscriptions', type: 'revenue', parent: 'subscription_revenue' },
  { key: 'enterprise_licenses', name: 'Enterprise Licenses', type: 'revenue', parent: 'subscription_revenue' },
  { key: 'services_revenue', name: 'Services Revenue', type: 'revenue', parent: 'revenue' },
  { key: 'implementation', name: 'Implementation Services', type: 'revenue', parent: 'services_revenue' },
  // Cost of revenue
  { key: 'cogs', name: 'Cost of Revenue', type: 'expense' },
  { key: 'hosting', name: 'Hosting & Infrastructure', type: 'expense', parent: 'cogs' },
  { key: 'cloud_hosting', name: 'Cloud Hosting', type: 'expense', parent: 'hosting' },
  { key: 'data_apis', name: 'Data & APIs', type: 'expense', parent: 'hosting' },
  // Operating expenses
  { key: 'opex', name: 'Operating Expenses', type: 'expense' },
  { key: 'payroll', name: 'Payroll & Benefits', type: 'expense', parent: 'opex' },
  { key: 'salaries', name: 'Salaries & Wages', type: 'expense', parent: 'payroll' },
  { key: 'payroll_taxes', name: 'Payroll Taxes', type: 'expense', parent: 'payroll' },
  { key: 'benefits', name: 'Benefits', type: 'expense', parent: 'payroll' },
  { key: 'contractors', name: 'Contractors', type: 'expense', parent: 'payroll' },
  { key: 'sales_marketing', name: 'Sales & Marketing', type: 'expense', parent: 'opex' },
  { key: 'advertising', name: 'Advertising', type: 'expense', parent: 'sales_marketing' },
  { key: 'events', name: 'Events & Conferences', type: 'expense', parent: 'sales_marketing' },
  { key: 'marketing_software', name: 'Marketing Software', type: 'expense', parent: 'sales_marketing' },
  { key: 'ga', name: 'General & Administrative', type: 'expense', parent: 'opex' },
  { key: 'rent', name: 'Rent', type: 'expense', parent: 'ga' },
  { key: 'software', name: 'Software Subscriptions', type: 'expense', parent: 'ga' },
  { key: 'office_supplies', name: 'Office Supplies', type: 'expense', parent: 'ga' },
  { key: 'professional_fees', name: 'Legal & Professional Fees', type: 'expense', parent: 'ga' },
  { key: 'insurance', name: 'Insurance', type: 'expense', parent: 'ga' },
  { key: 'bank_fees', name: 'Bank Fees', type: 'expense', parent: 'ga' },
  { key: 'travel', name: 'Travel', type: 'expense', parent: 'ga' },
  { key: 'meals', name: 'Meals & Entertainment', type: 'expense', parent: 'ga' },
  { key: 'depreciation_expense', name: 'Depreciation Expense', type: 'expense', parent: 'ga', role: 'depreciation_expense', selectable: false },
  { key: 'legacy_expenses', name: 'Legacy Expenses (do not use)', type: 'expense', parent: 'ga', selectable: false },
  // Other income / expense, taxes
  { key: 'other_income', name: 'Other Income', type: 'other_income' },
  { key: 'interest_income', name: 'Interest Income', type: 'other_income', parent: 'other_income' },
  { key: 'other_expenses', name: 'Other Expenses', type: 'other_expense' },
  { key: 'interest_expense', name: 'Interest Expense', type: 'other_expense', parent: 'other_expenses' },
  { key: 'taxes', name: 'Taxes', type: 'tax' },
  { key: 'federal_tax', name: 'Federal Income Tax', type: 'tax', parent: 'taxes' },
  { key: 'state_tax', name: 'State Income & Franchise Tax', type: 'tax', parent: 'taxes' },
  // Uncategorized: tier-1 roots of their own (the optional report sections)
  { key: 'uncategorized_income', name: 'Uncategorized Income', type: 'revenue', role: 'uncategorized_income', selectable: false },
  { key: 'uncategorized_expense', name: 'Uncategorized Expense', type: 'expense', role: 'uncategorized_expense', selectable: false },
];

export type CategoryKey = string;

/**
 * How a company's chart differs from CATEGORY_TEMPLATE. Consolidation matches lines across companies by
 * name path, case- and space-insensitively, so a variant gives it every case: paths both charts have,
 * paths only one has, and paths that differ only in case or spacing.
 */
interface ChartVariant {
  /** New names of template categories, in the same place of the tree. */
  rename: Record<CategoryKey, string>;
  /** Template categories the company lacks, each with the key that takes its postings (null: nothing posts to it). */
  lacks: Record<CategoryKey, CategoryKey | null>;
  /** Categories only the company has, each placed right after a template category. */
  adds: (CategoryTemplate & { after: CategoryKey })[];
  /** New parents of template categories (null: a root); a parent is always inserted before its children. */
  moves?: Record<CategoryKey, CategoryKey | null>;
}

const CHART_VARIANTS: Partial<Record<CompanyKey, ChartVariant>> = {
  growth2: {
    rename: {
      office_supplies: 'Office supplies', // differs from Northwind's only in case
      bank_fees: 'Bank  Fees', // differs only in spacing
      events: 'Trade Shows',
    },
    lacks: { data_apis: 'cloud_hosting', intercompany: null },
    adds: [
      { after: 'contractors', key: 'sales_commissions', name: 'Sales Commissions', type: 'expense', parent: 'payroll' },
      { after: 'interest_income', key: 'grant_income', name: 'Grant Income', type: 'other_income', parent: 'other_income' },
    ],
  },
  growth3: {
    rename: {
      cash: 'Bank & Cash',
      subscription_revenue: 'Sales',
      platform_subscriptions: 'Product Sales',
      enterprise_licenses: 'Licences',
      services_revenue: 'Services Income',
      implementation: 'Onboarding Fees',
      cogs: 'Cost of sales',
      cloud_hosting: 'Servers & Hosting',
      data_apis: 'Data Feeds',
      payroll: 'People',
      salaries: 'Wages',
      sales_marketing: 'Marketing & Sales',
      ga: 'Overheads',
      rent: 'Premises',
      other_income: 'Finance Income',
    },
    // The template's groups it has no place for; nothing posts to a group.
    lacks: { revenue: 'subscription_revenue', opex: null, hosting: 'cloud_hosting', intercompany: null },
    adds: [{ after: 'implementation', key: 'expenses', name: 'Expenses', type: 'expense' }],
    moves: {
      subscription_revenue: null,
      services_revenue: null,
      cogs: 'expenses',
      cloud_hosting: 'cogs',
      data_apis: 'cogs',
      payroll: 'expenses',
      sales_marketing: 'expenses',
      ga: 'expenses',
    },
  },
};

/** The company's categories in insertion order (the template itself for a company without a variant). */
function chartOf(company: CompanyKey): CategoryTemplate[] {
  const v = CHART_VARIANTS[company];
  if (!v) return CATEGORY_TEMPLATE;
  const out: CategoryTemplate[] = [];
  const moves = v.moves ?? {};
  for (const c of CATEGORY_TEMPLATE) {
    if (!(c.key in v.lacks)) {
      const placed = c.key in moves ? { ...c, parent: moves[c.key] ?? undefined } : c;
      out.push(v.rename[c.key] === undefined ? placed : { ...placed, name: v.rename[c.key] });
    }
    for (const { after, ...added } of v.adds) if (after === c.key) out.push(added);
  }
  return out;
}

/**
 * Inserts the company's chart; returns category ids by template key. A key the company lacks maps to
 * the category that takes its postings, so the feed, rules and journal can name template keys throughout.
 */
export function seedCategories(db: Db, companyId: string, company: CompanyKey, rand: Rand, created: number): Map<CategoryKey, string> {
  const chart = chartOf(company);
  const ids = new Map<string, string>();
  const tiers = new Map<string, number>();
  const hasChildren = new Set(chart.filter((c) => c.parent).map((c) => c.parent as string));
  const siblingCount = new Map<string, number>();
  const insert = db.prepare(
    `INSERT INTO categories (id, company_id, name, account_type, point_in_time, tier, position, parent_id, selectable, role, cash_flow_class, created)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const c of chart) {
    const id = newId('cat', rand);
    ids.set(c.key, id);
    const tier = c.parent ? (tiers.get(c.parent) as number) + 1 : 1;
    tiers.set(c.key, tier);
    const parentKey = c.parent ?? '';
    const position = (siblingCount.get(parentKey) ?? 0) + 1;
    siblingCount.set(parentKey, position);
    const pit = c.type === 'asset' || c.type === 'liability' || c.type === 'equity';
    const selectable = c.selectable ?? !hasChildren.has(c.key);
    insert.run(
      id,
      companyId,
      c.name,
      c.type,
      pit ? 1 : 0,
      tier,
      position,
      c.parent ? ids.get(c.parent) : null,
      selectable ? 1 : 0,
      c.role ?? null,
      pit ? (c.cfc ?? null) : null,
      created,
    );
  }
  for (const [key, into] of Object.entries(CHART_VARIANTS[company]?.lacks ?? {})) {
    if (into !== null) ids.set(key, ids.get(into) as string);
  }
  return ids;
}

// --- departments ------------------------------------------------------------------------------------

interface DeptTemplate {
  key: string;
  name: string;
  children?: DeptTemplate[];
  /** Leaves default to assignable; set false for a retired leaf. */
  assignable?: boolean;
}

const GROWTH_DEPARTMENTS: DeptTemplate = {
  key: 'company',
  name: 'Northwind Analytics',
  children: [
    {
      key: 'gtm',
      name: 'Go-to-Market',
      children: [
        { key: 'sales', name: 'Sales', children: [{ key: 'sales_east', name: 'Sales East' }, { key: 'sales_west', name: 'Sales West' }, { key: 'sales_central', name: 'Sales Central (retired)', assignable: false }] },
        { key: 'marketing', name: 'Marketing', children: [{ key: 'demand_gen', name: 'Demand Generation' }, { key: 'brand', name: 'Brand & Content' }] },
        { key: 'cs', name: 'Customer Success', children: [{ key: 'support', name: 'Support' }, { key: 'cs_ops', name: 'Operations' }] },
      ],
    },
    {
      key: 'rnd',
      name: 'Research & Development',
      children: [
        { key: 'engineering', name: 'Engineering', children: [{ key: 'platform', name: 'Platform' }, { key: 'data_science', name: 'Data Science' }, { key: 'infrastructure', name: 'Infrastructure' }] },
        { key: 'product', name: 'Product', children: [{ key: 'pm', name: 'Product Management' }, { key: 'design', name: 'Design' }] },
      ],
    },
    {
      key: 'gna',
      name: 'General & Administrative',
      children: [
        { key: 'finance', name: 'Finance', children: [{ key: 'accounting', name: 'Accounting' }, { key: 'fin_ops', name: 'Operations' }] },
        { key: 'people', name: 'People', children: [{ key: 'recruiting', name: 'Recruiting' }, { key: 'workplace', name: 'Workplace' }] },
        { key: 'legacy_projects', name: 'Legacy Projects', assignable: false },
      ],
    },
  ],
};

// Westbrook's tree overlaps Northwind's: the same three branches and most teams, no Customer Success or
// Data Science, teams of its own (Partnerships, Mobile, a retired Field Sales), and one name that differs
// only in case (Brand & content).
const GROWTH2_DEPARTMENTS: DeptTemplate = {
  key: 'company',
  name: 'Westbrook Software',
  children: [
    {
      key: 'gtm',
      name: 'Go-to-Market',
      children: [
        { key: 'sales', name: 'Sales', children: [{ key: 'sales_east', name: 'Sales East' }, { key: 'sales_west', name: 'Sales West' }, { key: 'partnerships', name: 'Partnerships' }, { key: 'field_sales', name: 'Field Sales (retired)', assignable: false }] },
        { key: 'marketing', name: 'Marketing', children: [{ key: 'demand_gen', name: 'Demand Generation' }, { key: 'brand', name: 'Brand & content' }] },
      ],
    },
    {
      key: 'rnd',
      name: 'Research & Development',
      children: [
        { key: 'engineering', name: 'Engineering', children: [{ key: 'platform', name: 'Platform' }, { key: 'infrastructure', name: 'Infrastructure' }, { key: 'mobile', name: 'Mobile' }] },
        { key: 'product', name: 'Product', children: [{ key: 'pm', name: 'Product Management' }, { key: 'design', name: 'Design' }] },
      ],
    },
    {
      key: 'gna',
      name: 'General & Administrative',
      children: [
        { key: 'finance', name: 'Finance', children: [{ key: 'accounting', name: 'Accounting' }, { key: 'fin_ops', name: 'Operations' }] },
        { key: 'people', name: 'People', children: [{ key: 'recruiting', name: 'Recruiting' }, { key: 'workplace', name: 'Workplace' }] },
      ],
    },
  ],
};

// Alderbrook's tree shares no branch name with the others: Commercial, Product and Corporate, teams of its
// own, and leaves at the third tier beside leaves at the fourth.
const GROWTH3_DEPARTMENTS: DeptTemplate = {
  key: 'company',
  name: 'Alderbrook Labs',
  children: [
    {
      key: 'commercial',
      name: 'Commercial',
      children: [
        { key: 'sales', name: 'Sales', children: [{ key: 'sales_east', name: 'New Business' }, { key: 'sales_west', name: 'Account Management' }] },
        { key: 'marketing', name: 'Growth Marketing', children: [{ key: 'demand_gen', name: 'Campaigns' }, { key: 'brand', name: 'Content' }] },
        { key: 'support', name: 'Customer Care' },
      ],
    },
    {
      key: 'product_org',
      name: 'Product',
      children: [
        { key: 'engineering', name: 'Engineering', children: [{ key: 'platform', name: 'Core Platform' }, { key: 'infrastructure', name: 'Site Reliability' }] },
        { key: 'design', name: 'Design' },
      ],
    },
    {
      key: 'corporate',
      name: 'Corporate',
      children: [{ key: 'finance', name: 'Finance' }, { key: 'people', name: 'People & Talent' }, { key: 'legal', name: 'Legal' }],
    },
  ],
};

const DEPARTMENT_TREES: Partial<Record<CompanyKey, DeptTemplate>> = {
  growth: GROWTH_DEPARTMENTS,
  growth2: GROWTH2_DEPARTMENTS,
  growth3: GROWTH3_DEPARTMENTS,
};

function smallDepartments(companyName: string): DeptTemplate {
  return {
    key: 'company',
    name: companyName,
    children: [
      {
        key: 'rnd',
        name: 'Product & Engineering',
        children: [{ key: 'engineering', name: 'Engineering', children: [{ key: 'platform', name: 'Platform' }, { key: 'design', name: 'Design' }] }],
      },
      {
        key: 'business',
        name: 'Business',
        children: [
          { key: 'gtm', name: 'Go-to-Market', children: [{ key: 'sales_east', name: 'Sales' }, { key: 'cs_ops', name: 'Operations' }] },
          { key: 'finance', name: 'Finance & Admin', children: [{ key: 'fin_ops', name: 'Operations' }, { key: 'legacy_projects', name: 'Legacy', assignable: false }] },
        ],
      },
    ],
  };
}

export interface DepartmentSet {
  ids: Map<string, string>;
  /** Ids of the assignable leaves. */
  assignable: string[];
}

/** Inserts the company's department tree (its root named after the company) depth-first (position = display order). */
export function seedDepartments(db: Db, companyId: string, company: CompanyKey, companyName: string, rand: Rand, created: number): DepartmentSet {
  const tree = DEPARTMENT_TREES[company];
  const root = tree ? { ...tree, name: companyName } : smallDepartments(companyName);
  const insert = db.prepare(
    'INSERT INTO departments (id, company_id, name, tier, parent_id, position, assignable, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const ids = new Map<string, string>();
  const assignable: string[] = [];
  let position = 0;
  const walk = (d: DeptTemplate, tier: number, parentId: string | null) => {
    const id = newId('dept', rand);
    ids.set(d.key, id);
    const leaf = !d.children || d.children.length === 0;
    const canAssign = leaf && d.assignable !== false;
    if (canAssign) assignable.push(id);
    position += 1;
    insert.run(id, companyId, d.name, tier, parentId, position, canAssign ? 1 : 0, created);
    for (const c of d.children ?? []) walk(c, tier + 1, id);
  };
  walk(root, 1, null);
  return { ids, assignable };
}
