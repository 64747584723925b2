export { callsFin } from './cells';
export { holdsFinContent, surveyWorkbook, type SheetSurvey } from './survey';
export {
  copyNameFor,
  shareAsValues,
  shareWarnings,
  suggestedSheets,
  valuesNote,
  type ShareFacts,
  type ShareOptions,
  type ShareResult,
} from './share';
