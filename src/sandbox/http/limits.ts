import type { Db } from '../db/open';
import type { Clock } from '../clock';

export const PLAN_CAPS = { formation: 10, startup: 300, growth: 30000 } as const;
export const KEY_LIMIT_PER_WINDOW = 6000;
export const IP_LIMIT_PER_WINDOW = 120;
export const WINDOW_SECONDS = 60;

/** Fixed 60-second windows: each wall-clock minute has its own counter that resets in one step. */
export class BurstWindows {
  private window = -1;
  private counts = new Map<string, number>();

  constructor(private readonly clock: Clock) {}

  /** Counts one request for `bucket` and reports whether it is within `limit`. */
  hit(bucket: string, limit: number): { allowed: boolean; remaining: number; reset: number; retryAfter: number } {
    const nowMs = this.clock.nowMs();
    const w = Math.floor(nowMs / 1000 / WINDOW_SECONDS);
    if (w !== this.window) {
      this.window = w;
      this.counts.clear();
    }
    const n = (this.counts.get(bucket) ?? 0) + 1;
    this.counts.set(bucket, n);
    const reset = (w + 1) * WINDOW_SECONDS;
    return {
      allowed: n <= limit,
      remaining: Math.max(0, limit - n),
      reset,
      retryAfter: Math.max(1, Math.ceil(reset - nowMs / 1000)),
    };
  }
}

export function monthlyCap(company: { plan: string; monthly_cap_override: number | null }): number {
  if (company.monthly_cap_override !== null) return company.monthly_cap_override;
  return PLAN_CAPS[company.plan as keyof typeof PLAN_CAPS] ?? PLAN_CAPS.formation;
}

export function usageCount(db: Db, companyId: string, month: string): number {
  const row = db.prepare('SELECT count FROM usage WHERE company_id = ? AND month = ?').get(companyId, month) as
    | { count: number }
    | undefined;
  return row?.count ?? 0;
}

export function countUsage(db: Db, companyId: string, month: string): void {
  db.prepare(
    `INSERT INTO usage (company_id, month, count) VALUES (?, ?, 1)
     ON CONFLICT(company_id, month) DO UPDATE SET count = count + 1`,
  ).run(companyId, month);
}

export function setUsage(db: Db, companyId: string, month: string, count: number): void {
  db.prepare(
    `INSERT INTO usage (company_id, month, count) VALUES (?, ?, ?)
     ON CONFLICT(company_id, month) DO UPDATE SET count = excluded.count`,
  ).run(companyId, month, count);
}
