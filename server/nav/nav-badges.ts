// The counts on sidebar items (issue 11: an in-app unread count; later announcements and others).
// A plugin names a badge on a nav item in plugin.json and gives its count with ctx.nav.badge(); the
// core answers GET /api/user/nav-badges with the counts of the items the user can see, by the rules
// the sidebar hides items with (kernel/shell/nav-model.ts): active plugin, item and target route
// flags on, their permissions held, an admin route only for an admin role. Nothing here knows any
// plugin: a badge is `<plugin id>.<name>`.
import type { FastifyBaseLogger } from 'fastify';
import { hasPermission, isAdminRole } from '../../sdk/manifest';
import type { NavBadgeProvider, PluginNav, SessionUser } from '../../sdk/server';
import type { PluginManifest } from '../../sdk/types';

/** A provider slower than this is left out of the answer (the sidebar must not wait on one plugin). */
export const NAV_BADGE_TIMEOUT_MS = 3_000;

/** The key the answer and the kernel name a badge by (a plugin id has no dot). */
export function navBadgeKey(pluginId: string, name: string): string {
  return `${pluginId}.${name}`;
}

export interface NavBadgeSources {
  /** the active plugins' manifests */
  manifests(): readonly PluginManifest[];
  /** whether boolean setting `flag` is on (an unknown one is off) */
  flagOn(flag: string): Promise<boolean>;
  log: FastifyBaseLogger;
}

export class NavBadges {
  private readonly providers = new Map<string, NavBadgeProvider>();

  /** ctx.nav of one plugin: it may give only the badges its own manifest names. */
  forPlugin(manifest: Pick<PluginManifest, 'id' | 'nav'>): PluginNav {
    const declared = new Set((manifest.nav ?? []).flatMap((item) => (item.badge ? [item.badge] : [])));
    return Object.freeze({
      badge: (name: string, provider: NavBadgeProvider) => {
        if (!declared.has(name)) throw new Error(`plugin "${manifest.id}" gives nav badge "${name}" but no nav item of its plugin.json names it`);
        if (typeof provider !== 'function') throw new TypeError(`ctx.nav.badge(${name}): the provider must be a function`);
        const key = navBadgeKey(manifest.id, name);
        if (this.providers.has(key)) throw new Error(`plugin "${manifest.id}" gives nav badge "${name}" twice`);
        this.providers.set(key, provider);
      },
    });
  }

  /** Takes back a badge's provider (its plugin was removed or replaced by its update). */
  forget(pluginId: string, name: string): void {
    this.providers.delete(navBadgeKey(pluginId, name));
  }

  /** The counts of the badges on the items `user` can see; a failing or slow provider is left out. */
  async countsFor(user: SessionUser, sources: NavBadgeSources): Promise<Record<string, number>> {
    const manifests = sources.manifests();
    const routes = new Map<string, NonNullable<PluginManifest['routes']>[number]>();
    for (const m of manifests) for (const r of m.routes ?? []) if (!routes.has(r.path)) routes.set(r.path, r);
    const flags = new Map<string, Promise<boolean>>();
    const flagOn = (flag: string | undefined) => {
      if (!flag) return Promise.resolve(true);
      let on = flags.get(flag);
      if (!on) {
        on = sources.flagOn(flag).catch(() => false);
        flags.set(flag, on);
      }
      return on;
    };
    const visible = async (item: NonNullable<PluginManifest['nav']>[number]) => {
      const target = routes.get(item.route);
      if (!hasPermission(user.permissions, item.permission)) return false;
      if (target && (!hasPermission(user.permissions, target.permission) || (target.admin && !isAdminRole(user.role)))) return false;
      return (await flagOn(item.flag)) && (await flagOn(target?.flag));
    };

    const wanted = new Set<string>();
    await Promise.all(
      manifests.flatMap((m) =>
        (m.nav ?? []).map(async (item) => {
          if (!item.badge) return;
          const key = navBadgeKey(m.id, item.badge);
          if (this.providers.has(key) && (await visible(item))) wanted.add(key);
        }),
      ),
    );
    const counts: Record<string, number> = {};
    await Promise.all(
      [...wanted].map(async (key) => {
        const count = await this.ask(key, user, sources.log);
        if (count !== null) counts[key] = count;
      }),
    );
    return counts;
  }

  private async ask(key: string, user: SessionUser, log: FastifyBaseLogger): Promise<number | null> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const timeout = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), NAV_BADGE_TIMEOUT_MS);
      });
      const count = await Promise.race([this.providers.get(key)!(user), timeout]);
      if (count === 'timeout') {
        log.warn({ badge: key }, `nav badge "${key}" took longer than ${NAV_BADGE_TIMEOUT_MS} ms; left out`);
        return null;
      }
      if (!Number.isSafeInteger(count) || count < 0) {
        log.warn({ badge: key, count }, `nav badge "${key}" answered no whole number ≥ 0; left out`);
        return null;
      }
      return count;
    } catch (error) {
      log.warn({ badge: key, err: error }, `nav badge "${key}" failed; left out`);
      return null;
    } finally {
      clearTimeout(timer);
    }
  }
}
