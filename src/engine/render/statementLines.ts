// Lines of one statement section across several periods, aligned by category id.
//
// Each period's report lists its own lines; side by side they must line up by category, and a category
// that exists in only some periods still gets its row. Rows follow the category tree (parents before
// children, siblings by position, ties by first appearance), because outline groups only work when a
// parent's children sit directly under it.

import { RenderError, assertCents } from './money';
import type { ReportLine, ReportSection } from './reportShapes';

export interface AlignedLine {
  readonly categoryId: string;
  /** The name from the first period that lists the category. */
  readonly name: string;
  /** The parent this row is drawn under; null at root, also when the named parent is not in the section. */
  readonly parentCategoryId: string | null;
  /** 0 for root lines. */
  readonly depth: number;
  readonly hasChildren: boolean;
  /** Cents per period, in period order; undefined where that period does not list the category. */
  readonly cents: readonly (number | undefined)[];
}

interface Node {
  readonly id: string;
  readonly name: string;
  readonly parent: string | null;
  readonly position: number;
  readonly seq: number;
  readonly cents: (number | undefined)[];
}

export type LineValueField = 'amount_cents' | 'balance_cents';

function lineCents(line: ReportLine, field: LineValueField, where: string): number {
  const value = line[field];
  assertCents(value, `${where} ${field} of ${line.category_id}`);
  return value;
}

/**
 * Aligns a section across periods. `sections[p]` is period p's section, or undefined/null when that
 * period's report does not have the section at all (the optional income statement sections).
 */
export function alignSectionLines(
  sections: readonly (ReportSection | null | undefined)[],
  field: LineValueField,
  sectionName: string,
): AlignedLine[] {
  const nodes = new Map<string, Node>();
  sections.forEach((section, p) => {
    if (!section) return;
    const seen = new Set<string>();
    for (const line of section.categories) {
      const id = line.category_id;
      if (typeof id !== 'string' || id === '') throw new RenderError(`${sectionName}: a line has no category_id`);
      if (seen.has(id)) {
        throw new RenderError(`${sectionName}: category ${id} is listed twice in period ${p + 1}`);
      }
      seen.add(id);
      const cents = lineCents(line, field, `${sectionName}:`);
      let node = nodes.get(id);
      if (!node) {
        node = {
          id,
          name: typeof line.name === 'string' ? line.name : id,
          parent: line.parent_category_id ?? null,
          position: Number.isFinite(line.position) ? line.position : Number.MAX_SAFE_INTEGER,
          seq: nodes.size,
          cents: new Array<number | undefined>(sections.length).fill(undefined),
        };
        nodes.set(id, node);
      }
      node.cents[p] = cents;
    }
  });

  const children = new Map<string | null, Node[]>();
  for (const node of nodes.values()) {
    const parent = node.parent !== null && node.parent !== node.id && nodes.has(node.parent) ? node.parent : null;
    const list = children.get(parent) ?? [];
    list.push(node);
    children.set(parent, list);
  }
  const bySiblingOrder = (a: Node, b: Node): number => a.position - b.position || a.seq - b.seq;
  for (const list of children.values()) list.sort(bySiblingOrder);

  const out: AlignedLine[] = [];
  const visited = new Set<string>();
  const visit = (node: Node, parent: string | null, depth: number): void => {
    if (visited.has(node.id)) return;
    visited.add(node.id);
    const kids = (children.get(node.id) ?? []).filter((k) => !visited.has(k.id));
    out.push({ categoryId: node.id, name: node.name, parentCategoryId: parent, depth, hasChildren: kids.length > 0, cents: node.cents });
    for (const kid of kids) visit(kid, node.id, depth + 1);
  };
  for (const root of children.get(null) ?? []) visit(root, null, 0);
  // Lines caught in a parent cycle are reachable from no root; draw them as roots rather than drop money.
  for (const node of [...nodes.values()].sort((a, b) => a.seq - b.seq)) visit(node, null, 0);
  return out;
}
