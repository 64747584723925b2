// Writes the built feed: transactions, their split parts, and the company's update_seq counter.

import type { Db } from '../../db/open';
import type { Row } from './feed';

export function insertFeed(db: Db, companyId: string, rows: Row[]): void {
  const insert = db.prepare(
    `INSERT INTO transactions (id, company_id, date, accounting_date_override, amount_cents, currency, merchant, description,
       category_id, department_id, department_source, transaction_type, account_id, card_id, source_vendor, source_type,
       source_account_name, status, spread, transfer_id, hidden, deleted, created, updated, update_seq)
     VALUES (?, ?, ?, ?, ?, 'USD', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertSplit = db.prepare(
    'INSERT INTO transaction_splits (transaction_id, part, category_id, department_id, amount_cents) VALUES (?, ?, ?, ?, ?)',
  );
  for (const r of rows) {
    if (r.amount === 0) throw new Error(`seed: zero amount on ${r.kind} ${r.date}`);
    insert.run(
      r.id,
      companyId,
      r.date,
      r.override,
      r.amount,
      r.merchant,
      r.description,
      r.type === 'standard' ? r.categoryId : null,
      r.type === 'standard' ? r.departmentId : null,
      r.type === 'standard' && r.departmentId ? r.departmentSource ?? 'manual' : null,
      r.type,
      r.account.id,
      r.cardId,
      r.account.vendor,
      r.account.type,
      r.account.name,
      r.status,
      r.spread,
      r.transferId,
      r.hidden,
      r.deleted,
      r.created,
      r.updated,
      r.updateSeq,
    );
    if (r.splits) {
      const sum = r.splits.reduce((s, p) => s + p.amount, 0);
      if (sum !== r.amount) throw new Error(`seed: split parts of ${r.kind} do not sum to the amount`);
      r.splits.forEach((p, i) => insertSplit.run(r.id, i + 1, p.categoryId, p.departmentId, p.amount));
    }
  }
  db.prepare(
    `INSERT INTO counters (company_id, name, value) VALUES (?, 'update_seq', ?)
     ON CONFLICT(company_id, name) DO UPDATE SET value = MAX(value, excluded.value)`,
  ).run(companyId, rows.length);
}
