// Fault injection for tests (POST /__sandbox/control). Off by default. Faults apply after the request is
// authenticated and counted, so the monthly counter still equals what a client sent.

export type FaultKind = 'error500' | 'error429' | 'drop' | 'drop_after';

export interface FaultRule {
  kind: FaultKind;
  /** How many matching requests it still hits. */
  count: number;
  method?: string;
  /** Substring of the path (without query) that a request must contain. */
  path?: string;
  /** Seconds for Retry-After on error429 (default 1). */
  retry_after?: number;
}

export class Faults {
  latencyMs = 0;
  rate500 = 0;
  rate429 = 0;
  rateDrop = 0;
  rules: FaultRule[] = [];
  random: () => number = Math.random;

  clear(): void {
    this.latencyMs = 0;
    this.rate500 = 0;
    this.rate429 = 0;
    this.rateDrop = 0;
    this.rules = [];
  }

  /** The fault to apply to this request, consuming one count of a matching rule first. */
  pick(method: string, path: string): FaultRule | undefined {
    const rule = this.rules.find(
      (r) => r.count > 0 && (!r.method || r.method.toUpperCase() === method) && (!r.path || path.includes(r.path)),
    );
    if (rule) {
      rule.count -= 1;
      this.rules = this.rules.filter((r) => r.count > 0);
      return rule;
    }
    const x = this.random();
    if (x < this.rate500) return { kind: 'error500', count: 0 };
    if (x < this.rate500 + this.rate429) return { kind: 'error429', count: 0 };
    if (x < this.rate500 + this.rate429 + this.rateDrop) return { kind: 'drop', count: 0 };
    return undefined;
  }

  snapshot() {
    return { latency_ms: this.latencyMs, rate_500: this.rate500, rate_429: this.rate429, rate_drop: this.rateDrop, faults: this.rules };
  }
}
