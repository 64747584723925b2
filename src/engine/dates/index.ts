// Dates and periods, one module per job: calendar maths (calendar), Excel serials and the date system
// (serials), periods of whole months (period), fiscal years and quarters (fiscal), labels (labels), periods
// relative to today (relative), ranges side by side (ranges), period text keyed on a month (periodText), FIN
// date arguments (arguments) and the month granularity of /aggregations/total (coverage). Importers take what
// they need from here.

export * from './calendar';
export * from './serials';
export * from './period';
export * from './fiscal';
export * from './labels';
export * from './relative';
export * from './ranges';
export * from './periodText';
export * from './arguments';
export * from './coverage';
