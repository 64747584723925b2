// Companies side by side (Workspace.consolidation): a consolidated statement's companies are connections
// here, each read on its own connection; what one costs, inserting it, its blocks and their refresh.

import { consolidatedBlocks, consolidatedCost, insertConsolidated, refreshConsolidated, type ConsolidatedBlock, type Member } from '../../engine/consolidation/insert';
import { Refusal } from '../../engine/refusal';
import { forgetBlock } from '../../engine/statements/blocks';
import type { Workspace, WorkspaceEnv } from './types';

/** What a consolidated block's insert and refresh are given besides its companies. */
export type ConsolidatedDeps = Pick<WorkspaceEnv, 'gateway' | 'timeZone' | 'now'>;

export type MembersOf = Workspace['membersOf'];

type Env = Pick<WorkspaceEnv, 'gateway' | 'timeZone' | 'now'> & { runtime: Pick<WorkspaceEnv['runtime'], 'getConnection' | 'getReader' | 'getClient'> };

/** A consolidated block's companies as connected here, by company id, headed by their connections' names now. */
export function consolidationMembers(runtime: Env['runtime']): MembersOf {
  return async (block) => {
    const members: Member[] = [];
    const missing: string[] = [];
    for (const { name, companyId } of block.members) {
      const [connection, reader, client] = await Promise.all([runtime.getConnection(companyId), runtime.getReader(companyId), runtime.getClient(companyId)]);
      if (connection && reader && client) members.push({ name: connection.name, reader, client });
      else missing.push(name);
    }
    return missing.length > 0 ? { missing } : { members };
  };
}

export function workspaceConsolidation(env: Env, membersOf: MembersOf): Workspace['consolidation'] {
  const { runtime, gateway } = env;
  const consolidatedDeps: ConsolidatedDeps = { gateway, timeZone: env.timeZone, now: env.now };
  /** Connections by name (each once), as companies of a consolidated statement. */
  const membersNamed = async (names: readonly string[]): Promise<Member[]> => {
    const out: Member[] = [];
    for (const name of names) {
      const [reader, client] = await Promise.all([runtime.getReader(name), runtime.getClient(name)]);
      if (reader && client) out.push({ name, reader, client });
    }
    return out;
  };

  return {
    blocks: () => consolidatedBlocks(gateway),
    cost: async (names, spec) => consolidatedCost(await membersNamed(names), spec),
    insert: async (names, spec, spent) => {
      const members = await membersNamed(names);
      const title = members.map((m) => m.name).join(' + ');
      const companyIds = await Promise.all(members.map((m) => m.reader.companyId()));
      const { written } = await spent(companyIds, () => insertConsolidated({ ...consolidatedDeps, title }, members, spec));
      return { written, companies: members.length };
    },
    refresh: async (block: ConsolidatedBlock) => {
      const found = await membersOf(block);
      if ('missing' in found) {
        const [one, ...more] = found.missing;
        throw new Refusal(
          'A company of this statement is not connected',
          `${more.length ? `${found.missing.join(' and ')} are` : `${one} is`} not connected here: connect ${more.length ? 'them' : 'it'} (Connection tab) to refresh this block.`,
          'consolidation_unconnected',
        );
      }
      return refreshConsolidated({ ...consolidatedDeps, title: block.title }, block, found.members);
    },
    forget: (binding) => forgetBlock(gateway, binding),
  };
}
