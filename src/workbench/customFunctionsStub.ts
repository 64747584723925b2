// A stand-in for the CustomFunctions global of Excel's custom-functions runtime, installed before
// src/functions/functions.ts is evaluated (import this module first). The metadata plugin appends
// `CustomFunctions.associate("TOTAL", total)` calls to functions.ts at build time; here they fill the
// registry the workbench's evaluator calls, so a formula reaches exactly the function Excel would.

export type CustomFunction = (...args: unknown[]) => unknown;

/** Function id (upper case, no namespace) -> the associated JavaScript function. */
export const registry = new Map<string, CustomFunction>();

export const ErrorCode = {
  invalidValue: '#VALUE!',
  notAvailable: '#N/A',
  divisionByZero: '#DIV/0!',
  invalidNumber: '#NUM!',
  nullReference: '#NULL!',
  invalidName: '#NAME?',
  invalidReference: '#REF!',
} as const;

/** CustomFunctions.Error: what a function throws or returns to show an error in its cell. */
export class CustomFunctionsError {
  constructor(
    readonly code: string,
    readonly message?: string,
  ) {}
}

export function isCustomFunctionsError(value: unknown): value is CustomFunctionsError {
  return value instanceof CustomFunctionsError;
}

const stub = {
  Error: CustomFunctionsError,
  ErrorCode,
  associate(id: string | Record<string, CustomFunction>, fn?: CustomFunction): void {
    if (typeof id === 'string') {
      if (typeof fn === 'function') registry.set(id.toUpperCase(), fn);
      return;
    }
    // associate({ ID: fn, ... }) is the other documented form.
    for (const [key, value] of Object.entries(id)) if (typeof value === 'function') registry.set(key.toUpperCase(), value);
  },
};

const g = globalThis as { CustomFunctions?: unknown };
if (g.CustomFunctions === undefined) g.CustomFunctions = stub;
