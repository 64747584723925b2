// What the user does with connections: checks a key (identify), connects a company, picks the default,
// turns derivation on or off, disconnects; and the list the pane shows. Each stores what it changed in add-in
// storage and installs the connections anew.

import type { Company } from '../api';
import type { CacheStore, SecretStore } from '../engine/ports/storage';
import type { RequestCache } from '../engine/reader/requestCache';
import {
  claimCache,
  forgetCacheOwner,
  forgetConnection,
  keyFingerprint,
  MAX_NAME_LENGTH,
  nameKey,
  storeConnection,
  storeConnectionSettings,
  storeDefault,
  type ConnectParams,
  type StoredConnection,
  type StoredConnections,
} from './connection';
import type { ConnectedFactory } from './connected';
import type { FinCells } from './finCells';
import { pick, type LoadedConnections } from './loadedConnections';
import { forgetLearnedNames } from './learnedNames';

export interface Identified {
  /** The key's company as GET /company answered. */
  company: Company;
  /** The validated base URL. */
  baseUrl: string;
  /** Calls it spent (the one GET /company). */
  calls: number;
}

export interface DisconnectOptions {
  /** Which connection (its name or company id); default the default one. */
  company?: string;
  /**
   * Also remove the company's cached answers from add-in storage (shared with every add-in served from the
   * same origin) and whose key filled them. Figures in the workbook and the call meter stay.
   */
  forgetCachedAnswers?: boolean;
}

/** The connections as the pane lists them. */
export interface ConnectionList {
  defaultName: string | null;
  list: StoredConnection[];
}

/** A connection's name the user picked that another company's connection has already, or that reads as another company's id. */
export class ConnectionNameTaken extends Error {
  override name = 'ConnectionNameTaken';
  constructor(
    readonly taken: string,
    message = `A connection named "${taken}" exists already: pick another name`,
  ) {
    super(message);
  }
}

/** The company id prefix (the spec's identifier prefixes): a formula's company argument that has it names a company by id. */
const COMPANY_ID_PREFIX = 'comp_';

/**
 * A name no other company's connection has: the one asked for, else the default with a number added. A
 * formula's company argument is an exact company id before it is a name, so a name that reads as another
 * company's id would never be reached: refused.
 */
function nameFor(wanted: string | undefined, fallback: string, companyId: string, others: StoredConnection[]): string {
  const taken = (name: string) => others.some((c) => c.companyId !== companyId && nameKey(c.name) === nameKey(name));
  const asked = wanted?.trim().slice(0, MAX_NAME_LENGTH);
  if (asked) {
    if (taken(asked)) throw new ConnectionNameTaken(asked);
    if (asked.toLowerCase().startsWith(COMPANY_ID_PREFIX) && asked !== companyId) {
      throw new ConnectionNameTaken(asked, `"${asked}" reads as a company id (${COMPANY_ID_PREFIX}…), and formulas take a company id for that company: pick another name`);
    }
    return asked;
  }
  let name = fallback.trim().slice(0, MAX_NAME_LENGTH) || companyId;
  for (let n = 2; taken(name); n++) name = `${fallback.trim().slice(0, MAX_NAME_LENGTH - 4)} ${n}`;
  return name;
}

/** What the runtime does with connections (Runtime extends it). */
export interface ConnectionCommands {
  /** Every connection and which one is the default. */
  listConnections(): Promise<ConnectionList>;
  /** Checks a base URL and key with one GET /company (through a reader) and says whose key it is. */
  identify(params: { baseUrl: string; apiKey: string }): Promise<Identified>;
  /**
   * Stores the key and connection of its company (replacing that company's earlier one, keeping the others)
   * and, unless makeDefault is false, makes it the default of the FIN functions; learns the company first
   * when not given. Then the formulas that showed "Not connected" are recalculated, or asked about.
   */
  connect(params: ConnectParams): Promise<StoredConnection>;
  /** Makes a connection (name or company id) the default of formulas without a company argument. */
  setDefault(company: string): Promise<void>;
  /**
   * Derivation from the cached statements on or off for a connection (the default one without `company`),
   * persisted with it; `because` says why when the add-in turns it off (a full refresh's check).
   */
  setDerivation(on: boolean, options?: { company?: string; because?: string }): Promise<void>;
  /** Forgets one connection's key (the default one unless named); with forgetCachedAnswers also its cached answers and learned names. */
  disconnect(options?: DisconnectOptions): Promise<void>;
}

export interface ConnectionCommandsDeps {
  secrets: SecretStore;
  cache: RequestCache;
  /** Where a company's learned parameter names are kept (forgotten with its cached answers). */
  stateStore: CacheStore;
  factory: ConnectedFactory;
  connections: LoadedConnections;
  fin: Pick<FinCells, 'recalculateFor' | 'disconnected'>;
  emit: () => void;
}

export function connectionCommands({ secrets, cache, stateStore, factory, connections, fin, emit }: ConnectionCommandsDeps): ConnectionCommands {
  const commands: ConnectionCommands = {
    async listConnections() {
      const loaded = await connections.load();
      return { defaultName: loaded.defaultOne?.connection.name ?? null, list: loaded.list.map((c) => c.connection) };
    },

    async identify(params) {
      // A client of its own, on the shared meter, so the GET /company is on the company's bill.
      const probe = factory.clientFor(params.baseUrl, params.apiKey);
      const company = await factory.readerFor(probe).call('/company', (o) => probe.company.retrieve(o));
      return { company, baseUrl: probe.baseUrl, calls: 1 };
    },

    async connect(params) {
      const probe = factory.clientFor(params.baseUrl, params.apiKey, params.companyId);
      const companyId = params.companyId ?? (await commands.identify(params)).company.id;
      const loaded = await connections.load();
      const others = loaded.list.map((c) => c.connection);
      const earlier = others.find((c) => c.companyId === companyId);
      const name = nameFor(params.name, earlier?.name ?? companyId, companyId, others);
      const connection: StoredConnection = { name, baseUrl: probe.baseUrl, companyId, keyFingerprint: await keyFingerprint(params.apiKey) };
      if (params.fiscalYearStartMonth !== undefined) connection.fiscalYearStartMonth = params.fiscalYearStartMonth;
      // The company's derivation setting stays what it was unless asked (a new key for the same API).
      const derive = params.deriveFromStatements ?? earlier?.deriveFromStatements;
      if (derive === false) {
        connection.deriveFromStatements = false;
        if (params.deriveFromStatements === undefined && earlier?.derivationOffBecause) connection.derivationOffBecause = earlier.derivationOffBecause;
      }
      await claimCache(secrets, companyId, params.apiKey, () => cache.clear(companyId));
      const stored: StoredConnections = await storeConnection(secrets, params.apiKey, connection, params.makeDefault !== false);
      connections.supersede();
      const built = factory.build(connection, params.apiKey);
      await connections.applyClosedBooks(built);
      const kept = (connections.current() ?? loaded).list.filter((c) => c.connection.companyId !== companyId);
      connections.install([...kept, built], stored.defaultName);
      emit();
      await fin.recalculateFor(built);
      return connection;
    },

    async setDerivation(on, options = {}) {
      const loaded = await connections.load();
      const chosen = pick(loaded, options.company);
      if (!chosen) return;
      chosen.reader.derivations.setEnabled(on);
      delete chosen.connection.deriveFromStatements;
      delete chosen.connection.derivationOffBecause;
      if (!on) chosen.connection.deriveFromStatements = false;
      if (!on && options.because) chosen.connection.derivationOffBecause = options.because;
      await storeConnectionSettings(secrets, chosen.connection.companyId, { deriveFromStatements: chosen.connection.deriveFromStatements, derivationOffBecause: chosen.connection.derivationOffBecause });
      emit();
    },

    async setDefault(company) {
      const loaded = await connections.load();
      const chosen = pick(loaded, company);
      if (!chosen) return;
      const stored = await storeDefault(secrets, chosen.connection.name);
      connections.supersede();
      connections.install(loaded.list, stored.defaultName);
      emit();
    },

    /**
     * Forgets one connection's key, and nothing else. Cached answers stay for this key's next connect (see
     * claimCache) unless the user asks to forget them too.
     */
    async disconnect(options = {}) {
      const loaded = await connections.load();
      const leaving = pick(loaded, options.company);
      if (!leaving) return;
      const companyId = leaving.connection.companyId;
      const stored = await forgetConnection(secrets, companyId);
      if (options.forgetCachedAnswers) {
        await cache.clear(companyId);
        await forgetCacheOwner(secrets, companyId);
        // What the client learned of the API's unshown names goes with its answers: a new key or API learns afresh.
        await forgetLearnedNames(stateStore, companyId);
      }
      connections.supersede();
      connections.install(
        loaded.list.filter((c) => c !== leaving),
        stored.defaultName,
      );
      // A question still open about the formulas that showed Not connected is asked again at the next connect.
      fin.disconnected();
      emit();
    },
  };
  return commands;
}
