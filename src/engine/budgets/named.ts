// A line of the budget by what a formula names, read from the budget alone: FIN.BUDGET never asks the API, not
// even for the chart of accounts, so it matches the text against the budget's own names and paths. A name or a
// path matches a line when the names of one run along the other's in order and both end on the same name ("Rent"
// meets "G&A > Rent"; "Operating Expenses > G&A > Rent", the formula helper's full path, meets a line typed
// "Rent" or "Operating Expenses > Rent"); a category the budget has no line for is the sum of the lines typed under it by
// path ("Payroll" sums "Payroll > Salaries" and "Payroll > Benefits"). Lines typed by name only cannot tell
// their parent: the message says so.

import { fail, ok, type Result } from '../result';
import { pathSegments, runsAlong } from '../tree';
import type { BudgetLine, BudgetSheet } from './sheet';

/** `segments` runs along `names` and ends before its last name: the line is typed under what was named. */
function under(names: readonly string[], segments: readonly string[]): boolean {
  for (let at = 0; at + segments.length < names.length; at++) {
    if (segments.every((s, i) => names[at + i] === s)) return true;
  }
  return false;
}

function quoted(labels: readonly string[]): string {
  const shown = labels.slice(0, 3).map((l) => `"${l}"`);
  return labels.length > 3 ? `${shown.join(', ')} and ${labels.length - 3} more` : shown.join(', ');
}

/** The budget lines a formula's category text stands for: its own line, else the lines typed under it. */
export function linesNamed(sheet: Pick<BudgetSheet, 'lines'>, text: unknown): Result<readonly BudgetLine[]> {
  if (typeof text !== 'string' || text.trim() === '') {
    return fail('Missing category: give the budget line\'s name or path, as in the budget\'s first column ("Rent", "Operating Expenses > Rent")');
  }
  const segments = pathSegments(text);
  if (segments.some((s) => s === '')) return fail(`Bad category path "${text.trim()}": a name is missing between the '>' signs`);
  const paths = sheet.lines.map((line) => ({ line, names: pathSegments(line.label) }));
  const own = paths.filter((p) => runsAlong(p.names, segments) || runsAlong(segments, p.names));
  if (own.length === 1) return ok([own[0].line]);
  if (own.length > 1) return fail(`"${text.trim()}" matches ${own.length} lines of the budget: ${quoted(own.map((p) => p.line.label))}; give the path`);
  // Lines under the category by their typed paths, each counted once (not again under another of them).
  const below = paths.filter((p) => under(p.names, segments));
  const top = below.filter((p) => !below.some((q) => q !== p && under(p.names, q.names)));
  if (top.length > 0) return ok(top.map((p) => p.line));
  return fail(`The budget has no line "${text.trim()}": add one, or type the lines under it as paths ("${text.trim()} > …"); FIN.BUDGET reads only the budget, not the chart of accounts`);
}
