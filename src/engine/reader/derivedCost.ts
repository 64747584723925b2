// How a cost says what derivation saves (issue 30): the requests answered from the statements at no call,
// and the months a plan fetches in place of the requests they answer.

import { plural } from '../text/plural';
import { DERIVED_REASON } from './derive';

export interface DerivedCost {
  derived?: number;
  instead?: { fetch: number; replace: number };
}

/**
 * ", and 40 from the monthly statements at no call: 12 monthly statements fetched in place of 40 requests",
 * or ''. It follows the "(N cached)" of a cost, which readers of the cost line take as its end.
 */
export function derivedNote(cost: DerivedCost): string {
  if (!cost.derived) return '';
  const instead = cost.instead ? `: ${plural(cost.instead.fetch, 'monthly statement')} fetched in place of ${plural(cost.instead.replace, 'request')}` : '';
  return `, and ${cost.derived} ${DERIVED_REASON} at no call${instead}`;
}
