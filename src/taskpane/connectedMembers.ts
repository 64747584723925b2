import type { ConsolidatedBlock, Member } from '../engine/consolidation/insert';
import type { PaneServices } from './services';

/**
 * A consolidated block's companies as connected here, found by company id and headed by what their
 * connections are called now, in the block's order; or the recorded names of those that are not connected.
 */
export async function connectedMembers(runtime: PaneServices['runtime'], block: ConsolidatedBlock): Promise<{ members: Member[] } | { missing: string[] }> {
  const members: Member[] = [];
  const missing: string[] = [];
  for (const { name, companyId } of block.members) {
    const [connection, reader, client] = await Promise.all([runtime.getConnection(companyId), runtime.getReader(companyId), runtime.getClient(companyId)]);
    if (connection && reader && client) members.push({ name: connection.name, reader, client });
    else missing.push(name);
  }
  return missing.length > 0 ? { missing } : { members };
}
