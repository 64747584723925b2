// Formula value preview: while the user edits a formula, Excel may evaluate it (or a selected part) to show
// its value. A preview must never spend a call, so the engine only peeks at the cache for it
// (EvalContext.preview). Excel says so in invocation.isInValuePreview, on hosts with CustomFunctionsRuntime
// 1.5; a host without that set has no value preview of custom functions, so there is nothing to tell apart.
// The flag is filled in by the office.js the page loaded: the CDN's does, the npm package's (1.1.110)
// never does (webpack.config.js loads the CDN's unless told otherwise).

export interface ValuePreviewOptions {
  /** Whether the host has value preview of custom functions (CustomFunctionsRuntime 1.5). */
  hostHasPreview: () => boolean;
  /** Told once when the host has preview but the invocations carry no flag. */
  warn: (message: string) => void;
}

export const MISSING_PREVIEW_FLAG_WARNING =
  'FIN: Excel previews formula values here (CustomFunctionsRuntime 1.5), but this page\'s office.js does not say ' +
  'which evaluations are previews, so previews of uncached FIN formulas spend API calls. Load office.js from ' +
  "Microsoft's CDN (the default build; not --env officejs=local).";

/** CustomFunctionsRuntime 1.5, asked of Office; false outside Office or before it is ready. */
export function officeHasValuePreview(): boolean {
  try {
    return typeof Office !== 'undefined' && Office.context?.requirements?.isSetSupported('CustomFunctionsRuntime', '1.5') === true;
  } catch {
    return false;
  }
}

/**
 * Reads the preview flag of an invocation. Microsoft documents it as a boolean but declares it a string
 * (@types/custom-functions-runtime), so both `true` and `"true"` mean a preview, and nothing else does.
 */
export function createValuePreviewCheck(options: ValuePreviewOptions): (invocation: CustomFunctions.Invocation | undefined) => boolean {
  let hostHasPreview: boolean | undefined;
  let warned = false;
  return (invocation) => {
    const flag: unknown = invocation?.isInValuePreview;
    if (flag === undefined || flag === null) {
      hostHasPreview ??= options.hostHasPreview();
      if (hostHasPreview && !warned) {
        warned = true;
        options.warn(MISSING_PREVIEW_FLAG_WARNING);
      }
      return false;
    }
    return flag === true || (typeof flag === 'string' && flag.trim().toLowerCase() === 'true');
  };
}

/** The page's check: Office's requirement sets, warnings to the console. */
export const isValuePreview = createValuePreviewCheck({ hostHasPreview: officeHasValuePreview, warn: (message) => console.warn(message) });
