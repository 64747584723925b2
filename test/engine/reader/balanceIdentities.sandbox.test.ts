// Balance identities that rest on a choice the spec leaves open (issue 34, item 4): a point-in-time total of
// a subtree holding Retained Earnings (the sandbox lists it as a category and its total includes the computed
// earnings), and of an asset holding a credit balance (accumulated depreciation: "natural sign" read as debit
// minus credit). Each is verified once per company against the API before a total is derived from it: the
// first such total is the API's (1 call), the next ones derived (0 calls) when it matched. Where it does not
// hold (the sandbox's control for the other reading), such totals are always fetched and the refresh says why.
import type { Dialect } from '../../../src/sandbox/http/dialect';
import { lastFullYear } from '../fin/finHarness';
import { testRuntime, type TestRuntime } from '../../support/runtime';
import { startSandbox, type TestSandbox } from '../../support/sandbox';

const year = lastFullYear();
const [march, june, september] = [`${year}-03`, `${year}-06`, `${year}-09`];
const endOf = (month: string) => ({ '03': `${month}-31`, '06': `${month}-30`, '09': `${month}-30` })[month.slice(5)]!;

async function runtimes(sb: TestSandbox): Promise<{ rt: TestRuntime; truth: TestRuntime }> {
  const rt = await testRuntime(sb, {});
  const truth = await testRuntime(sb, {});
  await truth.runtime.setDerivation(false);
  // The balance sheets a board holds: what the totals are derived from.
  for (const m of [march, june, september]) await rt.service.balance({ category: 'Cash', date: endOf(m) });
  // A total fetched first: a dialect's parameter names are learnt on the first (docs/api-decisions.md).
  await rt.service.total({ category: 'Cash', start: `${year - 1}-12` });
  return { rt, truth };
}

/** A point-in-time total read by the add-in: its figure, the API's, and the calls it spent. */
async function total(rt: TestRuntime, truth: TestRuntime, category: string, month: string): Promise<{ mine: number; api: number; calls: number }> {
  const sent = rt.sent();
  const mine = await rt.service.total({ category, start: month });
  const calls = rt.sent() - sent;
  return { mine, api: await truth.service.total({ category, start: month }), calls };
}

describe.each(['standard', 'variant'] as Dialect[])('balance identities (%s dialect)', (dialect) => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox({ seed: 'fresh', transactions: 1500, dialect });
  }, 120_000);
  afterAll(async () => {
    await sb?.close();
  });

  it('each is verified by the first total resting on it (fetched), then relied on (derived); a total resting on neither is derived at once', async () => {
    const { rt, truth } = await runtimes(sb);
    const company = await rt.reader.companyId();
    expect(await total(rt, truth, 'Cash', march)).toEqual(expect.objectContaining({ calls: 0 }));
    for (const category of ['Retained Earnings', 'Accumulated Depreciation']) {
      const first = await total(rt, truth, category, march);
      expect(first.calls).toBe(1);
      expect(first.mine).toBe(first.api);
      const next = await total(rt, truth, category, june);
      expect(next).toEqual({ mine: next.api, api: next.api, calls: 0 });
    }
    // The equity root holds Retained Earnings: verified with it, so derived.
    const equity = await total(rt, truth, 'Equity', september);
    expect(equity).toEqual({ mine: equity.api, api: equity.api, calls: 0 });
    expect(await rt.reader.derivations.identities.notes(company)).toEqual([]);
    // Kept per company: a runtime reopened on the same stores derives them with no verification call.
    const reopened = await testRuntime(sb, { stores: rt.stores });
    await reopened.service.balance({ category: 'Cash', date: endOf(september) });
    const sent = reopened.sent();
    expect(await reopened.service.total({ category: 'Retained Earnings', start: september })).toBe(await truth.service.total({ category: 'Retained Earnings', start: september }));
    expect(reopened.sent() - sent).toBe(0);
  });

  it('where the API reads retained earnings otherwise, totals resting on it are always fetched, right, and the reason is kept', async () => {
    await sb.control('control', { totals_without_computed_earnings: true });
    try {
      const { rt, truth } = await runtimes(sb);
      const company = await rt.reader.companyId();
      const first = await total(rt, truth, 'Retained Earnings', march);
      expect(first.calls).toBe(1);
      expect(first.mine).toBe(first.api);
      for (const [category, month] of [['Retained Earnings', june], ['Equity', september]]) {
        const again = await total(rt, truth, category, month);
        expect(again).toEqual({ mine: again.api, api: again.api, calls: 1 });
      }
      expect((await rt.reader.derivations.identities.notes(company)).join()).toMatch(/retained earnings identity are fetched, not derived: the API's total for "Retained Earnings" at \d{4}-\d{2}-\d{2} is -?\d+ cents where its balance sheet's line is -?\d+/);
      // The other identity is not affected.
      await total(rt, truth, 'Accumulated Depreciation', march);
      expect(await total(rt, truth, 'Accumulated Depreciation', june)).toEqual(expect.objectContaining({ calls: 0 }));
    } finally {
      await sb.control('control', { totals_without_computed_earnings: false });
    }
  });
});
