// Answers of the servers API shared by this plugin's page tests (shapes from ../shared/api).
import type { CreateOptionsResponse, ServerDetail, ServerView, QueueEntryView } from '../shared/api';

export function createOptions(extra: Partial<CreateOptionsResponse> = {}): CreateOptionsResponse {
  return {
    locations: [
      { id: 1, name: 'Frankfurt', description: 'Fast NVMe nodes', image: '/img/fra.png', status: 'online', vipOnly: false, slots: 10, used: 3, available: true, reason: null },
      { id: 2, name: 'Paris', description: null, image: null, status: 'online', vipOnly: false, slots: 5, used: 5, available: false, reason: 'LOCATION_FULL' },
      { id: 3, name: 'Vienna', description: null, image: null, status: 'online', vipOnly: true, slots: 5, used: 0, available: false, reason: 'VIP_ONLY' },
      { id: 4, name: 'Oslo', description: null, image: null, status: 'offline', vipOnly: false, slots: 5, used: 0, available: false, reason: 'LOCATION_UNAVAILABLE' },
    ],
    categories: [
      {
        id: 10,
        name: 'Minecraft',
        description: 'Java edition',
        image: null,
        vipOnly: false,
        eggs: [
          { id: 100, name: 'Paper', description: 'Fast vanilla', image: '/img/paper.png', vipOnly: false },
          { id: 101, name: 'Forge', description: null, image: null, vipOnly: true },
        ],
      },
      { id: 11, name: 'Premium', description: null, image: null, vipOnly: true, eggs: [{ id: 110, name: 'Velocity', description: null, image: null, vipOnly: true }] },
    ],
    free: { ram: 2048, disk: 4096, cpu: 150, ports: 2, databases: 1, backups: 0, server_slots: 1 },
    totals: { ram: 4096, disk: 8192, cpu: 200, ports: 4, databases: 2, backups: 2, server_slots: 2 },
    broken_resources: [],
    minimums: { ram: 256, cpu: 5, disk: 256, ports: 1, databases: 0, backups: 0 },
    blockers: [],
    vip: false,
    renewal: { enabled: true, cost: 100, days: 30 },
    ...extra,
  };
}

export function serverView(id: number, extra: Partial<ServerView> = {}): ServerView {
  return {
    id,
    name: `Server ${id}`,
    description: null,
    status: 'active',
    identifier: `abcd${String(id).padStart(4, '0')}`,
    panel_id: 500 + id,
    panel_url: `https://panel.example.com/server/abcd${String(id).padStart(4, '0')}`,
    location: { id: 1, name: 'Frankfurt' },
    egg: { id: 100, name: 'Paper' },
    resources: { ram: 1024, disk: 2048, cpu: 100, ports: 1, databases: 1, backups: 1 },
    expires_at: new Date(Date.now() + 5 * 86_400_000 - 60_000).toISOString(),
    suspended_at: null,
    created_at: '2026-11-01T10:00:00.000Z',
    broken: false,
    broken_fields: [],
    ...extra,
  };
}

export function serverDetail(id: number, extra: Partial<ServerDetail> = {}): ServerDetail {
  return { ...serverView(id), renewal: { enabled: true, cost: 100, days: 30 }, ...extra };
}

export function queueEntry(id: number, extra: Partial<QueueEntryView> = {}): QueueEntryView {
  return {
    id,
    status: 'pending',
    name: `Queued ${id}`,
    description: null,
    location: { id: 1, name: 'Frankfurt' },
    egg: { id: 100, name: 'Paper' },
    resources: { ram: 512, disk: 1024, cpu: 50, ports: 1, databases: 0, backups: 0 },
    attempts: 0,
    last_error: null,
    next_attempt_at: null,
    server_id: null,
    created_at: '2026-11-22T09:00:00.000Z',
    updated_at: '2026-11-22T09:00:00.000Z',
    broken: false,
    broken_fields: [],
    ...extra,
  };
}
