import { BEFORE_ALL_DATES, fiscalYearStart, previousDay } from '../calendar';
import type { Db } from '../db/open';
import { activityBetween, addActivity, latestCreated, type Activity } from './activity';
import { netIncomeOf } from './incomeStatement';
import { buildSection, companyBooks, creditNormal, debitNormal, type Section } from './reports';
import { readSnapshot } from './sql';
import { loadChart, type CategoryNode } from './tree';

// The balance sheet: cumulative balances through the report date, natural sign (assets debit minus
// credit, liabilities and equity credit minus debit). Retained earnings are never posted: the Retained
// Earnings category carries the income of every period so far, which is what makes the sheet balance.

export interface RetainedEarnings {
  beginning_balance_cents: number;
  net_income_cents: number;
  ending_balance_cents: number;
}

export interface BalanceSheet {
  object: 'balance_sheet';
  date: string;
  currency: string;
  refreshed_at: number | null;
  cash_cents: number;
  assets: Section<'balance_cents'>;
  liabilities: Section<'balance_cents'>;
  equity: Section<'balance_cents'> & { retained_earnings: RetainedEarnings };
  liabilities_and_equity_cents: number;
}

/**
 * Retained earnings at a date: income of the fiscal years before the one holding the date, plus this
 * fiscal year's income to date. Anything posted straight to the category (an imported opening balance)
 * counts in the beginning balance.
 */
function retainedEarnings(priorYearsIncome: number, yearToDateIncome: number, postedToCategory: Activity | undefined): RetainedEarnings {
  const beginning = priorYearsIncome + creditNormal(postedToCategory);
  return {
    beginning_balance_cents: beginning,
    net_income_cents: yearToDateIncome,
    ending_balance_cents: beginning + yearToDateIncome,
  };
}

export function balanceSheet(db: Db, companyId: string, date: string): BalanceSheet {
  return readSnapshot(db, () => buildBalanceSheet(db, companyId, date));
}

function buildBalanceSheet(db: Db, companyId: string, date: string): BalanceSheet {
  const chart = loadChart(db, companyId);
  const books = companyBooks(db, companyId);
  const yearStart = fiscalYearStart(date, books.fiscalYearStartMonth);
  const priorYears = activityBetween(db, companyId, BEFORE_ALL_DATES, previousDay(yearStart));
  const yearToDate = activityBetween(db, companyId, yearStart, date);
  const reNode = chart.byRole.get('retained_earnings');
  const through = addActivity(addActivity(new Map(), priorYears), yearToDate);
  const re = retainedEarnings(netIncomeOf(chart, priorYears), netIncomeOf(chart, yearToDate), reNode && through.get(reNode.id));

  const own = (n: CategoryNode) =>
    n === reNode
      ? re.ending_balance_cents
      : n.accountType === 'asset'
        ? debitNormal(through.get(n.id))
        : creditNormal(through.get(n.id));
  const section = (type: string) => buildSection(chart.ordered.filter((n) => n.accountType === type), own, 'balance_cents');
  const assets = section('asset');
  const liabilities = section('liability');
  const equity = section('equity');
  const cashId = chart.byRole.get('cash')?.id;

  return {
    object: 'balance_sheet',
    date,
    currency: books.currency,
    refreshed_at: latestCreated(through),
    cash_cents: assets.categories.find((c) => c.category_id === cashId)?.balance_cents ?? 0,
    assets,
    liabilities,
    equity: { ...equity, retained_earnings: re },
    liabilities_and_equity_cents: liabilities.total_cents + equity.total_cents,
  };
}
