// The companies the workspace works on: the default one (its statements engine built at once), the other
// connected ones (built once each, when first asked for), and the workbook's transactions tables, each on
// the engine of the company it was pulled from.

import type { Client } from '../../api';
import type { CachedReader } from '../../engine/reader/cachedReader';
import { createStatementsEngine, type StatementsEngine } from '../../engine/statements';
import { createTransactionsEngine, tablesByCompany, type TransactionsEngine } from '../../engine/transactions';
import type { CompanyWorkspace, WorkspaceConnections, WorkspaceEnv } from './types';

export interface WorkspaceCompanies {
  /** The default company. */
  own: CompanyWorkspace;
  /** The default company, or another connected one (null when it is connected no more). */
  company(companyId?: string): Promise<CompanyWorkspace | null>;
  /** The workbook's transactions tables, each on the connection of the company it was pulled from. */
  transactions: TransactionsEngine;
  /** The other connections' companies this workbook reads: those with blocks or tables here, or answers cached. */
  otherCompaniesRead(): Promise<CompanyWorkspace[]>;
}

type EnginesEnv = Pick<WorkspaceEnv, 'gateway' | 'journal' | 'now' | 'timeZone' | 'poll'>;

/** The statements and transactions engines of one company. */
function enginesOf(env: EnginesEnv) {
  const { gateway } = env;
  const statementsOf = (c: { client: Client; reader: CachedReader; companyName: string }): StatementsEngine =>
    createStatementsEngine({ gateway, reader: c.reader, client: c.client, companyName: c.companyName, now: env.now, timeZone: env.timeZone });
  const transactionsOf = (c: { client: Client; reader: CachedReader; keyFingerprint: string; companyName: string; name: string }): TransactionsEngine =>
    createTransactionsEngine({
      client: c.client,
      reader: c.reader,
      gateway,
      journal: env.journal,
      owner: { keyFingerprint: c.keyFingerprint, label: c.companyName },
      connection: c.name,
      timeZone: env.timeZone,
      now: env.now,
      poll: env.poll,
    });
  return { statementsOf, transactionsOf };
}

export function workspaceCompanies(env: EnginesEnv & Pick<WorkspaceEnv, 'runtime'>, connected: WorkspaceConnections): WorkspaceCompanies {
  const { runtime, gateway } = env;
  const { statementsOf, transactionsOf } = enginesOf(env);

  const defaultSettings = connected.connections.find((c) => c.companyId === connected.companyId);
  const own: CompanyWorkspace = {
    name: defaultSettings?.name ?? connected.companyName,
    companyId: connected.companyId,
    companyName: connected.companyName,
    baseUrl: defaultSettings?.baseUrl ?? connected.client.baseUrl,
    plan: connected.plan,
    fiscalYearStartMonth: defaultSettings?.fiscalYearStartMonth ?? 1,
    client: connected.client,
    reader: connected.reader,
    keyFingerprint: connected.keyFingerprint,
    statements: statementsOf(connected),
  };

  /** Other companies' workspaces, built once each (null: no longer connected). */
  const others = new Map<string, Promise<CompanyWorkspace | null>>();
  const company = (companyId?: string): Promise<CompanyWorkspace | null> => {
    if (companyId === undefined || companyId === own.companyId) return Promise.resolve(own);
    let found = others.get(companyId);
    if (!found) {
      found = (async () => {
        const settings = connected.connections.find((c) => c.companyId === companyId);
        if (!settings) return null;
        const [client, reader, stored] = await Promise.all([runtime.getClient(companyId), runtime.getReader(companyId), runtime.getConnection(companyId)]);
        if (!client || !reader || !stored?.keyFingerprint) return null;
        return { ...settings, client, reader, keyFingerprint: stored.keyFingerprint, statements: statementsOf({ client, reader, companyName: settings.companyName }) };
      })();
      others.set(companyId, found);
    }
    return found;
  };

  const ownTables = transactionsOf(own);
  const tableEngines = new Map<string, Promise<TransactionsEngine | null>>();
  const transactions = tablesByCompany({
    gateway,
    own: ownTables,
    engineFor: (companyId) => {
      if (companyId === own.companyId) return Promise.resolve(ownTables);
      let engine = tableEngines.get(companyId);
      if (!engine) {
        engine = company(companyId).then((c) => (c ? transactionsOf(c) : null));
        tableEngines.set(companyId, engine);
      }
      return engine;
    },
  });

  const otherCompaniesRead = async (): Promise<CompanyWorkspace[]> => {
    const rest = connected.connections.filter((c) => c.companyId !== own.companyId);
    if (rest.length === 0) return [];
    const bound = new Set((await gateway.listBindings()).map((b) => b.company));
    const out: CompanyWorkspace[] = [];
    for (const settings of rest) {
      const other = await company(settings.companyId);
      if (!other) continue;
      const used = bound.has(other.companyId) || (await other.reader.cache.storedKeys(other.companyId).catch(() => [])).length > 0;
      if (used) out.push(other);
    }
    return out;
  };

  return { own, company, transactions, otherCompaniesRead };
}
