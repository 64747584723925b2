// Issue 27: an answer by department is touched by a department edit, which touches no report; and a walk
// over the journal's pages is priced by its pages, so a cost shown before a refresh is what it spends.
import { activityRequest } from '../../../src/engine/departments/activity';
import { touchedBy, type TransactionChange } from '../../../src/engine/reader/touched';
import { WalkDensity, walkCalls } from '../../../src/engine/reader/walks';
import { isClosedRequest } from '../../../src/engine/reader/closedBooks';

const IS = (start: string, end: string) => ({ path: '/reports/income_statement', query: { start_date: start, end_date: end } });
const byDepartment = (start: string, end: string) => activityRequest({ start, end });

/** The add-in's own push of a Department edit: the accounting date stays, the department changes. */
const deptEdit: TransactionChange = { id: 'txn_1', date: '2025-06-02', accountingBefore: '2025-06-30', accountingAfter: '2025-06-30', department: true };
/** An accounting date moved within June, department unchanged. */
const withinJune: TransactionChange = { id: 'txn_2', date: '2025-06-02', accountingBefore: '2025-06-10', accountingAfter: '2025-06-20' };
/** Someone else's change, seen by the sync: anything may have moved. */
const elsewhere: TransactionChange = { id: 'txn_3', date: '2025-03-03', accountingBefore: '2025-03-03', accountingAfter: '2025-03-03', postings: true };

describe('what a change makes stale among answers by department', () => {
  it('a department edit touches the answers by department holding its accounting date, and no report', () => {
    const touched = touchedBy([deptEdit]);
    expect(touched(byDepartment('2025-06-01', '2025-06-30'))).toBe(true);
    expect(touched(byDepartment('2025-04-01', '2025-06-30'))).toBe(true);
    expect(touched(byDepartment('2025-01-01', '2025-12-31'))).toBe(true);
    expect(touched(byDepartment('2025-07-01', '2025-07-31'))).toBe(false);
    expect(touched(byDepartment('2025-06-01', '2025-06-29'))).toBe(false);
    expect(touched(IS('2025-06-01', '2025-06-30'))).toBe(false);
  });

  it('a move within the period leaves its departments as they were; a change made elsewhere touches the periods holding it', () => {
    expect(touchedBy([withinJune])(byDepartment('2025-06-01', '2025-06-30'))).toBe(false);
    expect(touchedBy([withinJune])(byDepartment('2025-06-15', '2025-06-30'))).toBe(true);
    expect(touchedBy([elsewhere])(byDepartment('2025-01-01', '2025-03-31'))).toBe(true);
    expect(touchedBy([elsewhere])(byDepartment('2025-04-01', '2025-06-30'))).toBe(false);
    expect(touchedBy([])(byDepartment('2025-01-01', '2025-12-31'))).toBe(false);
  });

  it('is kept by closed books when its period ends within them', () => {
    expect(isClosedRequest(byDepartment('2025-06-01', '2025-06-30'), '2025-06-30')).toBe(true);
    expect(isClosedRequest(byDepartment('2025-06-01', '2025-07-31'), '2025-06-30')).toBe(false);
  });
});

describe('the price of a walk over pages', () => {
  it('is the pages its own answer took; unknown, one page at least; with the company’s other walks, about their rate', () => {
    const density = new WalkDensity();
    const june = byDepartment('2025-06-01', '2025-06-30');
    expect(walkCalls(june, undefined, density)).toEqual({ calls: 1, estimated: 'at least' });
    // A month of 1,200 entries took 3 pages: a quarter at that rate is about 3,600 entries, 8 pages.
    density.note(june, { pages: 3, items: 1200 });
    expect(walkCalls(june, { pages: 3, items: 1200 }, density)).toEqual({ calls: 3 });
    expect(walkCalls(byDepartment('2025-07-01', '2025-09-30'), undefined, density)).toEqual({ calls: 8, estimated: 'about' });
    // A short period never costs less than its one page.
    expect(walkCalls(byDepartment('2025-07-01', '2025-07-01'), undefined, density)).toEqual({ calls: 1, estimated: 'about' });
  });
});
