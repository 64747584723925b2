// Reading a Result in the date tests: the value, or the error message, failing the test otherwise.
import type { Result } from '../../../src/engine/result';

export function value<T>(r: Result<T>): T {
  if (!r.ok) throw new Error(`expected ok, got error: ${r.error}`);
  return r.value;
}

export function error<T>(r: Result<T>): string {
  if (r.ok) throw new Error(`expected an error, got ${JSON.stringify(r.value)}`);
  return r.error;
}
