// The resource rules behind the create, update and admin forms: bounds from the minimums and what
// is free (an update may add only what is free on top of what the server has), the suggested start
// kept within them, the problems a value can have, and the days left before an expiry.
import { describe, expect, it } from 'vitest';
import { SERVER_MAXIMUMS, SERVER_MINIMUMS } from '../shared/api';
import { adminBounds, allFree, createBounds, daysLeft, resourceProblem, resourceProblems, shortResources, suggestedResources, updateBounds } from '../client/resources';

const free = { ram: 2048, disk: 100, cpu: 150, ports: 0, databases: 1, backups: 0 };

describe('resource bounds', () => {
  it('runs from the minimum to what is free for a new server', () => {
    const bounds = createBounds(free, SERVER_MINIMUMS);
    expect(bounds.ram).toEqual({ min: 256, max: 2048 });
    expect(bounds.cpu).toEqual({ min: 5, max: 150 });
    expect(bounds.databases).toEqual({ min: 0, max: 1 });
    expect(shortResources(bounds)).toEqual(['disk', 'ports']);
  });

  it('lets an update add only what is free on top of what the server has', () => {
    const current = { ram: 1024, disk: 512, cpu: 50, ports: 2, databases: 0, backups: 3 };
    const bounds = updateBounds(current, free, SERVER_MINIMUMS);
    expect(bounds.ram.max).toBe(3072);
    expect(bounds.disk.max).toBe(612);
    expect(bounds.ports).toEqual({ min: 1, max: 2 });
    expect(bounds.backups.max).toBe(3);
  });

  it('caps at what the API accepts', () => {
    expect(createBounds({ ...free, ram: 5_000_000 }, SERVER_MINIMUMS).ram.max).toBe(SERVER_MAXIMUMS.ram);
    expect(adminBounds(SERVER_MINIMUMS).ports).toEqual({ min: 1, max: SERVER_MAXIMUMS.ports });
  });

  it('suggests a start within the bounds, and "use all" takes everything free', () => {
    const bounds = createBounds(free, SERVER_MINIMUMS);
    expect(suggestedResources(bounds)).toEqual({ ram: 1024, disk: 256, cpu: 100, ports: 1, databases: 1, backups: 0 });
    expect(allFree(createBounds({ ...free, disk: 4096, ports: 3 }, SERVER_MINIMUMS))).toEqual({ ram: 2048, disk: 4096, cpu: 150, ports: 3, databases: 1, backups: 0 });
  });
});

describe('resource problems', () => {
  it('names what is wrong with a value', () => {
    const bounds = { min: 256, max: 2048 };
    expect(resourceProblem(Number.NaN, bounds)).toBe('notWhole');
    expect(resourceProblem(300.5, bounds)).toBe('notWhole');
    expect(resourceProblem(-1, bounds)).toBe('notWhole');
    expect(resourceProblem(255, bounds)).toBe('belowMinimum');
    expect(resourceProblem(2049, bounds)).toBe('notEnoughFree');
    expect(resourceProblem(256, bounds)).toBeNull();
    expect(resourceProblem(2048, bounds)).toBeNull();
    expect(resourceProblems({ ram: 100, disk: 256, cpu: 5, ports: 1, databases: 0, backups: 0 }, createBounds({ ...free, disk: 256, ports: 1 }, SERVER_MINIMUMS))).toEqual({
      ram: 'belowMinimum',
    });
  });
});

describe('days left', () => {
  const now = Date.parse('2026-11-22T12:00:00.000Z');
  it('counts whole days, a part day as one, and goes to zero or below once past', () => {
    expect(daysLeft('2026-11-27T12:00:00.000Z', now)).toBe(5);
    expect(daysLeft('2026-11-22T12:00:01.000Z', now)).toBe(1);
    expect(daysLeft('2026-11-22T12:00:00.000Z', now)).toBe(0);
    expect(daysLeft('2026-11-20T12:00:00.000Z', now)).toBe(-2);
    expect(daysLeft(null, now)).toBeNull();
    expect(daysLeft('not a date', now)).toBeNull();
  });
});
