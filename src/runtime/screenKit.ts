// What the pane's screens use of the engine besides its types: wording (plural, how a block, a period or a
// filter is said), dates and periods, the checks a form runs before it asks, and the errors a message tells
// apart. The engine's own functions, re-exported here so that the pane has one door, the runtime (lint keeps
// src/taskpane to types of src/engine: eslint.config.js). Building engines, refreshing and the cost rules are
// the workspace's (workspace.ts).

export { exceedsLeft, notStartedText } from '../engine/budget/callsLeft';
export { defaultParent as defaultDepartmentsUnder } from '../engine/departments/split';
export { addMonths, calendarDateAt, endOfMonth, formatYearMonth, isWholeMonths, monthIndex, monthIndexToYearMonth, namedPeriod, parseDateArgument, PERIOD_CHOICES, periodLabel } from '../engine/dates';
export { isFinError, permissionFor, resolveInTree } from '../engine/fin';
export { GatewayError } from '../engine/ports/workbook';
export { capFromMessage } from '../engine/reader/capBlock';
export { OutageError } from '../engine/reader/outage';
export { CHANGED_ONLY_BLIND_SPOT, fullRefreshAtMost } from '../engine/refresh/plan';
export { isRefusal } from '../engine/refusal';
export { RenderError } from '../engine/render';
export { centsToDisplay } from '../engine/render/money';
export { packFormulaReads } from '../engine/reporting/boardPack';
export { parseReportingMonth, REPORTING_PERIOD_NAME } from '../engine/reporting/period';
export { fail, ok } from '../engine/result';
export { holdsFinContent, shareWarnings, suggestedSheets } from '../engine/share';
export { derivedNote } from '../engine/reader/derivedCost';
export { columnsFor, costText, describeSpec, failureOf, formatAge, isOld, LAYOUTS, offersLayout, offersTotal, offersVariance, RELATIONS, relativePeriod, resolvePeriod, SCALES, specFromBinding, statementLabel, STATEMENTS } from '../engine/statements';
export { plural, pluralGrouped, pluralNoun } from '../engine/text/plural';
export { allowsIncrementalRefresh, describeFilters, idsInSelection, mutableFilterNames, normalizeFilters } from '../engine/transactions';
export { buildTree } from '../engine/tree';
