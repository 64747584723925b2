import type { ReadRequest } from './requestCache';

/**
 * The reference lists (categories, departments, the company): no transaction changes them and no refresh of
 * figures needs them again, so only a refresh that asks for them fetches them.
 */
const REFERENCE_PATHS = new Set(['/categories', '/departments', '/company']);

export const isReferenceRead = (req: ReadRequest): boolean => REFERENCE_PATHS.has(req.path);
