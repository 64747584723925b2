import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API_PREFIX } from './paging';

// The sandbox's two dialects. Where the spec says "not shown", docs/api-decisions.md chose names and shapes
// (the `standard` dialect). The real API may have chosen others, just as consistent with the spec, so the
// sandbox can also answer every open point the add-in reads in a second way (`variant`): other names for
// the category parameter, the total's amount, the merchant item, the journal entry, its date filter, a job
// error's transaction, the cash flow's sections and cash figures, and the transaction's second sync field.
// The spec's own rules hold in both: documented names, `_cents` money, id prefixes, `object`, sections with
// `total_cents` and `categories`, and `param` naming a missing parameter. A third (`nested`) carries what
// the variant does not: a total with its parts (debit, credit and net amounts), journal lines that carry
// only the side they have and their department as an object (or null for none), and the cash flow's
// investing and financing sections in a container. The routes answer in the standard dialect; this module
// translates at the edge, so every dialect is the same books.

export type Dialect = 'standard' | 'variant' | 'nested';
export const DIALECTS: readonly Dialect[] = ['standard', 'variant', 'nested'];

type Json = Record<string, unknown>;

/** What the variant calls a query parameter that the standard dialect calls otherwise, per route. */
const PARAMETERS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  '/aggregations/total': { category_id: 'category' },
  '/parties/merchants': { category_id: 'category' },
  '/journal_entries': { start_date: 'posted_from', end_date: 'posted_to' },
};

function renamed(record: Json, names: Readonly<Record<string, string>>): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(record)) out[names[key] ?? key] = value;
  return out;
}

function withoutKeys(record: Json, keys: readonly string[]): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(record)) if (!keys.includes(key)) out[key] = value;
  return out;
}

function aggregationTotal(body: Json): Json {
  const { category_id, total_cents, ...rest } = body;
  return { ...rest, object: 'category_total', category: category_id, amount_cents: total_cents };
}

function merchant(item: Json): Json {
  return { object: 'merchant', merchant_name: item.name };
}

/** A signed amount per posting (debit positive), the entry's date, source, type and description renamed. */
function journalEntry(entry: Json): Json {
  const lines = Array.isArray(entry.lines) ? (entry.lines as Json[]) : [];
  return {
    id: entry.id,
    object: entry.object,
    posted_on: entry.date,
    source_transaction_id: entry.transaction_id,
    entry_type: entry.kind,
    description: entry.memo,
    created: entry.created,
    postings: lines.map((l) => ({
      category_id: l.category_id,
      department_id: l.department_id,
      amount_cents: (l.debit_cents as number) - (l.credit_cents as number),
    })),
  };
}

function job(body: Json): Json {
  const errors = body.errors as Json | undefined;
  if (!errors || !Array.isArray(errors.data)) return body;
  return { ...body, errors: { ...errors, data: (errors.data as Json[]).map((e) => renamed(e, { transaction_id: 'transaction' })) } };
}

/** Sections named without `_activities`; no net income, beginning or ending cash (the spec lists neither). */
function cashFlow(body: Json): Json {
  return renamed(withoutKeys(body, ['net_income_cents', 'beginning_cash_cents', 'ending_cash_cents']), {
    investing_activities: 'investing',
    financing_activities: 'financing',
  });
}

function transaction(t: Json): Json {
  return renamed(t, { updated: 'last_modified' });
}

function listOf(each: (item: Json) => Json): (body: Json) => Json {
  return (body) => (Array.isArray(body.data) ? { ...body, data: (body.data as Json[]).map(each) } : body);
}

/** A total with its parts: debit and credit amounts beside the signed net (credit positive), no total_cents. */
function totalWithParts(body: Json): Json {
  const { total_cents, ...rest } = body;
  const net = total_cents as number;
  return { ...rest, debit_cents: Math.max(-net, 0), credit_cents: Math.max(net, 0), net_cents: net };
}

/** Each line carries only the side it has, and its department as an object (null: none). */
function nestedJournalEntry(entry: Json): Json {
  const lines = Array.isArray(entry.lines) ? (entry.lines as Json[]) : [];
  return {
    ...entry,
    lines: lines.map(({ department_id, debit_cents, credit_cents, ...line }) => ({
      ...line,
      department: department_id ? { object: 'department', id: department_id } : null,
      ...(debit_cents && credit_cents ? { debit_cents, credit_cents } : credit_cents ? { credit_cents } : { debit_cents }),
    })),
  };
}

/** operating_activities where the spec documents it; investing and financing in a container of their own. */
function nestedCashFlow(body: Json): Json {
  const { investing_activities, financing_activities, ...rest } = body;
  return { ...rest, other_activities: { investing: investing_activities, financing: financing_activities } };
}

/** Answers (status 2xx) of the nested dialect, by route. */
const NESTED: Readonly<Record<string, (body: Json) => Json>> = {
  'GET /aggregations/total': totalWithParts,
  'GET /journal_entries': listOf(nestedJournalEntry),
  'GET /journal_entries/:id': nestedJournalEntry,
  'GET /reports/cash_flow': nestedCashFlow,
};

/** Answers (status 2xx) of the variant, by route. */
const ANSWERS: Readonly<Record<string, (body: Json) => Json>> = {
  'GET /aggregations/total': aggregationTotal,
  'GET /parties/merchants': listOf(merchant),
  'GET /journal_entries': listOf(journalEntry),
  'GET /journal_entries/:id': journalEntry,
  'GET /jobs/:id': job,
  'POST /transactions/bulk/update': job,
  'GET /reports/cash_flow': cashFlow,
  'GET /transactions': listOf(transaction),
  'GET /transactions/:id': transaction,
  'PATCH /transactions/:id': transaction,
};

function routeOf(req: FastifyRequest): string | null {
  const url = req.routeOptions.url;
  return url && url.startsWith(API_PREFIX) ? url.slice(API_PREFIX.length) : null;
}

/**
 * Makes `app` answer in `dialect`. Requests are read in the variant's names (its names replace the
 * standard ones, which it ignores as it ignores any unknown parameter), answers and the `param` of errors
 * are written in them.
 */
export function speakDialect(app: FastifyInstance, dialect: Dialect): void {
  if (dialect === 'standard') return;
  if (dialect === 'nested') {
    // The standard names in requests and errors; only the answers' shapes differ.
    app.addHook('onSend', async (req, reply, payload) => {
      const route = routeOf(req);
      const answer = route === null ? undefined : NESTED[`${req.method} ${route}`];
      if (!answer || reply.statusCode >= 400 || typeof payload !== 'string' || payload === '') return payload;
      return JSON.stringify(answer(JSON.parse(payload) as Json));
    });
    return;
  }

  app.addHook('preHandler', async (req) => {
    const route = routeOf(req);
    const names = route ? PARAMETERS[route] : undefined;
    if (!names) return;
    const query = req.query as Json;
    for (const [standard, variant] of Object.entries(names)) {
      delete query[standard];
      if (variant in query) {
        query[standard] = query[variant];
        delete query[variant];
      }
    }
  });

  app.addHook('onSend', async (req, reply, payload) => {
    const route = routeOf(req);
    if (route === null || typeof payload !== 'string' || payload === '') return payload;
    let body: Json;
    try {
      body = JSON.parse(payload) as Json;
    } catch {
      return payload;
    }
    if (reply.statusCode >= 400) {
      const error = body.error as Json | undefined;
      const names = PARAMETERS[route];
      if (!error || !names || typeof error.param !== 'string' || !(error.param in names)) return payload;
      const standard = error.param;
      const variant = names[standard];
      return JSON.stringify({ error: { ...error, param: variant, message: String(error.message).split(standard).join(variant) } });
    }
    const answer = ANSWERS[`${req.method} ${route}`];
    return answer ? JSON.stringify(answer(body)) : payload;
  });
}
