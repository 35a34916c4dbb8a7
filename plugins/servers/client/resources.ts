// What the resource inputs of the create, update and admin pages share: how an amount reads (MiB,
// percent, a count), each resource's icon and slider step, and the bounds a value must keep — the
// minimum a server needs and what the account has free. Pure functions, so the rules are tested alone.
import type { IconName } from '@orepanel/sdk';
import type { TFunction } from 'i18next';
import { SERVER_MAXIMUMS, SERVER_RESOURCE_KEYS, type ServerMinimums, type ServerResourceKey, type ServerResources } from '../shared/api';

export { SERVER_RESOURCE_KEYS };

export const RESOURCE_ICONS: Record<ServerResourceKey, IconName> = {
  ram: 'ram',
  disk: 'disk',
  cpu: 'cpu',
  ports: 'plug',
  databases: 'database',
  backups: 'archive',
};

/** slider steps: memory and disk move in 64 MiB, cpu in 5 %, counts one by one (typing allows any value) */
export const RESOURCE_STEPS: Record<ServerResourceKey, number> = { ram: 64, disk: 64, cpu: 5, ports: 1, databases: 1, backups: 1 };

/** What a new server starts with before the user moves a slider (then kept within the bounds). */
const SUGGESTED: ServerResources = { ram: 1024, disk: 2048, cpu: 100, ports: 1, databases: 1, backups: 1 };

export function resourceText(t: TFunction, key: ServerResourceKey, value: number): string {
  if (key === 'ram' || key === 'disk') return t('units.mib', { value });
  if (key === 'cpu') return t('units.percent', { value });
  return t('units.count', { value });
}

/** The least a server may have of `key` (reference: ram 256, cpu 5, disk 256, ports 1; others 0). */
export function minimumOf(minimums: Partial<ServerMinimums>, key: ServerResourceKey): number {
  return (minimums as Partial<Record<ServerResourceKey, number>>)[key] ?? 0;
}

export interface Bounds {
  min: number;
  max: number;
}

/** Bounds of a new server: from its minimum up to what is free (capped by what the API accepts). */
export function createBounds(free: ServerResources, minimums: Partial<ServerMinimums>): Record<ServerResourceKey, Bounds> {
  const out = {} as Record<ServerResourceKey, Bounds>;
  for (const key of SERVER_RESOURCE_KEYS) out[key] = { min: minimumOf(minimums, key), max: Math.min(Math.max(0, free[key]), SERVER_MAXIMUMS[key]) };
  return out;
}

/** Bounds of an update: only the increase is taken from the free resources, so the top is current + free. */
export function updateBounds(current: ServerResources, free: ServerResources, minimums: Partial<ServerMinimums>): Record<ServerResourceKey, Bounds> {
  const out = {} as Record<ServerResourceKey, Bounds>;
  for (const key of SERVER_RESOURCE_KEYS) {
    out[key] = { min: minimumOf(minimums, key), max: Math.min(current[key] + Math.max(0, free[key]), SERVER_MAXIMUMS[key]) };
  }
  return out;
}

/** Bounds when an administrator queues a server for someone: the minimums and what the API accepts. */
export function adminBounds(minimums: Partial<ServerMinimums>): Record<ServerResourceKey, Bounds> {
  const out = {} as Record<ServerResourceKey, Bounds>;
  for (const key of SERVER_RESOURCE_KEYS) out[key] = { min: minimumOf(minimums, key), max: SERVER_MAXIMUMS[key] };
  return out;
}

function clamp(value: number, { min, max }: Bounds): number {
  return Math.min(Math.max(value, min), Math.max(min, max));
}

/** The starting values of a new server: a sensible size, kept within the bounds. */
export function suggestedResources(bounds: Record<ServerResourceKey, Bounds>): ServerResources {
  const out = {} as ServerResources;
  for (const key of SERVER_RESOURCE_KEYS) out[key] = clamp(SUGGESTED[key], bounds[key]);
  return out;
}

/** Everything that is free, for "use all". */
export function allFree(bounds: Record<ServerResourceKey, Bounds>): ServerResources {
  const out = {} as ServerResources;
  for (const key of SERVER_RESOURCE_KEYS) out[key] = clamp(bounds[key].max, bounds[key]);
  return out;
}

export type ResourceProblem = 'notWhole' | 'belowMinimum' | 'notEnoughFree';

/** Why a typed value cannot be used, or null when it can. */
export function resourceProblem(value: number, bounds: Bounds): ResourceProblem | null {
  if (!Number.isInteger(value) || value < 0) return 'notWhole';
  if (value < bounds.min) return 'belowMinimum';
  if (value > bounds.max) return 'notEnoughFree';
  return null;
}

/** The resources a value set cannot be used with (a server needs its minimum and cannot take more than is free). */
export function resourceProblems(values: ServerResources, bounds: Record<ServerResourceKey, Bounds>): Partial<Record<ServerResourceKey, ResourceProblem>> {
  const out: Partial<Record<ServerResourceKey, ResourceProblem>> = {};
  for (const key of SERVER_RESOURCE_KEYS) {
    const problem = resourceProblem(values[key], bounds[key]);
    if (problem) out[key] = problem;
  }
  return out;
}

/** The resources whose minimum is more than is free: no server fits until the user gets more. */
export function shortResources(bounds: Record<ServerResourceKey, Bounds>): ServerResourceKey[] {
  return SERVER_RESOURCE_KEYS.filter((key) => bounds[key].max < bounds[key].min);
}

/** Whole days from `now` until `iso` (negative once past); null without a date. */
export function daysLeft(iso: string | null, now: number = Date.now()): number | null {
  if (!iso) return null;
  const at = new Date(iso).getTime();
  if (Number.isNaN(at)) return null;
  return Math.ceil((at - now) / 86_400_000);
}
