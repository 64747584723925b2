// Excel's row outline as the grid shows it: groups from per-row outline levels (summary rows below the
// detail, Excel's default), which rows a set of collapsed groups hides, and "show level n".

export interface OutlineGroup {
  /** 1 = outermost. */
  level: number;
  /** First and last detail row (0-based, inclusive). */
  start: number;
  end: number;
  /** Where Excel puts the +/- button: the row below the detail (the summary row). */
  summaryRow: number;
}

export function groupKey(g: Pick<OutlineGroup, 'level' | 'start'>): string {
  return `${g.level}:${g.start}`;
}

/** Groups of `levels` (levels[r] = outline level of row r). */
export function outlineGroups(levels: readonly number[]): OutlineGroup[] {
  const max = Math.max(0, ...levels);
  const groups: OutlineGroup[] = [];
  for (let level = 1; level <= max; level++) {
    let start = -1;
    for (let r = 0; r <= levels.length; r++) {
      const inside = r < levels.length && levels[r] >= level;
      if (inside && start < 0) start = r;
      if (!inside && start >= 0) {
        groups.push({ level, start, end: r - 1, summaryRow: r });
        start = -1;
      }
    }
  }
  return groups;
}

/** Rows hidden by the collapsed groups. */
export function hiddenRows(groups: readonly OutlineGroup[], collapsed: ReadonlySet<string>): Set<number> {
  const hidden = new Set<number>();
  for (const g of groups) {
    if (!collapsed.has(groupKey(g))) continue;
    for (let r = g.start; r <= g.end; r++) hidden.add(r);
  }
  return hidden;
}

/** Excel's level buttons: "1" shows only the outermost summaries, max+1 shows everything. */
export function collapseToLevel(groups: readonly OutlineGroup[], show: number): Set<string> {
  return new Set(groups.filter((g) => g.level >= show).map(groupKey));
}

export function maxLevel(groups: readonly OutlineGroup[]): number {
  return groups.reduce((m, g) => Math.max(m, g.level), 0);
}
