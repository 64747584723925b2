import type { Caller, RouteModule, SandboxContext } from '../context';
import { callerOf } from '../context';
import { requirePermissions } from '../http/auth';
import { hasBody, isPlainObject, jsonObjectBody, rejectUnknownKeys } from '../http/body';
import { conflict, invalidRequest, resourceMissing } from '../http/errors';
import { pageOf, pageParams } from '../http/paging';
import { queryOf } from '../http/params';
import { newId } from '../ids';
import { applyRuleInBackground } from '../rules/apply';
import { checkReferences, definitionKey, parseActions, parseConditions, stableJson, type Definition } from '../rules/definition';

// Only rules the company's users made (owner 'user') exist for the API; provider-owned rules (global,
// internal, category- or department-owned) answer exactly like missing ones.

const RULE_ID = /^rule_[A-Za-z0-9]+$/;

interface RuleRow {
  seq: number;
  id: string;
  definition: string;
  created: number;
  updated: number;
}

/** The stored definition; tolerant of older stored shapes so a listing never fails on one rule. */
function storedDefinition(row: RuleRow): Definition {
  const raw = JSON.parse(row.definition) as unknown;
  const obj = isPlainObject(raw) ? raw : {};
  return {
    conditions: Array.isArray(obj.conditions) ? obj.conditions : [],
    actions: isPlainObject(obj.actions) ? obj.actions : {},
  } as Definition;
}

function toRule(row: RuleRow) {
  const def = storedDefinition(row);
  return { id: row.id, object: 'rule', conditions: def.conditions, actions: def.actions, created: row.created, updated: row.updated };
}

function checkRuleId(id: string): void {
  if (!RULE_ID.test(id)) throw invalidRequest(`Invalid rule id '${id}': expected rule_ followed by letters and digits.`, 'id');
}

const LIVE_USER_RULE = "company_id = ? AND owner = 'user' AND deleted = 0";

function findRule(ctx: SandboxContext, caller: Caller, id: string): RuleRow {
  const row = ctx.db.prepare(`SELECT * FROM rules WHERE id = ? AND ${LIVE_USER_RULE}`).get(id, caller.companyId) as RuleRow | undefined;
  if (!row) throw resourceMissing('Rule not found', 'id');
  return row;
}

/** The live user rule whose definition equals `def`, other than `exceptId`: a 409 names it. */
function rejectDuplicate(ctx: SandboxContext, caller: Caller, def: Definition, exceptId?: string): void {
  const key = definitionKey(def);
  const rows = ctx.db.prepare(`SELECT * FROM rules WHERE ${LIVE_USER_RULE}`).all(caller.companyId) as RuleRow[];
  const dup = rows.find((r) => r.id !== exceptId && definitionKey(storedDefinition(r)) === key);
  if (dup) throw conflict('duplicate_rule', `A rule with the same definition already exists: ${dup.id}.`);
}

/** Keyset position of a cursor (the id of the last rule of a page); a rule deleted since still works. */
function cursorPosition(ctx: SandboxContext, caller: Caller, cursor: string): { created: number; seq: number } {
  const row = ctx.db
    .prepare("SELECT created, seq FROM rules WHERE id = ? AND company_id = ? AND owner = 'user'")
    .get(cursor, caller.companyId) as { created: number; seq: number } | undefined;
  if (!row) throw resourceMissing(`Unusable cursor '${cursor}': restart the listing without starting_after.`, 'starting_after');
  return row;
}

export const rulesRoutes: RouteModule = (app, ctx) => {
  const { db } = ctx;

  app.get('/rules', async (req) => {
    const caller = callerOf(req);
    requirePermissions(caller, ['accounting_setup', 'view']);
    const { limit, startingAfter } = pageParams(queryOf(req));
    const after = startingAfter === undefined ? undefined : cursorPosition(ctx, caller, startingAfter);
    const keyset = after ? 'AND (created < ? OR (created = ? AND seq < ?))' : '';
    const rows = db
      .prepare(`SELECT * FROM rules WHERE ${LIVE_USER_RULE} ${keyset} ORDER BY created DESC, seq DESC LIMIT ?`)
      .all(caller.companyId, ...(after ? [after.created, after.created, after.seq] : []), limit + 1) as RuleRow[];
    return pageOf('/rules', rows, limit, toRule, (r) => r.id);
  });

  app.get('/rules/:id', async (req) => {
    const caller = callerOf(req);
    requirePermissions(caller, ['accounting_setup', 'view']);
    const { id } = req.params as { id: string };
    checkRuleId(id);
    return toRule(findRule(ctx, caller, id));
  });

  app.post('/rules', async (req, reply) => {
    const caller = callerOf(req);
    requirePermissions(caller, ['accounting_setup', 'manage']);
    const body = jsonObjectBody(req);
    const apply = body.apply_to_existing;
    if (apply !== undefined && typeof apply !== 'boolean') throw invalidRequest('apply_to_existing must be true or false.', 'apply_to_existing');
    if (apply === true) requirePermissions(caller, ['transactions', 'manage']);
    rejectUnknownKeys(body, ['conditions', 'actions', 'apply_to_existing']);
    const def: Definition = { conditions: parseConditions(body.conditions), actions: parseActions(body.actions) };
    const row = db.transaction(() => {
      checkReferences(db, caller.companyId, def);
      rejectDuplicate(ctx, caller, def);
      const now = ctx.clock.now();
      const id = newId('rule');
      db.prepare(
        `INSERT INTO rules (id, company_id, owner, definition, created_by, deleted, created, updated)
         VALUES (?, ?, 'user', ?, ?, 0, ?, ?)`,
      ).run(id, caller.companyId, stableJson(def), caller.userId, now, now);
      return findRule(ctx, caller, id);
    })();
    if (apply === true) applyRuleInBackground(ctx, caller.companyId, row.id, def);
    return reply.code(201).send(toRule(row));
  });

  // Changes future matching only: existing transactions keep what earlier rules did to them.
  app.patch('/rules/:id', async (req) => {
    const caller = callerOf(req);
    requirePermissions(caller, ['accounting_setup', 'manage']);
    const { id } = req.params as { id: string };
    checkRuleId(id);
    const current = storedDefinition(findRule(ctx, caller, id));
    const body = jsonObjectBody(req);
    rejectUnknownKeys(body, ['conditions', 'actions']);
    if (Object.keys(body).length === 0) throw invalidRequest('Nothing to change: send conditions, actions or both.');
    const def: Definition = {
      conditions: 'conditions' in body ? parseConditions(body.conditions) : current.conditions,
      actions: 'actions' in body ? parseActions(body.actions, current.actions) : current.actions,
    };
    return db.transaction(() => {
      const row = findRule(ctx, caller, id);
      const json = stableJson(def);
      if (json === stableJson(storedDefinition(row))) return toRule(row);
      checkReferences(db, caller.companyId, def);
      rejectDuplicate(ctx, caller, def, id);
      db.prepare('UPDATE rules SET definition = ?, updated = ? WHERE id = ?').run(json, ctx.clock.now(), id);
      return toRule(findRule(ctx, caller, id));
    })();
  });

  // Idempotent: a rule that is already gone (or never was this company's) is 204 too.
  app.delete('/rules/:id', async (req, reply) => {
    const caller = callerOf(req);
    requirePermissions(caller, ['accounting_setup', 'manage'], ['transactions', 'manage']);
    if (hasBody(req)) throw invalidRequest('DELETE /rules/{id} takes no request body.');
    const { id } = req.params as { id: string };
    checkRuleId(id);
    db.prepare(`UPDATE rules SET deleted = 1, updated = ? WHERE id = ? AND ${LIVE_USER_RULE}`).run(ctx.clock.now(), id, caller.companyId);
    return reply.code(204).send();
  });
};
