// How a FIN function tells formula value preview from a real evaluation (src/functions/valuePreview.ts).
import { createValuePreviewCheck, MISSING_PREVIEW_FLAG_WARNING, officeHasValuePreview } from '../../src/functions/valuePreview';

function check(hostHasPreview: boolean) {
  const warnings: string[] = [];
  const asked = { count: 0 };
  const isPreview = createValuePreviewCheck({
    hostHasPreview: () => {
      asked.count += 1;
      return hostHasPreview;
    },
    warn: (m) => warnings.push(m),
  });
  return { isPreview, warnings, asked };
}

const invocation = (flag: unknown) => ({ isInValuePreview: flag }) as CustomFunctions.Invocation;

describe('isValuePreview', () => {
  it('true and "true" (Microsoft types the flag as a string) are previews; false, "false" and anything else are not', () => {
    const { isPreview, warnings } = check(true);
    expect([true, 'true', 'TRUE', ' true '].map((f) => isPreview(invocation(f)))).toEqual([true, true, true, true]);
    expect([false, 'false', '', 0, 1, 'yes'].map((f) => isPreview(invocation(f)))).toEqual([false, false, false, false, false, false]);
    expect(warnings).toEqual([]);
  });

  it('a host without value preview (no CustomFunctionsRuntime 1.5): no flag is a real evaluation, nothing to report', () => {
    const { isPreview, warnings, asked } = check(false);
    expect(isPreview(invocation(undefined))).toBe(false);
    expect(isPreview(undefined)).toBe(false);
    expect(warnings).toEqual([]);
    expect(asked.count).toBe(1); // asked once per page, not per evaluation
  });

  it('a host with value preview but no flag (an office.js that never sets it): evaluated, and said once', () => {
    const { isPreview, warnings } = check(true);
    expect(isPreview(invocation(undefined))).toBe(false);
    expect(isPreview({} as CustomFunctions.Invocation)).toBe(false);
    expect(warnings).toEqual([MISSING_PREVIEW_FLAG_WARNING]);
  });

  it("asks Office for CustomFunctionsRuntime 1.5, and is false outside Office or when Office throws", () => {
    expect(officeHasValuePreview()).toBe(false);
    const isSetSupported = jest.fn(() => true);
    (globalThis as any).Office = { context: { requirements: { isSetSupported } } };
    try {
      expect(officeHasValuePreview()).toBe(true);
      expect(isSetSupported).toHaveBeenCalledWith('CustomFunctionsRuntime', '1.5');
      isSetSupported.mockImplementation(() => {
        throw new Error('not ready');
      });
      expect(officeHasValuePreview()).toBe(false);
    } finally {
      delete (globalThis as any).Office;
    }
  });
});
