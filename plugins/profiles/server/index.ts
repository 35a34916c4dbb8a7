// The profiles plugin's API (reference paths): GET /api/user/profile/{uuid} — a user's public profile —
// and GET /api/user/search?query= — people by name. Both are part of public profiles
// (allow_public_profiles); the search is rate limited so the user list cannot be walked. Staff find a
// user by support PIN through the admin API (GET /api/admin/dashboard/support/pins/{pin}), which the
// /lookup page calls for those who hold its permission.
import { dataListSchema, defineServerPlugin, earlySupporters } from '@orepanel/sdk/server';
import { NAME_SEARCH, USER_UUID_PATTERN, type PersonMatch, type PublicProfile } from '../shared/people';
import { People } from './people';
import { skinUrlFor } from './skin-url';

const role = { type: 'object', required: ['name', 'color'], properties: { name: { type: 'string' }, color: { type: 'string' } } } as const;

const profileAnswer = {
  type: 'object',
  required: ['uuid', 'username', 'avatar', 'background', 'role', 'member_since', 'stats', 'skin_url', 'self', 'early_supporter'],
  properties: {
    uuid: { type: 'string' },
    username: { type: 'string' },
    avatar: { type: ['string', 'null'] },
    background: { type: ['string', 'null'] },
    role,
    member_since: { type: 'string' },
    stats: {
      type: 'object',
      required: ['minutes_afk', 'referrals', 'servers'],
      properties: { minutes_afk: { type: 'integer' }, referrals: { type: 'integer' }, servers: { type: 'integer' } },
    },
    skin_url: { type: ['string', 'null'] },
    self: { type: 'boolean' },
    early_supporter: { type: 'boolean' },
  },
} as const;

const searchAnswer = dataListSchema({
  type: 'object',
  required: ['uuid', 'username', 'avatar', 'role'],
  properties: { uuid: { type: 'string' }, username: { type: 'string' }, avatar: { type: ['string', 'null'] }, role },
});

export default defineServerPlugin({
  id: 'profiles',
  register(app, ctx) {
    const people = new People(ctx.db);

    app.get<{ Params: { uuid: string } }>(
      '/user/profile/:uuid',
      {
        config: { auth: true, flag: 'allow_public_profiles' },
        schema: {
          params: { type: 'object', required: ['uuid'], additionalProperties: false, properties: { uuid: { type: 'string', pattern: USER_UUID_PATTERN } } },
          response: { 200: profileAnswer },
        },
      },
      async (request, reply): Promise<PublicProfile> => {
        const viewer = (await ctx.auth.currentUser(request))!;
        const found = await people.profile(request.params.uuid.toLowerCase());
        // banned accounts are hidden like missing ones: a ban is not announced on a public page
        if (!found) throw ctx.httpError(404, 'USER_NOT_FOUND', 'There is no such user.');
        reply.header('cache-control', 'private, no-store');
        return {
          uuid: found.uuid,
          username: found.username,
          avatar: found.avatar,
          background: found.background,
          role: found.role,
          member_since: found.memberSince,
          stats: { minutes_afk: found.minutesAfk, referrals: found.counters.referrals, servers: found.counters.servers },
          skin_url: skinUrlFor(await ctx.settings.get('profile_skin_url_template'), found.username),
          self: found.id === viewer.id,
          early_supporter: (await earlySupporters(ctx, [found.id])).has(found.id),
        };
      },
    );

    app.get<{ Querystring: { query: string } }>(
      '/user/search',
      {
        config: { auth: true, flag: 'allow_public_profiles', rateLimit: 'people.lookup' },
        schema: {
          querystring: {
            type: 'object',
            required: ['query'],
            additionalProperties: false,
            // the length is checked again after trimming; the upper bound is the longest username (and a little space)
            properties: { query: { type: 'string', maxLength: NAME_SEARCH.maxLength + 8 } },
          },
          response: { 200: searchAnswer },
        },
      },
      async (request, reply): Promise<{ data: PersonMatch[] }> => {
        const text = request.query.query.trim();
        if (text.length < NAME_SEARCH.minLength) {
          throw ctx.httpError(400, 'QUERY_TOO_SHORT', `Type at least ${NAME_SEARCH.minLength} characters of the name.`, 'query');
        }
        reply.header('cache-control', 'private, no-store');
        return { data: await people.searchByName(text) };
      },
    );
  },
});
