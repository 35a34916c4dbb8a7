// Our users' accounts on the panel: user_id → panel user id in panel_accounts (one each, both
// sides unique). accountFor finds the linked one, else the panel user with the same e-mail, else
// creates one without a password (external_id `orepanel-<uuid>`); the panel password is sent only
// when the user sets theirs (syncPassword), and is never stored or logged.
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { CoreDatabase, PluginAudit } from '../../sdk/server';
import { isPanelError, type PanelUser } from '../../sdk/pterodactyl';
import { isUniqueViolation } from '../db/connect';
import type { PanelApi } from './panel-api';
import { panelError } from './panel-error';

export interface PanelAccountsTable {
  user_id: number;
  panel_user_id: number;
  created_at: string;
}

type Db = Kysely<CoreDatabase & { panel_accounts: PanelAccountsTable }>;

const PANEL_USERNAME = /^[a-z0-9]([\w.-]+)[a-z0-9]$/;

/** Our username as the panel accepts it: lower-cased, letters/digits at both ends, 3–191 characters. */
export function panelUsernameFor(username: string): string {
  let name = username
    .toLowerCase()
    .replace(/[^\w.-]/g, '_')
    .replace(/^[^a-z0-9]+/, '')
    .replace(/[^a-z0-9]+$/, '')
    .slice(0, 180);
  if (name.length < 3) name = `user${name}`;
  return PANEL_USERNAME.test(name) ? name : `user${name.replace(/[^a-z0-9]/g, '')}`.slice(0, 180);
}

export const panelExternalIdFor = (uuid: string) => `orepanel-${uuid}`;

export class PanelAccounts {
  /** one lookup-or-create per user at a time in this process; the unique keys settle the rest */
  private readonly inFlight = new Map<number, Promise<PanelUser>>();
  private readonly syncs = new Set<Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly api: PanelApi,
    private readonly audit: PluginAudit,
    private readonly log: FastifyBaseLogger,
  ) {}

  async linkedPanelUserId(userId: number): Promise<number | null> {
    const row = await this.db.selectFrom('panel_accounts').select('panel_user_id').where('user_id', '=', userId).executeTakeFirst();
    return row ? Number(row.panel_user_id) : null;
  }

  accountFor(userId: number): Promise<PanelUser> {
    const running = this.inFlight.get(userId);
    if (running) return running;
    const work = this.resolve(userId).finally(() => this.inFlight.delete(userId));
    this.inFlight.set(userId, work);
    return work;
  }

  private async resolve(userId: number): Promise<PanelUser> {
    const user = await this.db.selectFrom('users').select(['id', 'uuid', 'username', 'email', 'first_name', 'last_name']).where('id', '=', userId).executeTakeFirst();
    if (!user) throw panelError({ code: 'PANEL_NOT_FOUND', detail: `There is no user ${userId}.` });
    const linked = await this.linkedPanelUserId(userId);
    if (linked !== null) {
      try {
        return await this.api.users.get(linked);
      } catch (error) {
        // removed on the panel: forget the link and find or make it again
        if (!(isPanelError(error) && error.code === 'PANEL_NOT_FOUND')) throw error;
        await this.db.deleteFrom('panel_accounts').where('user_id', '=', userId).where('panel_user_id', '=', linked).execute();
      }
    }
    const panelUser = (await this.api.users.findByEmail(user.email)) ?? (await this.create(user));
    return this.link(userId, panelUser);
  }

  private async create(user: { uuid: string; username: string; email: string; first_name: string; last_name: string }): Promise<PanelUser> {
    const externalId = panelExternalIdFor(user.uuid);
    const base = panelUsernameFor(user.username);
    const candidates = [base, `${base.slice(0, 170)}-${user.uuid.slice(0, 6)}`, `${base.slice(0, 170)}-${user.uuid.replace(/-/g, '').slice(6, 16)}`];
    let lastError: unknown = null;
    for (const username of candidates) {
      try {
        return await this.api.users.create({ email: user.email, username, first_name: user.first_name || 'User', last_name: user.last_name || 'User', external_id: externalId });
      } catch (error) {
        lastError = error;
        if (!isPanelError(error)) throw error;
        if (error.uncertain || (error.code === 'PANEL_VALIDATION' && (error.field === 'email' || error.field === 'external_id'))) {
          // made by a concurrent call (another instance), or made although the answer was lost
          const existing = (await this.api.users.findByExternalId(externalId)) ?? (await this.api.users.findByEmail(user.email));
          if (existing) return existing;
          if (!(error.code === 'PANEL_VALIDATION')) throw error;
        }
        if (error.code === 'PANEL_VALIDATION' && error.field === 'username') continue;
        throw error;
      }
    }
    throw lastError;
  }

  private async link(userId: number, panelUser: PanelUser): Promise<PanelUser> {
    try {
      await this.db.insertInto('panel_accounts').values({ user_id: userId, panel_user_id: panelUser.id, created_at: new Date().toISOString() }).execute();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const row = await this.db
        .selectFrom('panel_accounts')
        .select(['user_id', 'panel_user_id'])
        .where((eb) => eb.or([eb('user_id', '=', userId), eb('panel_user_id', '=', panelUser.id)]))
        .executeTakeFirst();
      // linked to the same panel user by a concurrent call: fine; another of ours holds it: refuse
      if (!row || Number(row.user_id) !== userId || Number(row.panel_user_id) !== panelUser.id) {
        throw panelError({ code: 'PANEL_CONFLICT', detail: 'That panel account is already linked to another user.' });
      }
    }
    return panelUser;
  }

  /**
   * Sends the user's new password to their panel account, when they have one. Best effort: runs
   * after our change is saved, never delays or fails it; a failure is logged and audited.
   */
  syncPassword(userId: number, password: string): void {
    const work = (async () => {
      let panelUserId: number | null = null;
      try {
        panelUserId = await this.linkedPanelUserId(userId);
        if (panelUserId === null) return;
        await this.api.users.update(panelUserId, { password });
        await this.audit.record(null, { action: 'pterodactyl.password_synced', actorUserId: null, targetUserId: userId, details: { panel_user_id: panelUserId } });
      } catch (error) {
        const code = isPanelError(error) ? error.code : 'INTERNAL';
        const detail = isPanelError(error) ? error.detail : 'unexpected error';
        this.log.warn({ userId, panelUserId, code, detail }, 'pterodactyl: the new password could not be set on the panel');
        await this.audit
          .record(null, { action: 'pterodactyl.password_sync_failed', actorUserId: null, targetUserId: userId, details: { panel_user_id: panelUserId, code, detail } })
          .catch((auditError: unknown) => this.log.error({ err: auditError }, 'pterodactyl: could not audit a failed password sync'));
      }
    })();
    this.syncs.add(work);
    void work.finally(() => this.syncs.delete(work));
  }

  /** Resolves once every password sync started so far has finished (tests, shutdown). */
  async passwordSyncsSettled(): Promise<void> {
    while (this.syncs.size > 0) await Promise.allSettled([...this.syncs]);
  }
}
