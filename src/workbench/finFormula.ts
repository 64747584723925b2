// What the workbench understands in a cell: a constant (number, text, TRUE/FALSE, an ISO date) or one FIN
// function call with literal arguments, `=FIN.TOTAL("Revenue","2025-Q1",,"Acme")`: strings in double
// quotes ("" for a quote), numbers, TRUE/FALSE, and omitted arguments (nothing between two commas).
// References, operators and nested calls are Excel's job, not the workbench's: they are refused with a
// message instead of being half-evaluated.

export type Literal = string | number | boolean | null;

export interface FinCall {
  /** The function id without the namespace, upper case: "TOTAL". */
  name: string;
  /** One per argument written; null for an omitted one. */
  args: Literal[];
}

export type ParsedFormula = { ok: true; call: FinCall } | { ok: false; message: string };

export const NAMESPACE = 'FIN';

/** Parses `=FIN.NAME(args)`. */
export function parseFinFormula(formula: string): ParsedFormula {
  const text = formula.trim();
  let i = 0;
  const fail = (message: string): ParsedFormula => ({ ok: false, message });
  const ws = () => {
    while (i < text.length && /\s/.test(text[i])) i++;
  };
  if (text[i] !== '=') return fail('A formula starts with =');
  i++;
  ws();
  const head = /^([A-Za-z_][A-Za-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_.]*)\s*\(/.exec(text.slice(i));
  if (!head) {
    return fail(`The workbench evaluates ${NAMESPACE} functions only, written as =${NAMESPACE}.NAME(arguments)`);
  }
  if (head[1].toUpperCase() !== NAMESPACE) return fail(`Unknown function namespace ${head[1]}: the workbench knows ${NAMESPACE} only`);
  const name = head[2].toUpperCase();
  i += head[0].length;
  const args: Literal[] = [];
  ws();
  if (text[i] === ')') {
    i++;
  } else {
    for (;;) {
      ws();
      const c = text[i];
      if (c === undefined) return fail('The formula is missing a closing parenthesis');
      if (c === ',' || c === ')') {
        args.push(null);
      } else if (c === '"') {
        let s = '';
        i++;
        for (;;) {
          if (i >= text.length) return fail('A text argument is missing its closing quote');
          if (text[i] === '"') {
            if (text[i + 1] === '"') {
              s += '"';
              i += 2;
              continue;
            }
            i++;
            break;
          }
          s += text[i++];
        }
        args.push(s);
      } else {
        const m = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?%?|TRUE\b|FALSE\b)/i.exec(text.slice(i));
        if (!m) {
          return fail(
            `Argument ${args.length + 1} is not a literal: the workbench takes text in quotes, numbers, TRUE/FALSE or nothing (no cell references or expressions)`,
          );
        }
        const token = m[1];
        i += token.length;
        if (/^true$/i.test(token)) args.push(true);
        else if (/^false$/i.test(token)) args.push(false);
        else if (token.endsWith('%')) args.push(Number(token.slice(0, -1)) / 100);
        else args.push(Number(token));
      }
      ws();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === ')') {
        i++;
        break;
      }
      if (i >= text.length) return fail('The formula is missing a closing parenthesis');
      return fail(`Expected , or ) after argument ${args.length}`);
    }
  }
  ws();
  if (i < text.length) return fail('Only one function call per cell: nothing may follow its closing parenthesis');
  return { ok: true, call: { name, args } };
}

/**
 * What typing `input` into a cell means: a formula, a number, a date, text, or a blank. (TRUE/FALSE stay text:
 * the gateway writes text, numbers and blanks only.)
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
