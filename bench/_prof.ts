import { startSandbox } from '../test/support/sandbox';
import { runtime, pushIdentity } from './boardPack';
import { createTransactionsEngine } from '../src/engine/transactions';
import { MemoryGateway } from '../src/excel/memoryGateway';
import { calendarDateAt } from '../src/engine/dates';

async function main() {
  const sb = await startSandbox({ seed: 'fresh', transactions: 20_000, latencyMs: 50 });
  const year = Number(calendarDateAt(Date.now()).slice(0, 4)) - 1;
  const key = sb.keys['growth-admin'];
  try {
    for (let rep = 0; rep < 3; rep++) {
      // raw fetch chain
      let t = performance.now();
      let cursor: string | null | undefined;
      let pages = 0;
      do {
        const res = await fetch(`${sb.baseUrl}/transactions?limit=500&updated_after=0&start_date=${year}-01-01&end_date=${year}-12-31${cursor ? `&starting_after=${encodeURIComponent(cursor)}` : ''}`, { headers: { authorization: `Bearer ${key}` } });
        const body = (await res.json()) as { next_cursor: string | null; has_more: boolean };
        cursor = body.has_more ? body.next_cursor : null;
        pages++;
      } while (cursor);
      const raw = performance.now() - t;
      const solo = await runtime(sb);
      t = performance.now();
      const r = await createTransactionsEngine({ client: solo.client, reader: solo.reader, ...(await pushIdentity(solo)), gateway: new MemoryGateway() }).pull({ start_date: `${year}-01-01`, end_date: `${year}-12-31` });
      const pull = performance.now() - t;
      console.log(`pages ${pages}/${r.pages} raw ${raw.toFixed(0)} ms (${(raw / pages).toFixed(1)}/page), pull ${pull.toFixed(0)} ms (${(pull / pages).toFixed(1)}/page)`);
    }
  } finally {
    await sb.close();
  }
}
void main();
