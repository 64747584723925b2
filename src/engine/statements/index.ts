export { createStatementsEngine, type StatementsEngine, type StatementsEngineOptions } from './engine';
export {
  STATEMENTS,
  LAYOUTS,
  SCALES,
  STATEMENT_BINDING_KIND,
  describeSpec,
  layoutLabel,
  offersTotal,
  offersVariance,
  resolvePeriod,
  sheetNameFor,
  specFromBinding,
  specPeriodLabel,
  specToParameters,
  statementLabel,
  type LayoutKey,
  type PeriodChoice,
  type StatementKind,
  type StatementSpec,
} from './spec';
export { RELATIONS, relationLabel, relativePeriod, type PeriodRelation } from './relative';
export { columnsFor, costText, distinctRequests, type StatementColumn } from './columns';
export { failureOf, toGridWrite, type BlockResult, type LastFailure } from './blocks';
export { blockCostText, changedOnly, formatAge, isOld, OLD_AFTER_MS, type BlockFailure, type RefreshBlock, type RefreshOutcome, type RefreshPlan } from './refresh';
