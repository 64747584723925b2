// Budgets kept in the workbook, compared with the income statement (issue 27, item 2). Not engine/budget, which
// is the calls left this month: this is the company's own budget, typed by the user, read from its cells and
// never sent anywhere.

export { readBudget, monthsCovered, type BudgetLine, type BudgetSheet } from './sheet';
export { monthsOfPeriod } from './months';
export { matchBudget, type BudgetMatch, type CostSigns, type MatchedLine, type UnmatchedLine } from './match';
export { budgetReport } from './report';
export { listBudgets, keepBudget, forgetBudget, readKeptBudget, selectedBudget, BUDGETS_SETTING, type KeptBudget, type ReadBudget } from './kept';
export { checkBudget, checkCost, type BudgetCheck } from './check';
