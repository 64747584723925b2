// Answers that take more than one call: a walk over a list's pages kept as one answer (the journal activity
// of a period, src/engine/departments). Such a request carries `fin_walk` (what it is; never sent to the
// API), its answer carries `pages`, the calls it took, and `items`, what it walked. Every cost the add-in
// shows counts one call per request, so a walk is priced here instead:
//  - cached (due or not): the pages its answer took; fetched again, the same period walks about as far;
//  - not cached: the pages the period would take at the items per day of the company's other walks of the
//    same kind (their answers are kept); with none kept, one page, and the cost says it is a least.

import { requestKey, type ReadRequest } from './requestCache';

export const WALK_PARAM = 'fin_walk';

/** Items on one page of a walk: the API's largest page, which every walk asks for. */
export const WALK_PAGE_SIZE = 500;

export function walkKind(req: ReadRequest): string | undefined {
  const kind = req.query?.[WALK_PARAM];
  return typeof kind === 'string' && kind !== '' ? kind : undefined;
}

/** What a walk's answer says of itself: the calls it took, the items it read. */
export interface WalkFacts {
  pages: number;
  items: number;
}

export function walkFactsOf(value: unknown): WalkFacts | undefined {
  const v = value as { pages?: unknown; items?: unknown } | null;
  if (!v || typeof v !== 'object') return undefined;
  const { pages, items } = v;
  return Number.isSafeInteger(pages) && (pages as number) > 0 && Number.isSafeInteger(items) && (items as number) >= 0
    ? { pages: pages as number, items: items as number }
    : undefined;
}

const DAY_MS = 86_400_000;

/** Days of the request's period, both ends counted; undefined without two dates. */
export function walkDays(req: ReadRequest): number | undefined {
  const start = Date.parse(String(req.query?.start_date ?? ''));
  const end = Date.parse(String(req.query?.end_date ?? ''));
  if (!Number.isFinite(start) || !Number.isFinite(end) || end < start) return undefined;
  return Math.round((end - start) / DAY_MS) + 1;
}

/** Items per day of a kind of walk, from the walks known (each answer once). */
export class WalkDensity {
  private readonly known = new Map<string, { kind: string; items: number; days: number }>();

  note(req: ReadRequest, value: unknown): void {
    const kind = walkKind(req);
    const facts = walkFactsOf(value);
    const days = walkDays(req);
    if (kind && facts && days) this.known.set(requestKey(req), { kind, items: facts.items, days });
  }

  /** Items per day over every walk of the kind known, or undefined when none is. */
  perDay(kind: string): number | undefined {
    let items = 0;
    let days = 0;
    for (const k of this.known.values()) {
      if (k.kind !== kind) continue;
      items += k.items;
      days += k.days;
    }
    return days > 0 ? items / days : undefined;
  }
}

/** How a walk's cost is known: from its own answer, from the company's other walks ("about"), or not at all ("at least"). */
export type WalkEstimate = 'about' | 'at least';

/** What fetching a walk request again costs: `kept` its cached answer, if any. */
export function walkCalls(req: ReadRequest, kept: unknown, density: WalkDensity): { calls: number; estimated?: WalkEstimate } {
  const facts = kept === undefined ? undefined : walkFactsOf(kept);
  if (facts) return { calls: facts.pages };
  const kind = walkKind(req);
  const perDay = kind ? density.perDay(kind) : undefined;
  const days = walkDays(req);
  if (perDay === undefined || days === undefined) return { calls: 1, estimated: 'at least' };
  // A list that ends exactly on a page boundary still answers has_more: false on that page.
  return { calls: Math.max(1, Math.ceil((perDay * days + 1) / WALK_PAGE_SIZE)), estimated: 'about' };
}

/** The weaker of two estimates: a sum with one "at least" in it is at least. */
export function weaker(a: WalkEstimate | undefined, b: WalkEstimate | undefined): WalkEstimate | undefined {
  return a === 'at least' || b === 'at least' ? 'at least' : (a ?? b);
}
