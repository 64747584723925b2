// The engine's answer for input a user typed: a value, or the message that says what is wrong with it.
// Programming errors throw instead; a Result is for what the user can fix.

export type Result<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

export function fail<T = never>(error: string): Result<T> {
  return { ok: false, error };
}
