// Step 5: timestamps and sync order. Created during the row's day (company zone), updated sometimes
// later; both capped just before `now`. update_seq follows `updated`.

import { dayStart } from '../../calendar';
import { chance, randInt, type Rand } from '../util';
import type { Row } from './feed';

export function stampTimes(rows: Row[], now: number, rand: Rand): void {
  const cap = now - 1;
  for (const r of rows) {
    const created = Math.min(cap, dayStart(r.date) + randInt(rand, 7 * 3600, 21 * 3600));
    let updated = created;
    if (r.deleted) updated = created + randInt(rand, 86_400, 10 * 86_400);
    else if (r.status === 'approved' && chance(rand, 0.3)) updated = created + randInt(rand, 3_600, 6 * 86_400);
    r.created = created;
    r.updated = Math.max(created, Math.min(cap, updated));
  }
  const order = [...rows].sort((a, b) => a.updated - b.updated || a.idx - b.idx);
  order.forEach((r, i) => (r.updateSeq = i + 1));
}
