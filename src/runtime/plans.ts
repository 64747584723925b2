import { planCap, type Plan } from '../api';

// The plans a company can be on, as the user picks and reads them: each has its monthly cap (src/api/meter.ts).

export const PLANS: readonly { key: Plan; label: string }[] = [
  { key: 'formation', label: 'Formation' },
  { key: 'startup', label: 'Startup' },
  { key: 'growth', label: 'Growth' },
];

export function planLabel(plan: Plan): string {
  return PLANS.find((p) => p.key === plan)?.label ?? plan;
}

export function isPlan(value: unknown): value is Plan {
  return typeof value === 'string' && planCap(value) !== undefined;
}
