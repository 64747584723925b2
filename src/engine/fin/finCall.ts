// A FIN cell's call, as Excel makes it: the function's name and its arguments in the function's order. The
// call alone says what to evaluate, so the custom functions hand over nothing else (no closure of their own):
// Excel calls a recalculation's thousands of cells in one synchronous loop that the add-in cannot slice, and
// what each cell costs there is what the task pane waits for (issue 17). The arguments are read out of the
// call when the evaluation's turn comes (turns.ts), not in that loop.

/** One FIN function call as a cell made it. */
export interface FinCall {
  /** The function (FIN.<name>), upper case as functions.ts names it. */
  readonly name: string;
  /** Its arguments as Excel gave them, in the function's order (the company last, but before FIN.TOTAL's and FIN.PNL's department). */
  readonly args: readonly unknown[];
  /** The cell's address as Excel gives it ("Sheet1!B2"), where the function asks for it. */
  readonly address?: string;
  /** The company argument as the runtime picks a connection by it (trimmed; none: the default connection). */
  readonly company?: string;
}
