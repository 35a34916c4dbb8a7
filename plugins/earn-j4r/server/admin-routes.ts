// /api/admin/j4r/guilds: list, add, edit, remove the guilds join-for-rewards pays for — the API of
// the guild list on this plugin's configuration page (/mc-admin/plugins/earn-j4r/config, a slot of
// the admin plugin's page), so it is guarded by that page's permission, admin.plugins.edit.
// Not behind j4r_enabled: administrators prepare the list before switching the feature on.
import type { FastifyInstance } from 'fastify';
import { dataListSchema, type ServerPluginContext } from '@orepanel/sdk/server';
import { GUILD_ID_PATTERN, GUILD_LIMITS, ICON_URL_PATTERN, INVITE_URL_PATTERN, isWebAddress } from '../shared/guild-rules';
import type { GuildChanges, GuildRow, J4rGuilds } from './guilds';

export const J4R_ADMIN_PERMISSION = 'admin.plugins.edit';

const fields = {
  name: { type: 'string', minLength: 1, maxLength: GUILD_LIMITS.nameMaxLength },
  invite_url: { type: 'string', maxLength: GUILD_LIMITS.inviteMaxLength, pattern: INVITE_URL_PATTERN },
  // '' or null: no icon
  icon_url: { type: ['string', 'null'], maxLength: GUILD_LIMITS.iconMaxLength },
  coins: { type: 'integer', minimum: 1, maximum: GUILD_LIMITS.maxCoins },
  enabled: { type: 'boolean' },
} as const;

const guildSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    guild_id: { type: 'string' },
    name: { type: 'string' },
    invite_url: { type: 'string' },
    icon_url: { type: ['string', 'null'] },
    coins: { type: 'integer' },
    enabled: { type: 'boolean' },
    claims: { type: 'integer' },
    created_at: { type: 'string' },
    updated_at: { type: 'string' },
  },
} as const;

const oneGuild = { type: 'object', required: ['guild'], properties: { guild: guildSchema } } as const;
const idParams = { type: 'object', required: ['id'], additionalProperties: false, properties: { id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } } } as const;

interface GuildBody {
  guild_id?: string;
  name?: string;
  invite_url?: string;
  icon_url?: string | null;
  coins?: number;
  enabled?: boolean;
}

export function registerAdminRoutes(app: FastifyInstance, ctx: ServerPluginContext, guilds: J4rGuilds): void {
  const view = (row: GuildRow, claims: number) => ({ ...row, claims });

  /** The trimmed name; 400 when only spaces were sent. */
  const nameOf = (value: string) => {
    const name = value.trim();
    if (name === '') throw ctx.httpError(400, 'VALIDATION_ERROR', 'The name cannot be empty.', 'name');
    return name;
  };
  const inviteOf = (value: string) => {
    if (!isWebAddress(value, INVITE_URL_PATTERN)) throw ctx.httpError(400, 'VALIDATION_ERROR', 'The invite must be a web address (https://discord.gg/…).', 'invite_url');
    return value;
  };
  const iconOf = (value: string | null) => {
    if (value === null || value.trim() === '') return null;
    if (!isWebAddress(value.trim(), ICON_URL_PATTERN)) throw ctx.httpError(400, 'VALIDATION_ERROR', 'The icon must be an https:// address.', 'icon_url');
    return value.trim();
  };

  app.get(
    '/admin/j4r/guilds',
    {
      config: { permission: J4R_ADMIN_PERMISSION },
      schema: { response: { 200: dataListSchema(guildSchema) } },
    },
    async () => {
      const [rows, claims] = await Promise.all([guilds.list(), guilds.claimCounts()]);
      return { data: rows.map((row) => view(row, claims.get(row.guild_id) ?? 0)) };
    },
  );

  app.post<{ Body: Required<Pick<GuildBody, 'guild_id' | 'name' | 'invite_url' | 'coins'>> & GuildBody }>(
    '/admin/j4r/guilds',
    {
      config: { permission: J4R_ADMIN_PERMISSION },
      schema: {
        body: {
          type: 'object',
          required: ['guild_id', 'name', 'invite_url', 'coins'],
          additionalProperties: false,
          properties: { guild_id: { type: 'string', pattern: GUILD_ID_PATTERN }, ...fields },
        },
        response: { 201: oneGuild },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const row = await guilds.create({
        guild_id: body.guild_id,
        name: nameOf(body.name),
        invite_url: inviteOf(body.invite_url),
        icon_url: iconOf(body.icon_url ?? null),
        coins: body.coins,
        enabled: body.enabled ?? true,
      });
      await ctx.audit.record(request, { action: 'admin.j4r_guild.create', details: { guild_id: row.guild_id, name: row.name, coins: row.coins } });
      return reply.code(201).send({ guild: view(row, 0) });
    },
  );

  app.patch<{ Params: { id: number }; Body: GuildBody }>(
    '/admin/j4r/guilds/:id',
    {
      config: { permission: J4R_ADMIN_PERMISSION },
      // guild_id is read only to refuse it: it names the rewards, it never changes
      schema: {
        params: idParams,
        body: { type: 'object', additionalProperties: false, minProperties: 1, properties: { guild_id: { type: 'string', maxLength: 32 }, ...fields } },
        response: { 200: oneGuild },
      },
    },
    async (request) => {
      const body = request.body;
      if (body.guild_id !== undefined) {
        throw ctx.httpError(400, 'J4R_GUILD_ID_FIXED', "A server's Discord id cannot change. Remove the server and add the other one.", 'guild_id');
      }
      const changes: GuildChanges = {};
      if (body.name !== undefined) changes.name = nameOf(body.name);
      if (body.invite_url !== undefined) changes.invite_url = inviteOf(body.invite_url);
      if (body.icon_url !== undefined) changes.icon_url = iconOf(body.icon_url);
      if (body.coins !== undefined) changes.coins = body.coins;
      if (body.enabled !== undefined) changes.enabled = body.enabled;
      // (unknown fields are dropped by validation: a body of only those changes nothing)
      if (Object.keys(changes).length === 0) throw ctx.httpError(400, 'VALIDATION_ERROR', 'Nothing to change.');
      const row = await guilds.update(request.params.id, changes);
      await ctx.audit.record(request, { action: 'admin.j4r_guild.update', details: { guild_id: row.guild_id, changed: Object.keys(changes).join(',') } });
      return { guild: view(row, (await guilds.claimCounts()).get(row.guild_id) ?? 0) };
    },
  );

  app.delete<{ Params: { id: number } }>(
    '/admin/j4r/guilds/:id',
    {
      config: { permission: J4R_ADMIN_PERMISSION },
      schema: { params: idParams, response: { 200: { type: 'object', required: ['success'], properties: { success: { type: 'boolean' } } } } },
    },
    async (request) => {
      const row = await guilds.delete(request.params.id);
      await ctx.audit.record(request, { action: 'admin.j4r_guild.delete', details: { guild_id: row.guild_id, name: row.name } });
      return { success: true };
    },
  );
}
