// Step 2a: the rows of a structural event. Amounts stay 0 here: step 4 sizes them from the month's spend.

import { addMonths, monthEnd, monthStart } from '../../calendar';
import { newId } from '../../ids';
import type { AccountKey } from '../accounts';
import { chance, type Rand } from '../util';
import { cardFor, chooseDepartment, maybeDepartment } from './choices';
import type { Feed, Setting, TransferEvent } from './feed';
import type { Scheduled } from './schedule';

/** Two legs sharing a transfer id, out of `from` and into `to`. */
function addTransfer(
  s: Setting,
  feed: Feed,
  rand: Rand,
  kind: TransferEvent['kind'],
  date: string,
  [from, to]: [AccountKey, AccountKey],
  [outDesc, inDesc]: [string, string],
  merchant: string,
): void {
  const transferId = newId('trf', rand);
  const out = feed.add(rand, 'transfer', date, s.acct(from), { type: 'transfer', transferId, merchant, description: outDesc });
  const inn = feed.add(rand, 'transfer', date, s.acct(to), { type: 'transfer', transferId, merchant, description: inDesc });
  const ev: TransferEvent = { kind, from, to, date, out, in: inn };
  out.transfer = ev;
  inn.transfer = ev;
  feed.transfers.push(ev);
}

/** An annual contract paid up front and spread over the twelve months from the month it is paid in. */
function yearSpread(date: string): string {
  const startM = monthStart(date);
  return JSON.stringify({ start_date: startM, end_date: monthEnd(addMonths(startM, 11)) });
}

export function addStructuralRows(s: Setting, feed: Feed, rand: Rand, e: Scheduled): void {
  const { cat, acct, growth } = s;
  const checking = acct('checking');
  switch (e.kind) {
    case 'rent':
      feed.add(rand, 'rent', e.date, checking, {
        merchant: growth ? 'Landmark Properties' : 'Oakline Realty',
        description: 'Monthly rent',
        categoryId: cat('rent'),
        departmentId: chooseDepartment(s, rand, ['workplace', 'fin_ops']),
        departmentSource: 'rule',
      });
      return;
    case 'payroll':
      feed.add(rand, 'payroll', e.date, checking, {
        type: 'split',
        merchant: 'Gusto',
        description: `GUSTO PAYROLL ${e.date}`,
        shares: [
          { cat: 'salaries', share: 0.78 },
          { cat: 'payroll_taxes', share: 0.08 },
          { cat: 'benefits', share: 0.14 },
        ],
      });
      return;
    case 'payoff': {
      const to = e.account as AccountKey;
      const a = acct(to);
      const label =
        to === 'reimb' ? 'Expensify reimbursements' : to === 'interco' ? 'Intercompany settlement' : `${a.vendor === 'amex' ? 'American Express' : a.name} payment`;
      addTransfer(s, feed, rand, 'payoff', e.date, ['checking', to], [label.toUpperCase(), 'Payment received - thank you'], label);
      return;
    }
    case 'sweep_out':
      addTransfer(s, feed, rand, 'sweep_out', e.date, ['checking', 'savings'], ['Transfer to Mercury Treasury', 'Transfer from Operating Checking'], 'Internal transfer');
      return;
    case 'sweep_back':
      addTransfer(s, feed, rand, 'sweep_back', e.date, ['savings', 'checking'], ['Transfer to Operating Checking', 'Transfer from Mercury Treasury'], 'Internal transfer');
      return;
    case 'interest':
      feed.add(rand, 'interest', e.date, acct('savings'), { merchant: 'Mercury', description: 'Interest payment', categoryId: cat('interest_income') });
      return;
    case 'series_a':
      feed.add(rand, 'series_a', e.date, checking, {
        merchant: growth ? 'Redwood Ventures' : 'Lakeside Capital',
        description: growth ? 'Series A preferred stock purchase' : 'Seed preferred stock purchase',
        categoryId: cat('preferred_stock'),
      });
      return;
    case 'loan':
      feed.add(rand, 'loan', e.date, checking, { merchant: 'Harbor Bank', description: 'Term loan proceeds', categoryId: cat('term_loan') });
      return;
    case 'loan_payment':
      feed.add(rand, 'loan_payment', e.date, checking, {
        type: 'split',
        merchant: 'Harbor Bank',
        description: 'Term loan payment',
        shares: [
          { cat: 'term_loan', share: 0 },
          { cat: 'interest_expense', share: 0 },
        ],
      });
      return;
    case 'tax_fed':
      feed.add(rand, 'tax_fed', e.date, checking, { merchant: 'IRS', description: 'IRS USATAXPYMT estimated tax', categoryId: cat('federal_tax'), departmentId: null });
      return;
    case 'tax_state':
      feed.add(rand, 'tax_state', e.date, checking, {
        merchant: s.profile.incorporationState === 'DE' ? 'Delaware Division of Corporations' : 'Franchise Tax Board',
        description: 'Annual franchise tax',
        categoryId: cat('state_tax'),
      });
      return;
    case 'insurance_annual': {
      const r = feed.add(rand, 'insurance_annual', e.date, checking, {
        merchant: 'The Hartford',
        description: 'Annual business insurance premium',
        categoryId: cat('insurance'),
        spread: yearSpread(e.date),
      });
      maybeDepartment(s, rand, r, ['fin_ops', 'accounting'], 1);
      return;
    }
    case 'software_annual': {
      const r = feed.add(rand, 'software_annual', e.date, s.creditKeys.includes('amex') ? acct('amex') : checking, {
        merchant: 'Salesforce',
        description: 'Salesforce annual contract',
        categoryId: cat('marketing_software'),
        spread: yearSpread(e.date),
      });
      if (r.account.type === 'credit') r.cardId = cardFor(s, rand, r.account.key, e.date);
      maybeDepartment(s, rand, r, ['sales_east', 'sales_west'], 1);
      return;
    }
    case 'equipment': {
      const onCard = s.creditKeys.length > 0 && chance(rand, 0.5);
      const account = onCard ? acct(s.pickCredit(rand)) : checking;
      const r = feed.add(rand, 'equipment', e.date, account, {
        merchant: chance(rand, 0.7) ? 'Apple' : 'Dell',
        description: 'Laptops for new hires',
        categoryId: cat('computer_equipment'),
      });
      if (onCard) r.cardId = cardFor(s, rand, account.key, e.date);
      maybeDepartment(s, rand, r, ['platform', 'data_science', 'design'], 0.8);
      return;
    }
    case 'interco_charge': {
      const r = feed.add(rand, 'interco_charge', e.date, acct('interco'), {
        merchant: 'Northwind Analytics Ltd',
        description: 'Monthly management fee',
        categoryId: cat('professional_fees'),
      });
      maybeDepartment(s, rand, r, ['accounting'], 1);
      return;
    }
    default:
      throw new Error(`unexpected structural kind ${e.kind}`);
  }
}
