// The anti-abuse screen, run at every sign-in (registration, login, and any other way a plugin
// starts a session: ctx.auth.startSession calls it). With block_alts / block_vpn on it flags the
// account for review — it never refuses or bans: a flag is something an administrator looks at on
// the admin user page and clears. Holders of user.permission.alt / user.permission.vpn (and
// admin.root) are never flagged. Whatever goes wrong here is logged and the sign-in goes on.
// Every sign-in, whatever the settings, also marks its browser (op_device) as one of the account's
// known devices (known-devices.ts).
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { hasPermission } from '../../sdk/manifest';
import type { CoreDatabase } from '../../sdk/server';
import type { AuditLog } from '../audit/audit-log';
import type { RoleDirectory } from '../auth/roles';
import type { SettingsStore } from '../settings/store';
import type { AbuseReviewTables, FlagKind, FlagReason } from './abuse-review-tables';
import { AccountFlags, type FlagInput } from './account-flags';
import { AltDetector, ensureDeviceCookie, hashDevice } from './alt-detection';
import type { KnownDevices } from './known-devices';
import { isPublicAddress, plainAddress, VpnChecker } from './vpn-checker';

export const ALT_BYPASS_PERMISSION = 'user.permission.alt';
export const VPN_BYPASS_PERMISSION = 'user.permission.vpn';

const SETTING_KEYS = ['block_alts', 'block_vpn', 'alt_ip_window_hours', 'alt_device_window_days', 'vpn_check_url', 'vpn_check_api_key'] as const;

export interface AbuseScreenServices {
  db: Kysely<CoreDatabase>;
  settings: SettingsStore;
  roles: RoleDirectory;
  audit: AuditLog;
  log: FastifyBaseLogger;
  /** tests pass one with a short timeout */
  vpnChecker?: VpnChecker;
  /** where every sign-in's browser is remembered for the login limit */
  knownDevices?: KnownDevices;
}

export class AbuseScreen {
  readonly flags: AccountFlags;
  private readonly alts: AltDetector;
  private readonly vpn: VpnChecker;

  constructor(private readonly services: AbuseScreenServices) {
    const db = services.db.withTables<AbuseReviewTables>();
    this.flags = new AccountFlags(db);
    this.alts = new AltDetector(db);
    this.vpn = services.vpnChecker ?? new VpnChecker();
  }

  /** Screens a sign-in that just started a session for `userId`. Never throws. */
  async afterSignIn(request: FastifyRequest, reply: FastifyReply, userId: number): Promise<void> {
    try {
      await this.screen(request, reply, userId);
    } catch (error) {
      this.services.log.error({ err: error, userId }, 'the anti-abuse screen failed; the sign-in went on unscreened');
    }
  }

  private async screen(request: FastifyRequest, reply: FastifyReply, userId: number): Promise<void> {
    // whatever the settings: the browser the owner signs in from keeps its own login budget when
    // strangers use up the account's (rate-limit-policies.ts)
    const deviceHash = hashDevice(ensureDeviceCookie(request, reply));
    await this.services.knownDevices?.remember(userId, deviceHash).catch((error: unknown) => {
      // the browser then counts as a stranger's at the next login; the screen itself goes on
      this.services.log.error({ err: error, userId }, 'remembering the browser of a sign-in failed');
    });
    const settings = await this.services.settings.getMany(SETTING_KEYS);
    const blockAlts = settings.block_alts === true;
    const blockVpn = settings.block_vpn === true;
    if (!blockAlts && !blockVpn) return;
    const user = await this.services.db.selectFrom('users').select('role_id').where('id', '=', userId).executeTakeFirst();
    if (!user) return;
    const permissions = this.services.roles.get(user.role_id).permissions;
    const ip = request.ip ? plainAddress(request.ip) : null;

    if (blockAlts) {
      const windows = { ipHours: Number(settings.alt_ip_window_hours), deviceDays: Number(settings.alt_device_window_days) };
      // the sign-in is traced even for a bypass holder: their browser still links a new account made on it
      const linked = await this.alts.linkedAccounts(userId, ip, deviceHash, windows);
      await this.alts.recordSignIn(userId, ip, deviceHash, windows);
      if (!hasPermission(permissions, ALT_BYPASS_PERMISSION)) {
        if (linked.byDevice.length > 0)
          await this.raise(request, { userId, kind: 'alt', reason: 'shared_device', evidence: linked.byDevice.map((id) => `user:${id}`), ip, detail: null });
        if (linked.byIp.length > 0) await this.raise(request, { userId, kind: 'alt', reason: 'shared_ip', evidence: linked.byIp.map((id) => `user:${id}`), ip, detail: null });
      }
    }

    // a checker can say nothing about a private or loopback address (no trusted proxy in front?)
    if (blockVpn && ip && isPublicAddress(ip) && !hasPermission(permissions, VPN_BYPASS_PERMISSION)) {
      const verdict = await this.vpn.check(ip, String(settings.vpn_check_url ?? ''), String(settings.vpn_check_api_key ?? ''));
      if (verdict.result === 'vpn') {
        await this.raise(request, { userId, kind: 'vpn', reason: 'vpn_detected', evidence: [`ip:${ip}`], ip, detail: verdict.detail });
      } else if (verdict.result === 'unchecked') {
        // fail open: the sign-in goes on, and the account says it was never checked
        this.services.log.warn({ userId, detail: verdict.detail }, 'the VPN checker could not be asked; the sign-in went on unchecked');
        await this.raise(request, { userId, kind: 'vpn', reason: 'vpn_unchecked', evidence: [`ip:${ip}`], ip, detail: verdict.detail });
      }
    }
  }

  private async raise(request: FastifyRequest, input: FlagInput & { kind: FlagKind; reason: FlagReason }): Promise<void> {
    const raised = await this.flags.raise(input);
    // a sign-in that only repeats what the open flag already holds adds nothing to the history
    if (!raised || !raised.grew) return;
    await this.services.audit.record(request, {
      action: raised.created ? 'security.flag_raised' : 'security.flag_extended',
      actorUserId: null,
      targetUserId: input.userId,
      details: { flag_id: raised.id, kind: input.kind, reason: input.reason, evidence: input.evidence.join(' '), detail: input.detail },
    });
  }
}
