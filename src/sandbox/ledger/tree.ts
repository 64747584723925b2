import type { Db } from '../db/open';
import { prepared } from './sql';

// A company's chart of accounts as a tree, read once per request (a few hundred rows at most). Reports
// walk it depth-first, siblings ordered by position, so every statement lists categories in one order.

export interface CategoryNode {
  id: string;
  name: string;
  accountType: string;
  pointInTime: boolean;
  position: number;
  parentId: string | null;
  role: string | null;
  cashFlowClass: string | null;
  children: CategoryNode[];
}

export interface Chart {
  byId: Map<string, CategoryNode>;
  /** Every category, depth-first: a parent, then its children by position. */
  ordered: CategoryNode[];
  byRole: Map<string, CategoryNode>;
}

interface CategoryRow {
  id: string;
  name: string;
  account_type: string;
  point_in_time: number;
  position: number;
  parent_id: string | null;
  role: string | null;
  cash_flow_class: string | null;
}

const bySiblingOrder = (a: CategoryNode, b: CategoryNode) =>
  a.position - b.position || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) || (a.id < b.id ? -1 : 1);

export function loadChart(db: Db, companyId: string): Chart {
  const rows = prepared(
    db,
    `SELECT id, name, account_type, point_in_time, position, parent_id, role, cash_flow_class
       FROM categories WHERE company_id = ?`,
  ).all(companyId) as CategoryRow[];
  const byId = new Map<string, CategoryNode>();
  for (const r of rows) {
    byId.set(r.id, {
      id: r.id,
      name: r.name,
      accountType: r.account_type,
      pointInTime: r.point_in_time === 1,
      position: r.position,
      parentId: r.parent_id,
      role: r.role,
      cashFlowClass: r.cash_flow_class,
      children: [],
    });
  }
  const roots: CategoryNode[] = [];
  for (const node of byId.values()) {
    const parent = node.parentId === null ? undefined : byId.get(node.parentId);
    // A parent outside the company (or missing) cannot be shown: the category is treated as a root.
    if (parent && parent !== node) parent.children.push(node);
    else {
      node.parentId = null;
      roots.push(node);
    }
  }
  const ordered: CategoryNode[] = [];
  const seen = new Set<string>();
  const visit = (node: CategoryNode) => {
    if (seen.has(node.id)) return;
    seen.add(node.id);
    ordered.push(node);
    node.children.sort(bySiblingOrder);
    node.children.forEach(visit);
  };
  roots.sort(bySiblingOrder).forEach(visit);
  const byRole = new Map<string, CategoryNode>();
  for (const node of ordered) if (node.role && !byRole.has(node.role)) byRole.set(node.role, node);
  return { byId, ordered, byRole };
}

/** The node and all its descendants, depth-first. */
export function subtree(node: CategoryNode): CategoryNode[] {
  const out: CategoryNode[] = [];
  const walk = (n: CategoryNode) => {
    out.push(n);
    n.children.forEach(walk);
  };
  walk(node);
  return out;
}

/** The node itself, then its ancestors up to the root. */
export function selfAndAncestors(chart: Chart, node: CategoryNode): CategoryNode[] {
  const out: CategoryNode[] = [];
  const seen = new Set<string>();
  for (let n: CategoryNode | undefined = node; n && !seen.has(n.id); n = n.parentId ? chart.byId.get(n.parentId) : undefined) {
    seen.add(n.id);
    out.push(n);
  }
  return out;
}

/** cash_flow_class of the node, or of its nearest ancestor that has one; null when none has. */
export function effectiveCashFlowClass(chart: Chart, node: CategoryNode): string | null {
  return selfAndAncestors(chart, node).find((n) => n.cashFlowClass !== null)?.cashFlowClass ?? null;
}
