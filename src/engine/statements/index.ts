export { createStatementsEngine, type StatementsEngine } from './engine';
export {
  STATEMENTS,
  LAYOUTS,
  SCALES,
  describeSpec,
  offersLayout,
  offersTotal,
  offersVariance,
  resolvePeriod,
  sheetNameFor,
  specFromBinding,
  specToParameters,
  statementLabel,
  type LayoutKey,
  type PeriodChoice,
  type StatementKind,
  type StatementSpec,
} from './spec';
export { RELATIONS, relativePeriod, type PeriodRelation } from './relative';
export { columnsFor, costText } from './columns';
export { failureOf, toGridWrite } from './blocks';
export { blockCostText, changedOnly, formatAge, isOld, OLD_AFTER_MS, planAfter, type RefreshBlock, type RefreshOutcome, type RefreshPlan } from './refresh';
