// An action the engine refuses before it does anything, worded for the user: a title and a sentence that
// says what to do. The pane shows it as it is (src/taskpane/shared/errors.ts), like its own refusals.

export class Refusal extends Error {
  override name = 'Refusal';
  constructor(
    readonly title: string,
    message: string,
    /** A stable tag for tests and support ('other_company', ...). */
    readonly code: string,
  ) {
    super(message);
  }
}

export function isRefusal(value: unknown): value is Refusal {
  return value instanceof Refusal;
}
