// A stand-in for Excel's CustomFunctions global (the runtime Excel gives custom functions), so the real
// wrappers of src/functions/functions.ts run in Node: a cell error is an instance of CellError with the
// code and message Excel would show.

export class CellError {
  constructor(
    readonly code: string,
    readonly message?: string,
  ) {}
}

const ErrorCode = {
  invalidValue: '#VALUE!',
  notAvailable: '#N/A',
  divisionByZero: '#DIV/0!',
  invalidNumber: '#NUM!',
  nullReference: '#NULL!',
  invalidName: '#NAME?',
  invalidReference: '#REF!',
};

/** Installs the stand-in once (an existing CustomFunctions global is left as it is). */
export function installCustomFunctions(): void {
  const g = globalThis as { CustomFunctions?: unknown };
  g.CustomFunctions ??= { Error: CellError, ErrorCode };
}

/** An ordinary cell's invocation (not a formula value preview). */
export function cellInvocation(): CustomFunctions.Invocation {
  return { isInValuePreview: false } as unknown as CustomFunctions.Invocation;
}
