// Roles and their permissions, held in memory for the session hot path. Reloaded at once when this
// process changes them (invalidate(), which also tells the other instances: server/cluster/cache-sync.ts)
// and when another instance announces a change (load()); the background reload after REFRESH_MS only
// backs those up.
import type { Kysely } from 'kysely';
import type { CoreDatabase } from '../../sdk/server';

const REFRESH_MS = 30_000;

export interface RoleInfo {
  id: number;
  name: string;
  realName: string;
  color: string;
  permissions: readonly string[];
}

const UNKNOWN_ROLE = (id: number): RoleInfo => ({ id, name: 'unknown', realName: 'Unknown', color: '#808080', permissions: [] });

export class RoleDirectory {
  private roles = new Map<number, RoleInfo>();
  private loadedAt = 0;
  private reloading: Promise<void> | null = null;
  private announce: () => Promise<void> = async () => undefined;

  constructor(
    private readonly db: Kysely<CoreDatabase>,
    private readonly onError: (error: unknown) => void,
  ) {}

  async load(): Promise<void> {
    const [roles, grants] = await Promise.all([
      this.db.selectFrom('roles').select(['id', 'name', 'real_name', 'color']).execute(),
      this.db.selectFrom('role_permissions').select(['role_id', 'permission']).orderBy('permission').execute(),
    ]);
    const next = new Map<number, RoleInfo>();
    for (const r of roles) {
      const permissions = grants.filter((g) => g.role_id === r.id).map((g) => g.permission);
      next.set(r.id, Object.freeze({ id: r.id, name: r.name, realName: r.real_name, color: r.color, permissions: Object.freeze(permissions) }));
    }
    this.roles = next;
    this.loadedAt = Date.now();
  }

  /** The role as last loaded; starts a background reload when the copy is old. */
  get(id: number): RoleInfo {
    if (Date.now() - this.loadedAt > REFRESH_MS && !this.reloading) {
      this.reloading = this.load()
        .catch(this.onError)
        .finally(() => {
          this.reloading = null;
        });
    }
    return this.roles.get(id) ?? UNKNOWN_ROLE(id);
  }

  /** How a change made here reaches the other instances (set once by the app). */
  announceWith(announce: () => Promise<void>): void {
    this.announce = announce;
  }

  /** Reload now (after this process changed a role or its permissions) and tell the other instances. */
  async invalidate(): Promise<void> {
    await this.load();
    await this.announce();
  }
}
