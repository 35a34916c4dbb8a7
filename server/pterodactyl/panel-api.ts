// The panel's Application API as typed calls: envelopes unwrapped, every page of a list fetched,
// each answer mapped to the sdk's Panel* shapes (nothing else of the panel's attributes leaks out).
import type {
  CreatePanelServer,
  CreatePanelUser,
  PanelBuild,
  PanelEgg,
  PanelEggVariable,
  PanelLocation,
  PanelNest,
  PanelNode,
  PanelServer,
  PanelUser,
  PterodactylPanel,
} from '../../sdk/pterodactyl';
import { isPanelError } from '../../sdk/pterodactyl';
import { panelError } from './panel-error';
import type { PanelTransport } from './panel-transport';

type Attributes = Record<string, unknown>;

const str = (v: unknown): string => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v));
const strOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v ?? 0));
const bool = (v: unknown): boolean => v === true || v === 1 || v === '1';

function attributesOf(body: unknown): Attributes {
  const attributes = (body as { attributes?: unknown } | null)?.attributes;
  if (!attributes || typeof attributes !== 'object') throw panelError({ code: 'PANEL_ERROR', detail: 'The panel’s answer has no attributes.' });
  return attributes as Attributes;
}

function listOf(body: unknown): { items: Attributes[]; totalPages: number; currentPage: number; total: number } {
  const list = body as { object?: unknown; data?: unknown; meta?: { pagination?: { total_pages?: unknown; current_page?: unknown; total?: unknown } } } | null;
  if (!list || list.object !== 'list' || !Array.isArray(list.data)) throw panelError({ code: 'PANEL_ERROR', detail: 'The panel’s answer is not a list.' });
  const pagination = list.meta?.pagination;
  return {
    items: list.data.map((entry) => attributesOf(entry)),
    totalPages: num(pagination?.total_pages ?? 1),
    currentPage: num(pagination?.current_page ?? 1),
    total: num(pagination?.total ?? list.data.length),
  };
}

export function toUser(a: Attributes): PanelUser {
  return {
    id: num(a.id),
    external_id: strOrNull(a.external_id),
    uuid: str(a.uuid),
    username: str(a.username),
    email: str(a.email),
    first_name: str(a.first_name),
    last_name: str(a.last_name),
    root_admin: bool(a.root_admin),
  };
}

const toLocation = (a: Attributes): PanelLocation => ({ id: num(a.id), short: str(a.short), long: strOrNull(a.long) });
const toNest = (a: Attributes): PanelNest => ({ id: num(a.id), uuid: str(a.uuid), name: str(a.name), description: strOrNull(a.description), author: str(a.author) });

function toVariable(a: Attributes): PanelEggVariable {
  return {
    name: str(a.name),
    description: str(a.description),
    env_variable: str(a.env_variable),
    default_value: str(a.default_value),
    user_viewable: bool(a.user_viewable),
    user_editable: bool(a.user_editable),
    rules: str(a.rules),
  };
}

function toEgg(a: Attributes): PanelEgg {
  const variables = (a.relationships as { variables?: { data?: unknown[] } } | undefined)?.variables?.data ?? [];
  const images = a.docker_images && typeof a.docker_images === 'object' && !Array.isArray(a.docker_images) ? (a.docker_images as Record<string, unknown>) : {};
  return {
    id: num(a.id),
    uuid: str(a.uuid),
    nest: num(a.nest),
    name: str(a.name),
    description: strOrNull(a.description),
    docker_image: str(a.docker_image),
    docker_images: Object.fromEntries(Object.entries(images).map(([label, image]) => [label, str(image)])),
    startup: str(a.startup),
    variables: variables.map((entry) => toVariable(attributesOf(entry))),
  };
}

const toNode = (a: Attributes): PanelNode => ({
  id: num(a.id),
  name: str(a.name),
  location_id: num(a.location_id),
  public: bool(a.public),
  maintenance_mode: bool(a.maintenance_mode),
  memory: num(a.memory),
  memory_overallocate: num(a.memory_overallocate),
  disk: num(a.disk),
  disk_overallocate: num(a.disk_overallocate),
});

function toServer(a: Attributes): PanelServer {
  const limits = (a.limits ?? {}) as Attributes;
  const features = (a.feature_limits ?? {}) as Attributes;
  return {
    id: num(a.id),
    external_id: strOrNull(a.external_id),
    uuid: str(a.uuid),
    identifier: str(a.identifier),
    name: str(a.name),
    description: strOrNull(a.description),
    status: strOrNull(a.status),
    suspended: bool(a.suspended),
    limits: { memory: num(limits.memory), swap: num(limits.swap), disk: num(limits.disk), io: num(limits.io), cpu: num(limits.cpu) },
    feature_limits: { databases: num(features.databases), allocations: num(features.allocations), backups: num(features.backups) },
    user: num(a.user),
    node: num(a.node),
    allocation: num(a.allocation),
    nest: num(a.nest),
    egg: num(a.egg),
    created_at: str(a.created_at),
    updated_at: str(a.updated_at),
  };
}

const id = (value: number) => {
  if (!Number.isSafeInteger(value) || value < 1) throw panelError({ code: 'PANEL_NOT_FOUND', detail: `${value} is not a panel id.` });
  return String(value);
};
const segment = (value: string) => encodeURIComponent(value);

export type PanelApi = Omit<PterodactylPanel, 'accountFor'>;

export function panelApi(transport: PanelTransport): PanelApi {
  const get = async (path: string) => (await transport.send({ method: 'GET', path, idempotent: true })).body;
  const one = async (path: string) => attributesOf(await get(path));
  const orNull = async <T>(run: () => Promise<T>): Promise<T | null> => {
    try {
      return await run();
    } catch (error) {
      if (isPanelError(error) && error.code === 'PANEL_NOT_FOUND') return null;
      throw error;
    }
  };

  /** Every item of a paginated list, page after page. */
  const all = async (path: string, query: Record<string, string> = {}): Promise<Attributes[]> => {
    const out: Attributes[] = [];
    for (let page = 1; ; page++) {
      const q = new URLSearchParams({ ...query, page: String(page), per_page: String(transport.pageSize) });
      const list = listOf(await get(`${path}?${q.toString()}`));
      out.push(...list.items);
      if (list.currentPage >= list.totalPages || list.items.length === 0) return out;
    }
  };

  const users: PanelApi['users'] = {
    get: async (userId) => toUser(await one(`/users/${id(userId)}`)),
    async findByEmail(email) {
      // the panel's filter is a partial match (LIKE %…%): keep only the same address
      const wanted = email.trim().toLowerCase();
      const found = await all('/users', { 'filter[email]': email.trim() });
      const match = found.find((a) => str(a.email).toLowerCase() === wanted);
      return match ? toUser(match) : null;
    },
    findByExternalId: (externalId) => orNull(async () => toUser(await one(`/users/external/${segment(externalId)}`))),
    async create(input: CreatePanelUser) {
      const answer = await transport.send({ method: 'POST', path: '/users', body: { ...input, username: input.username.toLowerCase() }, idempotent: false });
      return toUser(attributesOf(answer.body));
    },
    async update(userId, patch) {
      // the panel's update keeps the creation rules: email, username and both names are required
      const current = toUser(await one(`/users/${id(userId)}`));
      const body = { email: current.email, username: current.username, first_name: current.first_name, last_name: current.last_name, ...patch };
      const answer = await transport.send({ method: 'PATCH', path: `/users/${id(userId)}`, body, idempotent: true });
      return toUser(attributesOf(answer.body));
    },
    async delete(userId) {
      await transport.send({ method: 'DELETE', path: `/users/${id(userId)}`, idempotent: true });
    },
  };

  const api: PanelApi = {
    async configured() {
      return (await transport.configured()) !== null;
    },
    async testConnection(options) {
      const started = performance.now();
      // one attempt each: the administrator wants to know now, not after the backoff
      const count = async (path: string) =>
        listOf((await transport.send({ method: 'GET', path: `${path}?per_page=1`, idempotent: true, retries: 0, timeoutMs: options?.timeoutMs })).body).total;
      const [locations, nodes] = await Promise.all([count('/locations'), count('/nodes')]);
      return { latencyMs: Math.round(performance.now() - started), locations, nodes };
    },
    async serverUrl(identifier) {
      const { baseUrl } = await transport.settings();
      return baseUrl === '' ? null : `${baseUrl}/server/${segment(identifier)}`;
    },
    users,
    locations: {
      list: async () => (await all('/locations')).map(toLocation),
      get: async (locationId) => toLocation(await one(`/locations/${id(locationId)}`)),
    },
    nests: {
      list: async () => (await all('/nests')).map(toNest),
      get: async (nestId) => toNest(await one(`/nests/${id(nestId)}`)),
      // not paginated on the panel: one request
      eggs: async (nestId) => listOf(await get(`/nests/${id(nestId)}/eggs?include=variables`)).items.map(toEgg),
      egg: async (nestId, eggId) => toEgg(await one(`/nests/${id(nestId)}/eggs/${id(eggId)}?include=variables`)),
    },
    nodes: {
      list: async () => (await all('/nodes')).map(toNode),
    },
    servers: {
      list: async () => (await all('/servers')).map(toServer),
      get: async (serverId) => toServer(await one(`/servers/${id(serverId)}`)),
      findByExternalId: (externalId) => orNull(async () => toServer(await one(`/servers/external/${segment(externalId)}`))),
      async create(input: CreatePanelServer) {
        const answer = await transport.send({ method: 'POST', path: '/servers', body: input, idempotent: false });
        return toServer(attributesOf(answer.body));
      },
      async updateBuild(serverId, build: PanelBuild) {
        const answer = await transport.send({ method: 'PATCH', path: `/servers/${id(serverId)}/build`, body: build, idempotent: true });
        return toServer(attributesOf(answer.body));
      },
      async updateDetails(serverId, details) {
        const answer = await transport.send({ method: 'PATCH', path: `/servers/${id(serverId)}/details`, body: details, idempotent: true });
        return toServer(attributesOf(answer.body));
      },
      async suspend(serverId) {
        await transport.send({ method: 'POST', path: `/servers/${id(serverId)}/suspend`, idempotent: true });
      },
      async unsuspend(serverId) {
        await transport.send({ method: 'POST', path: `/servers/${id(serverId)}/unsuspend`, idempotent: true });
      },
      async delete(serverId, options) {
        try {
          await transport.send({ method: 'DELETE', path: `/servers/${id(serverId)}${options?.force ? '/force' : ''}`, idempotent: true });
        } catch (error) {
          // gone already (a retry after a lost answer, or removed on the panel): what the caller wanted
          if (isPanelError(error) && error.code === 'PANEL_NOT_FOUND') return;
          throw error;
        }
      },
    },
  };
  return api;
}
