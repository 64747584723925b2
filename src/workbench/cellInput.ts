/**
 * What typing `input` into a cell means, as in Excel: a formula, a number, a date, text, or a blank.
 * (TRUE/FALSE stay text: the gateway writes text, numbers and blanks only.)
 */
export type CellInput =
  | { kind: 'formula'; formula: string }
  | { kind: 'number'; value: number }
  | { kind: 'date'; iso: string }
  | { kind: 'text'; value: string }
  | { kind: 'blank' };

export function classifyInput(input: string): CellInput {
  if (input === '') return { kind: 'blank' };
  if (input.startsWith('=') && input.trim().length > 1) return { kind: 'formula', formula: input.trim() };
  // A leading apostrophe forces text, as in Excel.
  if (input.startsWith("'")) return { kind: 'text', value: input.slice(1) };
  const t = input.trim();
  if (/^[+-]?(\d{1,3}(,\d{3})+|\d+)?(\.\d+)?([eE][+-]?\d+)?$/.test(t) && /\d/.test(t)) return { kind: 'number', value: Number(t.replace(/,/g, '')) };
  if (/^\(\d[\d,]*(\.\d+)?\)$/.test(t)) return { kind: 'number', value: -Number(t.slice(1, -1).replace(/,/g, '')) };
  if (/^\d{4}-\d{2}-\d{2}$/.test(t)) return { kind: 'date', iso: t };
  return { kind: 'text', value: input };
}
