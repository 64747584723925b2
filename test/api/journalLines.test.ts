// Issue 35, items 1 and 3: a journal line is read by the spec's rules or refused, never guessed. Its amounts:
// debit_cents and credit_cents, or the one side a line carries (the other zero), or one signed amount. Its
// department: department_id, or the one department it carries in another field (a dept_ id or an object
// whose id is one); "no department" only where the field the API uses is there and null. A department that
// cannot be read makes figures by department refuse, naming the line's fields: booked as Unassigned, every
// department would read 0.00 while the check against the statement still passed.
import { readEntry } from '../../src/api/journal';
import type { JournalEntry, ListPage } from '../../src/api/types';
import { fetchActivity } from '../../src/engine/departments/activity';

const entry = (lines: unknown[]) => ({ id: 'je_1', object: 'journal_entry', date: '2025-07-03', transaction_id: 'txn_1', kind: 'transaction', memo: 'Acme', created: 1, lines });
const read = (lines: unknown[]) => readEntry(entry(lines), '/journal_entries').lines;

describe('journal line amounts', () => {
  test('one-sided lines are read by their side: a credit stays a credit', () => {
    const [debit, credit] = read([
      { category_id: 'cat_travel', department_id: null, debit_cents: 2500 },
      { category_id: 'cat_cash', department_id: null, credit_cents: 2500 },
    ]);
    expect(debit).toEqual({ category_id: 'cat_travel', department_id: null, debit_cents: 2500, credit_cents: 0 });
    expect(credit).toEqual({ category_id: 'cat_cash', department_id: null, debit_cents: 0, credit_cents: 2500 });
  });

  test('a side that is not whole cents, or a side beside another amount, is refused naming what was received', () => {
    expect(() => read([{ category_id: 'cat_cash', department_id: null, credit_cents: '2500' }])).toThrow(
      "The API's answer to /journal_entries has a journal line with no debit_cents and credit_cents in whole cents (both, or one side alone), or one signed amount ending in _cents (received credit_cents \"2500\") (fields: category_id, department_id, credit_cents)",
    );
    expect(() => read([{ category_id: 'cat_cash', department_id: null, debit_cents: 5, amount_cents: 5 }])).toThrow(/received debit_cents 5, amount_cents 5\)/);
  });
});

describe('journal line departments', () => {
  const department = (line: Record<string, unknown>) => read([{ category_id: 'cat_travel', debit_cents: 100, credit_cents: 0, ...line }])[0];

  test('carried under another key, or as an object carrying its id: read', () => {
    expect(department({ dept: 'dept_gtm' })).toMatchObject({ department_id: 'dept_gtm' });
    expect(department({ department: { object: 'department', id: 'dept_gtm', name: 'Go-to-Market' } })).toMatchObject({ department_id: 'dept_gtm' });
    expect(department({ department: { object: 'department', id: 'dept_gtm' } }).department_unread).toBeUndefined();
  });

  test('no department only where the API says so: the field is there and null', () => {
    expect(department({ department_id: null })).toEqual({ category_id: 'cat_travel', department_id: null, debit_cents: 100, credit_cents: 0 });
    expect(department({ department: null })).toEqual({ category_id: 'cat_travel', department_id: null, debit_cents: 100, credit_cents: 0 });
  });

  test('a name, no field at all, or department_id that is not an id: marked unread, with the line fields', () => {
    expect(department({ department_name: 'Go-to-Market' }).department_unread).toEqual(['category_id', 'debit_cents', 'credit_cents', 'department_name']);
    expect(department({}).department_unread).toEqual(['category_id', 'debit_cents', 'credit_cents']);
    expect(department({ department_id: 'Go-to-Market' }).department_unread).toBeDefined();
  });

  test('figures by department refuse a line whose department cannot be read, rather than book it as Unassigned', async () => {
    const page: ListPage<JournalEntry> = {
      object: 'list',
      url: '/api/v1/journal_entries',
      has_more: false,
      data: [readEntry(entry([{ category_id: 'cat_opex', department: 'Go-to-Market', debit_cents: 2_702_334 }, { category_id: 'cat_cash', department: null, credit_cents: 2_702_334 }]), '/journal_entries')],
    } as ListPage<JournalEntry>;
    const client = { journalEntries: { list: async () => page } };
    await expect(fetchActivity(client, { start: '2025-07-01', end: '2025-07-31' })).rejects.toMatchObject({
      code: 'unreadable_answer',
      message: expect.stringMatching(/^The API's \/journal_entries answered a journal line of entry je_1 whose department this add-in cannot read \(line fields: category_id, department, debit_cents; /),
    });
  });
});
