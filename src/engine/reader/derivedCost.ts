// How a cost says what derivation saves (issue 30): the requests answered from the statements at no call,
// and the months a plan fetches in place of the requests they answer.

import { plural } from '../text/plural';
import { DERIVED_REASON } from './derive';

export interface DerivedCost {
  derived?: number;
  instead?: { fetch: number; replace: number };
}

/** "; 8 from the monthly statements (12 monthly statements fetched in place of 40 requests)", or ''. */
export function derivedNote(cost: DerivedCost): string {
  if (!cost.derived) return '';
  const instead = cost.instead ? ` (${plural(cost.instead.fetch, 'monthly statement')} fetched in place of ${plural(cost.instead.replace, 'request')})` : '';
  return `; ${cost.derived} ${DERIVED_REASON}, 0 calls${instead}`;
}
