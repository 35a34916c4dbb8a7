// The servers.owned service (contract.ts): whose a server is, for other plugins (a support ticket's
// linked server). Reads the servers table only; a row id out of range is simply no server.
import { MAX_ROW_ID, type ServerPluginContext } from '@orepanel/sdk/server';
import type { OwnedServer, OwnedServers } from '../contract';
import type { ServersDb } from './tables';

const MAX_LIST = 100;

type Row = { id: number; user_id: number; name: string; identifier: string; status: OwnedServer['status'] };

export function ownedServers(db: ServersDb, ctx: Pick<ServerPluginContext, 'pterodactyl'>): OwnedServers {
  const view = async (row: Row): Promise<OwnedServer> => ({
    id: Number(row.id),
    userId: Number(row.user_id),
    name: row.name,
    identifier: row.identifier,
    status: row.status,
    panelUrl: await ctx.pterodactyl.serverUrl(row.identifier).catch(() => null),
  });
  const base = () => db.selectFrom('servers').select(['id', 'user_id', 'name', 'identifier', 'status']);
  const validId = (id: number) => Number.isSafeInteger(id) && id >= 1 && id <= MAX_ROW_ID;
  return Object.freeze({
    async listOf(userId: number, limit = MAX_LIST) {
      if (!validId(userId)) return [];
      const rows = await base()
        .where('user_id', '=', userId)
        .orderBy('id', 'desc')
        .limit(Math.max(1, Math.min(MAX_LIST, Math.floor(limit))))
        .execute();
      return Promise.all(rows.map((row) => view(row as Row)));
    },
    async ownedBy(userId: number, serverId: number) {
      if (!validId(userId) || !validId(serverId)) return null;
      const row = await base().where('id', '=', serverId).where('user_id', '=', userId).executeTakeFirst();
      return row ? view(row as Row) : null;
    },
    async get(serverId: number) {
      if (!validId(serverId)) return null;
      const row = await base().where('id', '=', serverId).executeTakeFirst();
      return row ? view(row as Row) : null;
    },
  });
}
