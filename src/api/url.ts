import { localError } from './errors';

export type QueryValue = string | number | boolean | null | undefined;
export type QueryParams = { [name: string]: QueryValue };

/**
 * Encodes a query string. undefined and null are left out (the API treats an absent parameter as "no
 * filter", and a parameter given twice is a 400, so nothing is ever repeated). Keys are sorted so the
 * same parameters always give the same string (the engine's cache keys rely on it).
 */
export function encodeQuery(query: QueryParams | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const name of Object.keys(query).sort()) {
    const value = query[name];
    if (value === undefined || value === null) continue;
    params.append(name, typeof value === 'string' ? value : String(value));
  }
  return params.toString();
}

/**
 * One id as a path segment. Empty, `.` and `..` (even percent-encoded) would be resolved away by URL
 * parsing and send the request, with the key, to a different endpoint, so they are refused here.
 */
export function pathSegment(value: string, param: string, method: string, pathTemplate: string): string {
  if (typeof value !== 'string' || value.trim() === '' || /^(\.|%2e){1,2}$/i.test(value)) {
    throw localError(`${param} must be a non-empty id.`, param, { method, path: pathTemplate, query: '' });
  }
  return encodeURIComponent(value);
}
