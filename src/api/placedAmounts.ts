import { described, isRecord, type Json } from './answerShape';

// "Every monetary field name ends in _cents." A statement shows its amounts where it places them: in a section
// (its total_cents and each line's amount), or as one of the figures it names. An amount anywhere else in an
// answer, at any depth, would go missing unseen, and the checks between figures (sections add up to the
// change in cash, to net income) pass whenever what was dropped nets to zero. So each one is found and
// named by its path, and the reader refuses the answer rather than show a statement without it.

export interface Placement {
  /** Paths of the amounts shown outside sections: `net_income_cents`, `equity.retained_earnings.net_income_cents`. */
  readonly figures: readonly string[];
  /** The sections the statement shows, by their path in the answer. */
  readonly sections: ReadonlyMap<string, Json>;
  /** The amount of a section's line: `amount_cents`, or `balance_cents` on a balance sheet. */
  readonly entry: string;
}

const isCents = (v: unknown): boolean => typeof v === 'number' && Number.isSafeInteger(v);

/** Every amount of `report` the placement does not show, as `path value` (empty when all are placed). */
export function unplacedAmounts(report: Json, placement: Placement): string[] {
  const out: string[] = [];
  const sections = new Map([...placement.sections].map(([path, section]) => [section, path]));
  const walk = (value: unknown, path: string): void => {
    const section = sections.get(value as Json);
    if (section !== undefined) return walkSection(value as Json, path);
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${path}[${i}]`));
    else if (isRecord(value)) for (const [key, v] of Object.entries(value)) visit(key, v, path ? `${path}.${key}` : key);
  };
  const visit = (key: string, value: unknown, path: string): void => {
    if (!key.endsWith('_cents')) return walk(value, path);
    if (!placement.figures.includes(path) || !isCents(value)) out.push(`${path} ${described(value)}`);
  };
  const walkSection = (section: Json, path: string): void => {
    for (const [key, v] of Object.entries(section)) {
      if (key === 'categories') continue;
      if (key === 'total_cents') continue;
      visit(key, v, `${path}.${key}`);
    }
    (section.categories as unknown[]).forEach((line, i) => {
      const at = `${path}.categories[${i}]`;
      if (!isRecord(line) || !isCents(line[placement.entry])) out.push(`${at}.${placement.entry} ${described(isRecord(line) ? line[placement.entry] : line)}`);
      // A line the add-in cannot name (no category_id) could not be found by a formula asking for it.
      else if (typeof line.category_id !== 'string') out.push(`${at} (no category_id)`);
      else for (const [key, v] of Object.entries(line)) if (key !== placement.entry) visit(key, v, `${at}.${key}`);
    });
  };
  walk(report, '');
  return out;
}
