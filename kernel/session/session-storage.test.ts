import { describe, expect, it } from 'vitest';
import { browserStorage, readCachedPermissions, readStoredRole } from './session-storage';

describe('session storage helpers', () => {
  it('a browser that blocks local storage still starts: reads give nothing, writes are dropped', () => {
    const blocked = {
      get localStorage(): Storage {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      },
    };
    const storage = browserStorage(blocked);
    expect(storage.getItem('role')).toBeNull();
    expect(() => storage.setItem('role', '1')).not.toThrow();
    expect(() => storage.clear()).not.toThrow();
    expect(readCachedPermissions(storage)).toEqual([]);
  });

  it('reads the role only when it is a number, and permissions only when they are a JSON list of strings', () => {
    const data = new Map<string, string>([
      ['role', ' 7 '],
      ['user_permissions', '["admin.root", 3, "admin.users.list"]'],
    ]);
    const storage = { getItem: (k: string) => data.get(k) ?? null, setItem: () => undefined, removeItem: () => undefined, clear: () => undefined };
    expect(readStoredRole(storage)).toBe(7);
    expect(readCachedPermissions(storage)).toEqual(['admin.root', 'admin.users.list']);
    data.set('role', 'admin');
    data.set('user_permissions', '{broken');
    expect(readStoredRole(storage)).toBeNull();
    expect(readCachedPermissions(storage)).toEqual([]);
  });
});
