export { BUSY_TEXT, callsFin, isBusy, isErrorValue } from './cells';
export { holdsFinContent, someCells, surveyContent, surveyWorkbook, type BlockOnSheet, type SheetSurvey, type SurveyFacts } from './survey';
export {
  copyNameFor,
  CopyNotClean,
  figuresAsOf,
  MOVE_OUT_TEXT,
  shareAsValues,
  shareWarnings,
  suggestedSheets,
  valuesNote,
  type SharedCopy,
  type ShareFacts,
  type ShareResult,
} from './share';
