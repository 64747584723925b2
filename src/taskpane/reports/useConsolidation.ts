// The consolidated statement's state on the Reports tab: the connected companies and which are chosen, the
// statement and period, the cost per company, the blocks in the workbook; and what the user does with them
// (insert, refresh a block, forget one, save the chosen companies as a group).

import { useMemo, useState } from 'react';
import type { ConsolidatedBlock, ConsolidatedSpec } from '../../engine/consolidation/insert';
import type { NamedPeriodKey } from '../../engine/dates';
import type { StatementSpec } from '../../engine/statements';
import { GROUPS_SETTING, nameKey, withGroup } from '../../runtime';
import { namedPeriod, plural, statementLabel, STATEMENTS } from '../../runtime/screenKit';
import type { PaneServices } from '../services';
import type { ConnectedState } from '../session';
import { useToday } from '../shared/hooks';
import { useLiveEffect } from '../shared/useLiveEffect';

/**
 * Why a group may not have this name, or null: a group name never equals a connection's name, a connected
 * company's name or a company id (a formula naming the company would get the group's figures).
 */
export function groupNameClash(name: string, connection: ConnectedState): string | null {
  const key = nameKey(name);
  for (const c of connection.connections) {
    if (nameKey(c.name) === key) return `"${name}" is the name of the connection ${c.name}: give the group another name.`;
    if (nameKey(c.companyName) === key) return `"${name}" is the name of the company ${c.companyName} (connection ${c.name}): give the group another name.`;
    if (c.companyId === name.trim()) return `"${name}" is the company id of ${c.companyName}: give the group another name.`;
  }
  return null;
}

export function useConsolidation(services: PaneServices, connection: ConnectedState) {
  const today = useToday(services);
  const [names, setNames] = useState<string[]>([]);
  /** By company id: a block's company is found here whatever its connection is called now. */
  const [connectedIds, setConnectedIds] = useState<Set<string>>(new Set());
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [statement, setStatement] = useState<StatementSpec['statement']>('income_statement');
  const [periodKey, setPeriodKey] = useState<NamedPeriodKey>('last_quarter');
  const [cost, setCost] = useState<string>('');
  const [error, setError] = useState<unknown>(null);
  const [blocks, setBlocks] = useState<ConsolidatedBlock[]>([]);
  const [blocksVersion, setBlocksVersion] = useState(0);

  useLiveEffect(
    (ifLive) => {
      void connection.workspace.consolidation.blocks().then(ifLive(setBlocks), () => undefined);
    },
    [connection.workspace, blocksVersion],
  );

  useLiveEffect(
    (ifLive) => {
      void services.runtime.listConnections().then(
        ifLive((list) => {
          const all = list.list.map((c) => c.name);
          setNames(all);
          setConnectedIds(new Set(list.list.map((c) => c.companyId)));
          setChosen(new Set(all));
        }),
      );
    },
    [services.runtime, connection],
  );

  const spec = useMemo((): ConsolidatedSpec => {
    const p = namedPeriod(periodKey, { today, fiscalYearStartMonth: connection.fiscalYearStartMonth });
    return { statement, period: 'custom', start: p.start, end: p.end, scale: 'units', fiscalYearStartMonth: connection.fiscalYearStartMonth ?? 1 };
  }, [statement, periodKey, today, connection.fiscalYearStartMonth]);

  const { consolidation } = connection.workspace;
  const picked = names.filter((n) => chosen.has(n));

  useLiveEffect(
    (ifLive) => {
      if (picked.length < 2) {
        setCost('');
        return;
      }
      void (async () => {
        const c = await consolidation.cost(picked, spec);
        const each = c.perCompany.map((p) => `${p.name} ${plural(p.cost.calls, 'call')}`).join(', ');
        return `Costs ${plural(c.calls, 'call')}: ${each} (one per company, none for what is cached).`;
      })().then(ifLive(setCost), setError);
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- picked is names and chosen
    [names, chosen, spec, consolidation],
  );

  return { names, connectedIds, chosen, setChosen, statement, setStatement, periodKey, setPeriodKey, cost, error, setError, blocks, setBlocksVersion, spec, picked };
}

export type ConsolidationState = ReturnType<typeof useConsolidation>;

/** Insert, refresh a block, forget one, save the chosen companies as a group: each says what it did, or its error. */
export function useConsolidationActions(services: PaneServices, connection: ConnectedState, state: ConsolidationState, groupName: string) {
  const { consolidation } = connection.workspace;
  const { picked, spec, statement, names, chosen, setError, setBlocksVersion } = state;
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState('');

  const insert = async () => {
    setBusy(true);
    setError(null);
    setResult('');
    try {
      // Each company pays its own part: a line on each one's log.
      const { written, companies } = await consolidation.insert(picked, spec, (companyIds, run) =>
        services.actions.track(`Consolidated ${STATEMENTS.find((s) => s.key === statement)!.label.toLowerCase()}`, run, companyIds),
      );
      setBlocksVersion((v) => v + 1);
      setResult(`Inserted the consolidated statement at ${written.address}: ${companies} companies and their total, no eliminations.`);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  /** Refresh this block: each company's report again, on its own connection (one call each). */
  const refreshBlock = async (block: ConsolidatedBlock) => {
    setBusy(true);
    setError(null);
    setResult('');
    try {
      const companyIds = block.members.map((x) => x.companyId);
      const { written } = await services.actions.track(`Refresh consolidated ${statementLabel(block.spec.statement).toLowerCase()}`, () => consolidation.refresh(block), companyIds);
      const spent = companyIds.reduce((n, id) => n + (services.actions.entries(id)[0]?.calls ?? 0), 0);
      setResult(`Refreshed the consolidated statement at ${written.address}. Spent ${plural(spent, 'call')}.`);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
      setBlocksVersion((v) => v + 1);
    }
  };

  const forget = async (block: ConsolidatedBlock) => {
    setError(null);
    try {
      await consolidation.forget(block.binding);
      setResult(`Forgot the consolidated statement at ${block.binding.address}: its cells stay as they are, and it is refreshed no more.`);
    } catch (e) {
      setError(e);
    } finally {
      setBlocksVersion((v) => v + 1);
    }
  };

  /** The chosen companies as a named group in the workbook, for consolidated FIN lines. */
  const saveGroup = async () => {
    setError(null);
    setResult('');
    try {
      const name = groupName.trim();
      const members = names.filter((n) => chosen.has(n));
      if (name === '' || members.length < 2) throw new Error('Name the group and choose at least two companies.');
      const clash = groupNameClash(name, connection);
      if (clash) throw new Error(clash);
      await services.gateway.writeSetting(GROUPS_SETTING, withGroup(await services.gateway.readSetting(GROUPS_SETTING), name, members));
      // The user's own group: accepted on this computer as it is saved.
      await services.runtime.acceptGroup(name);
      setResult(`Saved the group "${name}" (${members.join(' + ')}) in this workbook: =FIN.PNL("Revenue", …, "${name}") adds up its companies' figures.`);
    } catch (e) {
      setError(e);
    }
  };

  return { busy, result, insert, refreshBlock, forget, saveGroup };
}
