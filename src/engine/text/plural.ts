// Counts in sentences: "1 call", "2 calls", "12,345 transactions". One rule for the whole add-in: the
// singular is for exactly one (or minus one: "shifted -1 month"), everything else takes the plural.

/** The noun alone, for sentences that put the count elsewhere: "Refreshed 3 of 4 blocks", "kept its/their". */
export function pluralNoun(n: number, one: string, many = `${one}s`): string {
  return Math.abs(n) === 1 ? one : many;
}

/** A count and its noun: plural(1, 'call') is "1 call", plural(2, 'PATCH', 'PATCHes') is "2 PATCHes". */
export function plural(n: number, one: string, many?: string): string {
  return `${n} ${pluralNoun(n, one, many)}`;
}

/**
 * The same with thousands separators, for counts that reach thousands (rows of a table): "12,345 rows".
 * Kept apart from plural so the sentences that print counts as plain digits stay as they are.
 */
export function pluralGrouped(n: number, one: string, many?: string): string {
  return `${n.toLocaleString('en-US')} ${pluralNoun(n, one, many)}`;
}
