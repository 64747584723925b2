import type { SandboxContext } from '../context';
import { nextCounter } from '../db/open';
import { rebuildTransactionEntries } from '../ledger/posting';
import type { Actions, Condition, Definition } from './definition';

// Applying a new rule to existing transactions (POST /rules with apply_to_existing). It runs after the
// 201 in chunks, so a broad rule over a large history neither delays the response nor blocks the server
// for long; the spec's 201 promises the rule is saved, not that history is done.

const CHUNK = 200;

/** SQL for one condition over `transactions t`. Text comparisons ignore case, as merchant names vary in case. */
function conditionSql(c: Condition): { sql: string; args: unknown[] } {
  if (c.field === 'merchant' || c.field === 'description') {
    const col = `lower(coalesce(t.${c.field}, ''))`;
    if (c.operator === 'equals') return { sql: `${col} = lower(?)`, args: [c.value] };
    if (c.operator === 'contains') return { sql: `instr(${col}, lower(?)) > 0`, args: [c.value] };
    return { sql: `substr(${col}, 1, length(?)) = lower(?)`, args: [c.value, c.value] };
  }
  if (c.field === 'amount_cents') {
    if (c.operator === 'between') return { sql: 't.amount_cents BETWEEN ? AND ?', args: [c.min, c.max] };
    const op = { equals: '=', greater_than: '>', less_than: '<' }[c.operator];
    return { sql: `t.amount_cents ${op} ?`, args: [c.value] };
  }
  return { sql: `t.${c.field} = ?`, args: [c.value] };
}

/**
 * Ids of the company's transactions a rule matches. Only standard, visible transactions: transfers and
 * splits are not editable, hidden and deleted ones are not the user's to change.
 */
export function matchingTransactionIds(ctx: SandboxContext, companyId: string, conditions: Condition[]): string[] {
  const parts = conditions.map(conditionSql);
  const where = parts.map((p) => p.sql).join(' AND ');
  const rows = ctx.db
    .prepare(
      `SELECT t.id FROM transactions t
        WHERE t.company_id = ? AND t.transaction_type = 'standard' AND t.hidden = 0 AND t.deleted = 0 AND ${where}
        ORDER BY t.id`,
    )
    .all(companyId, ...parts.flatMap((p) => p.args)) as { id: string }[];
  return rows.map((r) => r.id);
}

interface TxnState {
  merchant: string | null;
  category_id: string | null;
  department_id: string | null;
  department_source: string | null;
  spread: string | null;
}

function withActions(cur: TxnState, a: Actions): TxnState {
  return {
    merchant: a.merchant_name ?? cur.merchant,
    category_id: a.category_id ?? cur.category_id,
    department_id: a.department_id ?? cur.department_id,
    department_source: a.department_id !== undefined ? 'rule' : cur.department_source,
    spread: a.spread !== undefined ? JSON.stringify(a.spread) : cur.spread,
  };
}

const sameState = (a: TxnState, b: TxnState) =>
  a.merchant === b.merchant &&
  a.category_id === b.category_id &&
  a.department_id === b.department_id &&
  a.department_source === b.department_source &&
  a.spread === b.spread;

function applyChunk(ctx: SandboxContext, companyId: string, actions: Actions, ids: string[]): void {
  const { db } = ctx;
  const read = db.prepare(
    `SELECT merchant, category_id, department_id, department_source, spread FROM transactions
      WHERE id = ? AND company_id = ? AND transaction_type = 'standard' AND hidden = 0 AND deleted = 0`,
  );
  const write = db.prepare(
    `UPDATE transactions SET merchant = ?, category_id = ?, department_id = ?, department_source = ?, spread = ?,
            updated = ?, update_seq = ? WHERE id = ?`,
  );
  const now = ctx.clock.now();
  for (const id of ids) {
    const cur = read.get(id, companyId) as TxnState | undefined;
    if (!cur) continue;
    const next = withActions(cur, actions);
    if (sameState(cur, next)) continue;
    write.run(next.merchant, next.category_id, next.department_id, next.department_source, next.spread, now, nextCounter(db, companyId, 'update_seq'), id);
    rebuildTransactionEntries(db, id, now);
  }
}

const ruleIsLive = (ctx: SandboxContext, ruleId: string) =>
  ctx.db.prepare('SELECT 1 FROM rules WHERE id = ? AND deleted = 0').get(ruleId) !== undefined;

/**
 * Applies the rule's actions (as created) to the transactions it matches now, one chunk per turn of the
 * event loop. Stops when the rule is deleted meanwhile or the sandbox shuts down.
 */
export function applyRuleInBackground(ctx: SandboxContext, companyId: string, ruleId: string, def: Definition): void {
  let ids: string[] | undefined;
  const step = () => {
    try {
      if (!ctx.db.open || !ruleIsLive(ctx, ruleId)) return;
      ids ??= matchingTransactionIds(ctx, companyId, def.conditions);
      const chunk = ids.splice(0, CHUNK);
      if (chunk.length === 0) return;
      ctx.db.transaction(() => applyChunk(ctx, companyId, def.actions, chunk))();
      setImmediate(step);
    } catch (err) {
      // No request is left to answer; a crash here would take the whole sandbox down.
      console.error(`sandbox: applying rule ${ruleId} to existing transactions failed:`, err);
    }
  };
  setImmediate(step);
}
