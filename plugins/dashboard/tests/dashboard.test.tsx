// @vitest-environment jsdom
import { cleanup, renderPlugin } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import manifest from '../plugin.json';
import en from '../locales/en.json';
import de from '../locales/de.json';

afterEach(() => cleanup());

const session = {
  user: { first_name: 'Ana', username: 'ana.p' },
  billing: { coins: 12345, ram: 3072, disk: 512, cpu: 150, ports: 3, databases: 2, backups: 4, server_slots: 2 },
  stats: { servers: 1, minutes_afk: 135, referrals: 7 },
};

/** The value shown on the stat card labelled `label`. */
function statValue(app: Awaited<ReturnType<typeof renderPlugin>>, label: string): string | undefined {
  const labelElement = app.getByText(label);
  return labelElement.nextElementSibling?.textContent ?? undefined;
}

describe('dashboard page', () => {
  it("greets the user by first name and shows the session's balance, resources and stats", async () => {
    const app = await renderPlugin(plugin, { manifest, route: '/dashboard', catalogues: { en }, session });
    await app.findByRole('heading', 'Welcome back, Ana!');

    expect(statValue(app, en.stats.coins)).toBe('12,345');
    expect(statValue(app, en.stats.ram)).toBe('3 GiB');
    expect(statValue(app, en.stats.disk)).toBe('512 MiB');
    expect(statValue(app, en.stats.cpu)).toBe('150%');
    expect(statValue(app, en.stats.ports)).toBe('3');
    expect(statValue(app, en.stats.databases)).toBe('2');
    expect(statValue(app, en.stats.backups)).toBe('4');
    expect(statValue(app, en.stats.serverSlots)).toBe('2');
    expect(statValue(app, en.stats.servers)).toBe('1');
    expect(statValue(app, en.stats.minutesAfk)).toBe('2 h 15 min');
    expect(statValue(app, en.stats.referrals)).toBe('7');
  });

  it('formats numbers in the interface language', async () => {
    const app = await renderPlugin(plugin, { manifest, route: '/dashboard', locale: 'de', catalogues: { en, de }, session });
    await app.findByRole('heading', 'Willkommen zurück, Ana!');
    expect(statValue(app, de.stats.coins)).toBe('12.345');
    expect(statValue(app, de.stats.minutesAfk)).toBe('2 Std. 15 Min.');
  });

  it('falls back to the username when there is no first name', async () => {
    const app = await renderPlugin(plugin, { manifest, route: '/dashboard', catalogues: { en }, session: { ...session, user: { first_name: '', username: 'ana.p' } } });
    await app.findByRole('heading', 'Welcome back, ana.p!');
  });

  it('shows an empty state when no plugin fills the announcements slot, and no widgets section', async () => {
    const app = await renderPlugin(plugin, { manifest, route: '/dashboard', catalogues: { en }, session });
    await app.findByText(en.announcements.emptyTitle);
    expect(app.queryByRole('heading', en.sections.widgets)).toBeNull();
  });

  it('shows a loading skeleton while the session loads', async () => {
    // no session yet: the kernel has not answered the first fetch
    const app = await renderPlugin(plugin, { manifest, route: '/dashboard', catalogues: { en }, session: null });
    await app.findByRole('heading', en.title);
    expect(app.container.querySelector('[aria-busy="true"]')).not.toBeNull();
    expect(app.queryByText(en.stats.coins)).toBeNull();
  });
});
