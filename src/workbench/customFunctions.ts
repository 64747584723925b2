// The add-in's custom functions (FIN.…) as Excel calls them: the function functions.ts associated under
// that id, one argument per declared parameter converted to its declared type (null for an omitted
// optional one), then an invocation object; streaming functions get setResult and onCanceled. An
// argument that is an error is returned as it is, without a call, as Excel does. Results come back as
// cell results: a value, an array that spills, or a CustomFunctions.Error's code with its message.

import { plural } from '../engine/text/plural';
import type { CellResult, Scalar } from './cellResult';
import { isCustomFunctionsError, type CustomFunction } from './customFunctionsStub';
import { errors, isError, isMatrix, type CellError, type Matrix, type Value } from './formula/values';

export interface ParameterInfo {
  name: string;
  type?: string;
  optional?: boolean;
  /** 'matrix': the parameter takes a range or an array as it is (rows of values), as a budget does. */
  dimensionality?: string;
}

/** One function of functions.json (what Excel registers). */
export interface FunctionInfo {
  id: string;
  name: string;
  parameters: ParameterInfo[];
  stream: boolean;
  cancelable: boolean;
}

/** functions.json's functions, by id (upper case). */
export function parseFunctionsJson(json: unknown): Map<string, FunctionInfo> {
  const out = new Map<string, FunctionInfo>();
  const list = (json as { functions?: unknown })?.functions;
  if (!Array.isArray(list)) return out;
  for (const f of list as Record<string, unknown>[]) {
    if (typeof f?.id !== 'string') continue;
    const options = (f.options ?? {}) as Record<string, unknown>;
    const parameters = Array.isArray(f.parameters) ? (f.parameters as ParameterInfo[]) : [];
    out.set(f.id.toUpperCase(), {
      id: f.id.toUpperCase(),
      name: typeof f.name === 'string' ? f.name : f.id,
      parameters: parameters.map((p) => ({ name: String(p.name), type: p.type, optional: p.optional === true, dimensionality: p.dimensionality })),
      stream: options.stream === true,
      cancelable: options.cancelable === true || options.stream === true,
    });
  }
  return out;
}

function toScalar(v: unknown): Scalar {
  if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return v;
  return '';
}

/** A function's answer as a cell result. */
export function toResult(value: unknown): CellResult {
  if (isCustomFunctionsError(value)) return { state: 'error', code: value.code, message: value.message };
  if (Array.isArray(value)) {
    if (value.length === 0 || !value.every((r) => Array.isArray(r))) {
      return { state: 'error', code: '#VALUE!', message: 'The function returned an array that is not a matrix (rows of cells)' };
    }
    const width = Math.max(...(value as unknown[][]).map((r) => r.length));
    if (width === 0) return { state: 'error', code: '#CALC!', message: 'The function returned an empty array' };
    const rows = (value as unknown[][]).map((r) => Array.from({ length: width }, (_, c) => toScalar(r[c])));
    if (rows.length === 1 && width === 1) return { state: 'value', value: rows[0][0] };
    return { state: 'spill', rows };
  }
  if (typeof value === 'number' && !Number.isFinite(value)) return { state: 'error', code: '#NUM!' };
  if (value === null || value === undefined) return { state: 'value', value: 0 };
  return { state: 'value', value: toScalar(value) };
}

function errorResult(error: unknown): CellResult {
  if (isCustomFunctionsError(error)) return { state: 'error', code: error.code, message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  return { state: 'error', code: '#VALUE!', message: `The function threw: ${message}` };
}

type Literal = Scalar | null;
type Argument = Literal | Literal[][];

/** Excel's conversion of an argument to a parameter's declared type; an error when it cannot. */
function coerce(value: Literal, type: string | undefined, name: string): Literal | CellError {
  if (value === null || !type || type === 'any') return value;
  if (type === 'number') {
    if (typeof value === 'number') return value;
    if (typeof value === 'boolean') return value ? 1 : 0;
    const n = Number(value.trim());
    return value.trim() !== '' && Number.isFinite(n) ? n : errors.value(`${name} must be a number`);
  }
  if (type === 'string') return typeof value === 'boolean' ? (value ? 'TRUE' : 'FALSE') : String(value);
  if (type === 'boolean') {
    if (typeof value === 'boolean') return value;
    if (typeof value === 'number') return value !== 0;
    if (/^(true|false)$/i.test(value)) return /^true$/i.test(value);
    return errors.value(`${name} must be TRUE or FALSE`);
  }
  return value;
}

/** A call ready to be made: the function, its converted arguments, and what identifies it. */
export interface PreparedCall {
  /** The same function with the same arguments: one call, whose answer a cell keeps until recalculated. */
  key: string;
  label: string;
  fn: CustomFunction;
  values: Argument[];
  info?: FunctionInfo;
}

export class CustomFunctionHost {
  private info = new Map<string, FunctionInfo>();

  constructor(
    private readonly functions: Map<string, CustomFunction>,
    readonly namespace = 'FIN',
  ) {}

  /** functions.json, once loaded; without it the parameter count comes from the function's length. */
  useMetadata(info: Map<string, FunctionInfo>): void {
    this.info = info;
  }

  metadata(): Map<string, FunctionInfo> {
    return this.info;
  }

  isCustom(name: string): boolean {
    return name.toUpperCase().startsWith(`${this.namespace}.`);
  }

  /**
   * Excel's part before the call: the function by name, one argument per declared parameter (undefined for
   * one left empty), each a single value of its declared type, or the rows of a range for a matrix parameter
   * (a blank cell in it is null, as Excel on the web gives it). An error when Excel would not call it.
   */
  prepare(name: string, args: (Value | Matrix | undefined)[]): PreparedCall | CellError {
    const id = name.toUpperCase().slice(this.namespace.length + 1);
    const label = `${this.namespace}.${id}`;
    const fn = this.functions.get(id);
    if (!fn) return errors.name(`${label} is not a function of this add-in`);
    const info = this.info.get(id);
    const params: ParameterInfo[] = info?.parameters ?? Array.from({ length: Math.max(0, fn.length - 1) }, (_, i) => ({ name: `argument ${i + 1}` }));
    if (args.length > params.length) return errors.value(`${label} takes at most ${plural(params.length, 'argument')}`);
    const values: Argument[] = [];
    for (let i = 0; i < params.length; i++) {
      const p = params[i];
      const given = args[i];
      if (given === undefined && info && !p.optional) return errors.value(`${label} needs its ${p.name} argument`);
      if (p.dimensionality === 'matrix' && given !== undefined) {
        const rows = isMatrix(given) ? given : [[given]];
        const failed = rows.flat().find(isError);
        if (failed) return failed;
        values.push(rows as Literal[][]);
        continue;
      }
      let one: Value;
      if (isMatrix(given)) {
        if (given.length !== 1 || given[0].length !== 1) return errors.value(`${label} takes one value for ${p.name}, not a range or an array`);
        one = given[0][0];
      } else {
        one = given ?? null;
      }
      if (isError(one)) return one;
      const c = coerce(one, p.type, p.name);
      if (isError(c)) return c;
      values.push(c);
    }
    return { key: JSON.stringify([id, values]), label, fn, values, info };
  }

  /**
   * Makes the call for the cell at `address`. `onResult` gets the answer when it comes (a streaming
   * function's every update); the returned cancel tells a cancelable function it is no longer wanted.
   */
  start(call: PreparedCall, address: string, onResult: (result: CellResult) => void): { cancel?: () => void } {
    const invocation: Record<string, unknown> = {
      address,
      functionName: call.label,
      parameterAddresses: call.values.map(() => ''),
      isInValuePreview: false,
    };
    const cancelable = call.info?.stream || call.info?.cancelable;
    if (cancelable) invocation.onCanceled = () => undefined;
    const cancel = cancelable ? () => (invocation.onCanceled as () => void)() : undefined;
    if (call.info?.stream) {
      invocation.setResult = (value: unknown) => onResult(toResult(value));
      try {
        call.fn(...call.values, invocation);
      } catch (error) {
        onResult(errorResult(error));
      }
      return { cancel };
    }
    try {
      Promise.resolve(call.fn(...call.values, invocation)).then(
        (answer) => onResult(toResult(answer)),
        (error: unknown) => onResult(errorResult(error)),
      );
    } catch (error) {
      const result = errorResult(error);
      // A synchronous throw still answers after the call returns, as a rejected promise would.
      void Promise.resolve().then(() => onResult(result));
    }
    return { cancel };
  }
}
