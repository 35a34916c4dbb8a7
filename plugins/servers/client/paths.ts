// The servers API's addresses and the plugin's page paths, in one place for the pages and their tests.
import type { QueueStatus } from '../shared/api';

const seg = (id: number | string) => encodeURIComponent(String(id));

export const api = {
  createOptions: '/api/user/server/create',
  create: '/api/user/server/create',
  myServers: '/api/user/session/servers',
  server: (id: number | string) => `/api/user/server/${seg(id)}`,
  update: (id: number | string) => `/api/user/server/${seg(id)}/update`,
  renew: (id: number | string) => `/api/user/server/${seg(id)}/renew`,
  remove: (id: number | string) => `/api/user/server/${seg(id)}/delete`,
  removeQueueEntry: (id: number | string) => `/api/user/queue/${seg(id)}/delete`,
};

export const adminApi = {
  servers: '/api/admin/servers',
  suspend: (id: number) => `/api/admin/servers/${seg(id)}/suspend`,
  unsuspend: (id: number) => `/api/admin/servers/${seg(id)}/unsuspend`,
  remove: (id: number) => `/api/admin/servers/${seg(id)}/delete`,
  queue: '/api/admin/server-queue',
  entry: (id: number | string) => `/api/admin/server-queue/${seg(id)}`,
  removeEntry: (id: number | string) => `/api/admin/server-queue/${seg(id)}/delete`,
  logs: '/api/admin/server-queue/logs',
  /** the admin plugin's user list, searched to pick the owner of a new queue entry */
  users: '/api/admin/users',
};

export const paths = {
  dashboard: '/dashboard',
  create: '/server/create',
  update: (id: number) => `/server/${id}/update`,
  renew: (id: number) => `/server/${id}/renew`,
  remove: (id: number) => `/server/${id}/delete`,
  account: '/account',
  store: '/store',
  adminServers: '/mc-admin/servers',
  adminQueue: '/mc-admin/server-queue',
  adminQueueCreate: '/mc-admin/server-queue/create',
  adminQueueLogs: '/mc-admin/server-queue/logs',
  adminEntry: (id: number) => `/mc-admin/server-queue/${id}`,
  adminEntryDelete: (id: number) => `/mc-admin/server-queue/${id}/delete`,
  /** the admin plugin's page of a user */
  adminUser: (uuid: string) => `/mc-admin/users/${encodeURIComponent(uuid)}/edit`,
  adminQueueFiltered: (status: QueueStatus | '') => (status ? `/mc-admin/server-queue?status=${status}` : '/mc-admin/server-queue'),
};

// The permissions the admin screens check inside a page (routes carry theirs in plugin.json).
export const PERMISSIONS = Object.freeze({
  serversEdit: 'admin.servers.edit',
  serversDelete: 'admin.servers.delete',
  queueCreate: 'admin.server.queue.create',
  queueDelete: 'admin.server.queue.delete',
  queueView: 'admin.server.queue.view',
  queueLogs: 'admin.server.queue.logs.view',
  usersList: 'admin.users.list',
  usersEdit: 'admin.users.edit',
});
