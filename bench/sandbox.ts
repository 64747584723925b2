import { calendarDateAt } from '../src/engine/dates';
import { startSandbox } from '../test/support/sandbox';
import { median, timeRepeated } from './stats';

export interface SandboxFigures {
  transactions: number;
  seedMs: number;
  page500Ms: number;
  deepPage500Ms: number;
  incomeStatementYearMs: number;
  balanceSheetMs: number;
}

const REPEATS = 15;

/** Seeds a fresh database per size, serves it on a free port and times the requests that matter most. */
export async function sandboxBench(sizes: number[]): Promise<SandboxFigures[]> {
  const out: SandboxFigures[] = [];
  for (const transactions of sizes) {
    const sb = await startSandbox({ seed: 'fresh', transactions });
    try {
      const key = sb.keys['growth-admin'];
      const get = async (p: string) => {
        const res = await fetch(`${sb.baseUrl}${p}`, { headers: { authorization: `Bearer ${key}` } });
        if (!res.ok) throw new Error(`${p}: HTTP ${res.status} ${await res.text()}`);
        return res.json() as Promise<{ next_cursor?: string | null }>;
      };
      const lastYear = Number(calendarDateAt(Date.now()).slice(0, 4)) - 1;
      // A cursor deep in the list (up to 30 pages in): keyset paging should cost the same there as on page one.
      let cursor: string | undefined;
      for (let i = 0; i < 30; i++) {
        const next = (await get(`/transactions?limit=500${cursor ? `&starting_after=${cursor}` : ''}`)).next_cursor;
        if (!next) break;
        cursor = next;
      }
      out.push({
        transactions,
        seedMs: sb.seedMs,
        page500Ms: median(await timeRepeated(REPEATS, () => get('/transactions?limit=500'))),
        deepPage500Ms: cursor ? median(await timeRepeated(REPEATS, () => get(`/transactions?limit=500&starting_after=${cursor}`))) : NaN,
        incomeStatementYearMs: median(
          await timeRepeated(REPEATS, () => get(`/reports/income_statement?start_date=${lastYear}-01-01&end_date=${lastYear}-12-31`)),
        ),
        balanceSheetMs: median(await timeRepeated(REPEATS, () => get(`/reports/balance_sheet?date=${lastYear}-12-31`))),
      });
    } finally {
      await sb.close();
    }
  }
  return out;
}
