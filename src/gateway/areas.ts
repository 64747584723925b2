// The spec's Authentication table, read for GETs: which permission area proves a key's right to read an
// answer. Only these answers are shared; anything else (writes, connect polls that answer per person,
// jobs, paths the table does not name) is always relayed.

export type Area = 'company' | 'team' | 'accounting_setup' | 'integrations' | 'reports' | 'transactions';

const AREA_OF_FIRST_SEGMENT: Record<string, Area> = {
  company: 'company',
  team: 'team',
  categories: 'accounting_setup',
  departments: 'accounting_setup',
  rules: 'accounting_setup',
  integrations: 'integrations',
  reports: 'reports',
  journal_entries: 'reports',
  aggregations: 'reports',
  parties: 'reports',
  accounts: 'transactions',
  cards: 'transactions',
  transactions: 'transactions',
};

/** The segments of an API path (relative to /api/v1, query removed). */
function segments(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

/** The area a GET of `path` needs, or null when such an answer is never shared. */
export function shareableArea(method: string, path: string, query: URLSearchParams): Area | null {
  if (method !== 'GET') return null;
  const parts = segments(path);
  if (parts.length === 0) return null;
  // The incremental sync decides freshness itself (its watermark is the API's); its pages are never shared.
  if (parts[0] === 'transactions' && query.has('updated_after')) return null;
  // GET /integrations/{key}/connect reads the caller's own connection request: one person's answer.
  if (parts[0] === 'integrations' && parts.length > 1) return null;
  return AREA_OF_FIRST_SEGMENT[parts[0]] ?? null;
}

/** True for GET /company, the call that tells which company a key belongs to. */
export function isCompanyRead(method: string, path: string): boolean {
  const parts = segments(path);
  return method === 'GET' && parts.length === 1 && parts[0] === 'company';
}
