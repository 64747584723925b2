// Excel's CustomFunctions global in Node, so the real wrappers of src/functions/functions.ts run here: the
// workbench's stand-in (src/workbench/customFunctionsStub.ts, installed when imported), one for both. A cell
// error is an instance of its error class with the code and message Excel would show.
import '../../src/workbench/customFunctionsStub';

export { CustomFunctionsError as CellError } from '../../src/workbench/customFunctionsStub';

/** An ordinary cell's invocation (not a formula value preview). */
export function cellInvocation(): CustomFunctions.Invocation {
  return { isInValuePreview: false } as unknown as CustomFunctions.Invocation;
}
