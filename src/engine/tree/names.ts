// The one way names and paths of categories and departments are compared: without case, spacing or
// Unicode-form differences, a path segment by segment. Formula arguments, the Department cells of a
// transactions table and the department directory all go through here, so "co>finance >  OPERATIONS"
// means the same thing everywhere.

export const PATH_SEPARATOR = ' > ';

/** Case-insensitive, whitespace-insensitive form of a name or path segment. */
export function normalizeName(text: string): string {
  return text.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();
}

/** The segments of a typed path ('>' between names), each normalised; '' where a name is missing. */
export function pathSegments(text: string): string[] {
  return text.split('>').map(normalizeName);
}

/** A whole path as compared: "Co>Finance >  OPERATIONS" -> "co > finance > operations". */
export function normalizePath(text: string): string {
  return pathSegments(text).join(PATH_SEPARATOR);
}
