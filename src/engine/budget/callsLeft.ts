// An action that cannot finish within the calls left this month is not started (issue 13, item 2): on the
// Formation plan an Insert of 12 months with 9 calls left spent the 9, inserted nothing and only then said the
// limit was reached. The pane asks before it spends; this is what it asks and what it says.

import { plural } from '../text/plural';

export interface CallsLeft {
  /** Calls left this month (the plan's cap less what this add-in counted). */
  left: number;
  /** The plan's name as the user knows it ("Formation"). */
  plan: string;
  /** The Pacific date of the monthly reset (`YYYY-MM-DD`). */
  resetDate: string;
}

/** Whether an action of `calls` calls would stop part way (unknown allowance: never). */
export function exceedsLeft(calls: number, left: CallsLeft | null): left is CallsLeft {
  return left !== null && calls > left.left;
}

/** Why the action is not started, and when it could be. */
export function notStartedText(what: string, calls: number, left: CallsLeft): string {
  const only = left.left === 0 ? 'no calls are left' : `only ${plural(left.left, 'call')} ${left.left === 1 ? 'is' : 'are'} left`;
  return `${what} costs ${plural(calls, 'call')} and ${only} this month on the ${left.plan} plan, so it is not started: it would stop part way. The limit resets on ${left.resetDate} at 00:00 Pacific Time.`;
}
