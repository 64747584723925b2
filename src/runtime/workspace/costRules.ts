// The cost and cap rules every action of the workspace is held to before it spends: the calls left this
// month on the plan the user gave, nothing fetched while the cap is spent, nothing started that would stop
// part way.

import { exceedsLeft, notStartedText, type CallsLeft } from '../../engine/budget/callsLeft';
import { Refusal } from '../../engine/refusal';
import { planLabel } from '../plans';
import type { CompanyWorkspace } from './types';

export async function callsLeftOf(c: CompanyWorkspace): Promise<CallsLeft | null> {
  const left = await c.client.meter.remaining(c.plan).catch(() => undefined);
  if (left === undefined) return null;
  return { left, plan: planLabel(c.plan), resetDate: c.client.meter.nextReset().date };
}

/** While the cap is known to be spent, nothing can be fetched: refreshing would only empty the cache. */
export async function refuseAtCap(c: CompanyWorkspace): Promise<void> {
  const limit = await c.reader.capBlock();
  if (!limit) return;
  throw new Refusal(
    'Monthly API limit reached',
    `Nothing can be fetched until the limit resets on ${limit.resetDate} at 00:00 Pacific Time, so nothing was refreshed. The figures in the workbook stay as they are.`,
    'monthly_limit_exceeded',
  );
}

export function refuseOverLeft(who: string | null, what: string, calls: number, left: CallsLeft | null, instead: string): void {
  if (!exceedsLeft(calls, left)) return;
  throw new Refusal('Not started: too few calls left this month', `${who ? `${who}: ` : ''}${notStartedText(what, calls, left)}${instead ? ` ${instead}` : ''}`, 'calls_left');
}
