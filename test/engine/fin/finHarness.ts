// The FIN functions' harness: the add-in's runtime (test/support/runtime.ts) connected to a roster key of a
// test sandbox, with fast retries; its fetch counts the HTTP requests actually sent and its meter counts like
// the server does. Pass `stores` of an earlier harness to "reopen" the workbook.
import { calendarDateAt, isoToSerial, monthPeriod, type Period } from '../../../src/engine/dates';
import type { TestSandbox } from '../../support/sandbox';
import { testRuntime, type TestRuntime, type TestRuntimeOptions } from '../../support/runtime';

export interface FinHarness extends TestRuntime {
  /** Calls on this harness's meter this month. */
  meterCount(): Promise<number>;
}

export async function finHarness(sb: TestSandbox, label: string, options: Pick<TestRuntimeOptions, 'stores' | 'now'> = {}): Promise<FinHarness> {
  const rt = await testRuntime(sb, { ...options, label, clientOptions: { backoffBaseMs: 10, backoffCapMs: 50 } });
  return { ...rt, meterCount: () => rt.client.meter.count() };
}

/** The company's today and the last full calendar year (fully inside the seeded two years). */
export function lastFullYear(): number {
  return Number(calendarDateAt(Date.now()).slice(0, 4)) - 1;
}

export function monthsOf(year: number): Period[] {
  return Array.from({ length: 12 }, (_, i) => monthPeriod(year, i + 1));
}

export function serial(iso: string): number {
  const r = isoToSerial(iso, 1900);
  if (!r.ok) throw new Error(r.error);
  return r.value;
}
