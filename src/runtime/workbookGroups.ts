// The workbook's groups of companies (groups.ts) as this runtime knows them: read with the connections and
// when the pane saves one, resolved against the connections here, and accepted (or not) on this computer.

import type { SecretStore } from '../engine/ports/storage';
import { nameKey } from './connection';
import { GROUPS_SETTING, groupDefinition, groupsOf, readAccepted, resolveGroup, storeAccepted, type ConnectedMember, type Group } from './groups';
import type { RuntimeHost } from './host';
import { pick, type Loaded } from './loadedConnections';

/** A group of the workbook as the pane shows it for review: its companies as connected here, and whether it is in use. */
export interface GroupReview {
  name: string;
  /** Its entries as the workbook lists them. */
  entries: string[];
  /** Its companies connected here, each once: the connection's name now and the company id. */
  companies: { name: string; companyId: string }[];
  /** Entries that name no connection here. */
  missing: string[];
  /** Accepted on this computer: its figures are added up. */
  accepted: boolean;
  /** A connection has its name (or id): formulas naming it read that connection, never the group. */
  shadowedBy?: string;
}

export interface WorkbookGroups {
  /** Reads the workbook's groups and the definitions accepted here again. */
  load(): Promise<void>;
  /** The group a company argument names, when no connection has that name or id; accepted or not. */
  named(loaded: Loaded | null, company: string | undefined): { group: Group; accepted: boolean } | undefined;
  /** A group's entry as a formula's company argument is resolved. */
  memberOf(loaded: Loaded, entry: string): ConnectedMember | null;
  /** Runtime.workbookGroups. */
  review(loaded: Loaded): Promise<GroupReview[]>;
  /** Runtime.acceptGroup, once the connections are loaded. */
  accept(loaded: Loaded, name: string): Promise<void>;
}

export interface WorkbookGroupsDeps {
  host: Pick<RuntimeHost, 'readWorkbookSetting' | 'recalculate'>;
  secrets: SecretStore;
  emit: () => void;
}

export function workbookGroups({ host, secrets, emit }: WorkbookGroupsDeps): WorkbookGroups {
  /** The workbook's groups of companies (groups.ts), read with the connections and when the pane saves one. */
  let groups = new Map<string, Group>();
  /** The group definitions accepted on this computer (add-in storage). */
  let accepted = new Set<string>();
  const load = async (): Promise<void> => {
    groups = groupsOf(await host.readWorkbookSetting?.(GROUPS_SETTING).catch(() => undefined));
    accepted = await readAccepted(secrets).catch(() => new Set<string>());
  };
  const memberOf = (loaded: Loaded, entry: string): ConnectedMember | null => {
    const c = pick(loaded, entry);
    return c && { name: c.connection.name, companyId: c.connection.companyId, service: c.service, reader: c.reader };
  };

  return {
    load,
    memberOf,
    named: (loaded, company) => {
      if (company === undefined || (loaded && pick(loaded, company))) return undefined;
      const group = groups.get(nameKey(company));
      return group && { group, accepted: accepted.has(groupDefinition(group)) };
    },

    async review(loaded) {
      await load();
      return [...groups.values()].map((group): GroupReview => {
        const resolved = resolveGroup(group, (entry) => memberOf(loaded, entry));
        const shadow = pick(loaded, group.name);
        return {
          name: group.name,
          entries: group.members,
          companies: resolved.connected.map((m) => ({ name: m.name, companyId: m.companyId })),
          missing: resolved.missing,
          accepted: accepted.has(groupDefinition(group)),
          ...(shadow ? { shadowedBy: shadow.connection.name } : {}),
        };
      });
    },

    async accept(loaded, name) {
      await load();
      const group = groups.get(nameKey(name));
      if (!group) throw new Error(`This workbook has no group "${name}" (any more): look again.`);
      const shadow = pick(loaded, group.name);
      if (shadow) throw new Error(`"${group.name}" is the connection ${shadow.connection.name} here: formulas naming it read that company. Give the group another name.`);
      accepted = new Set([...accepted, groupDefinition(group)]);
      await storeAccepted(secrets, accepted);
      emit();
      // The cells that named it showed "Connect …": now they add up its companies.
      await host.recalculate({ errorsOnly: true });
    },
  };
}
