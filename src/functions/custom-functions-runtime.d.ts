// The CustomFunctions global that Excel's custom-functions runtime provides. Microsoft's declarations
// (@types/custom-functions-runtime) are not among the project's dependencies, so the part functions.ts
// uses is declared here with Microsoft's names and values. If that package is ever added (and listed in
// tsconfig "types"), delete this file.

declare namespace CustomFunctions {
  /** Returned or thrown to show an error in the cell; custom messages work with #VALUE! and #N/A. */
  class Error {
    constructor(code: ErrorCode, message?: string);
    code: ErrorCode;
    message?: string;
  }

  enum ErrorCode {
    invalidValue = '#VALUE!',
    notAvailable = '#N/A',
    divisionByZero = '#DIV/0!',
    invalidNumber = '#NUM!',
    nullReference = '#NULL!',
    invalidName = '#NAME?',
    invalidReference = '#REF!',
  }

  interface Invocation {
    address?: string;
    functionName?: string;
    parameterAddresses?: string[];
    /**
     * True while Excel evaluates the formula for its value preview (CustomFunctionsRuntime 1.5). Documented as
     * a boolean, declared `string` by Microsoft's types: read it with valuePreview.ts's isValuePreview.
     */
    isInValuePreview?: boolean | string;
  }

  interface CancelableInvocation extends Invocation {
    onCanceled: () => void;
  }

  interface StreamingInvocation<ResultType> extends CancelableInvocation {
    setResult: (value: ResultType | Error) => void;
  }

  function associate(id: string, functionObject: (...args: never[]) => unknown): void;
}
