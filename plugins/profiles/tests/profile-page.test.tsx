// @vitest-environment jsdom
// The profile page in jsdom. jsdom has no WebGL, so skinview3d cannot draw here: these tests prove the
// viewer's fail-soft path (the skin shown as a flat image, with a note) — the 3D path itself is left
// to a real browser.
import { definePlugin, UI_SETTINGS_DEFAULTS } from '@orepanel/sdk';
import { cleanup, renderPlugin, type HttpHandlers, type TestSession } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import { applyViewerOptions, viewerOptions } from '../client/SkinViewer';
import manifest from '../plugin.json';
import en from '../locales/en.json';
import { DEFAULT_SKIN_PATH, type PublicProfile } from '../shared/people';

afterEach(() => cleanup());

const OTHER = '11111111-1111-4111-8111-111111111111';
const session: TestSession = { user: { uuid: '00000000-0000-4000-8000-000000000001', username: 'viewer' } };

const profile: PublicProfile = {
  uuid: OTHER,
  username: 'Miner_Max',
  avatar: null,
  background: 'https://cdn.example.com/bg.jpg',
  role: { name: 'VIP', color: '#ffaa00' },
  member_since: '2025-03-04T10:00:00.000Z',
  stats: { minutes_afk: 1234, referrals: 5, servers: 2 },
  skin_url: null,
  self: false,
  early_supporter: false,
};

/** A stand-in for the gift-coins plugin: the profile links to its page. */
const giftStub = {
  plugin: definePlugin({ id: 'gift-coins', setup: (ctx) => ctx.routes.provide('GiftCoinsPage', async () => ({ default: () => null })) }),
  manifest: {
    id: 'gift-coins',
    name: 'Gift coins',
    version: '1.0.0',
    sdk: '^2.0.0',
    routes: [{ path: '/profile/:uuid/gift-coins', component: 'GiftCoinsPage', auth: true, flag: 'allow_coins_sharing' }],
  },
};

function open(answer: PublicProfile | HttpHandlers[string], options: { settings?: Record<string, boolean>; gift?: boolean } = {}) {
  const reply = 'uuid' in (answer as object) ? { body: answer } : (answer as HttpHandlers[string]);
  return renderPlugin(plugin, {
    manifest,
    route: `/profile/${OTHER}`,
    catalogues: { en },
    session,
    settings: { allow_public_profiles: true, allow_coins_sharing: true, ...options.settings },
    alongside: options.gift === false ? [] : [giftStub],
    http: { [`GET /api/user/profile/${OTHER}`]: reply },
  });
}

describe('profile page', () => {
  it('shows name, role, member since, background and the public numbers', async () => {
    const app = await open({ ...profile, background: 'https://cdn.example.com/b g".jpg' });
    await app.findByRole('heading', 'Miner_Max');
    // the background address cannot close the CSS url("…") it sits in
    const banner = app.container.querySelector<HTMLElement>('[role="presentation"]')!;
    expect(getComputedStyle(banner).backgroundImage).toBe('url("https://cdn.example.com/b g%22.jpg")');
    expect(app.getByText('VIP')).toBeTruthy();
    expect(app.getByText(/^Member since Mar 4, 2025$/)).toBeTruthy();
    expect(app.getByText('AFK minutes').parentElement?.textContent).toContain('1,234');
    expect(app.getByText('Referrals').parentElement?.textContent).toContain('5');
    expect(app.getByText('Servers').parentElement?.textContent).toContain('2');
    expect(document.title).toContain('Miner_Max');
  });

  it('shows the Early Supporter badge for one of the first accounts, and none for the others', async () => {
    const early = await open({ ...profile, early_supporter: true });
    await early.findByRole('heading', 'Miner_Max');
    expect(early.getByText('Early Supporter')).toBeTruthy();
    early.unmount();
    const later = await open(profile);
    await later.findByRole('heading', 'Miner_Max');
    expect(later.queryByText('Early Supporter')).toBeNull();
  });

  it('offers "Gift coins" on someone else’s profile, linking to the gift-coins page', async () => {
    const app = await open(profile);
    const gift = await app.findByRole('link', 'Gift coins');
    expect(gift.getAttribute('href')).toBe(`/profile/${OTHER}/gift-coins`);
  });

  it('offers no gift on your own profile, with gifts off, or without the gift-coins plugin', async () => {
    const own = await open({ ...profile, self: true });
    await own.findByRole('heading', 'Miner_Max');
    expect(own.queryByRole('link', 'Gift coins')).toBeNull();
    own.unmount();
    const off = await open(profile, { settings: { allow_coins_sharing: false } });
    await off.findByRole('heading', 'Miner_Max');
    expect(off.queryByRole('link', 'Gift coins')).toBeNull();
    off.unmount();
    const missing = await open(profile, { gift: false });
    await missing.findByRole('heading', 'Miner_Max');
    expect(missing.queryByRole('link', 'Gift coins')).toBeNull();
  });

  it('falls back to the flat skin image without WebGL: the bundled default skin', async () => {
    const app = await open(profile);
    const flat = await app.findByRole('img', 'Miner_Max’s Minecraft skin', { timeout: 15_000 });
    expect(flat.getAttribute('src')).toBe(DEFAULT_SKIN_PATH);
    expect(app.getByText(en.skin.flat)).toBeTruthy();
    // the 3D canvas is hidden, not left blank on the page
    expect(app.container.querySelector('canvas')?.hidden).toBe(true);
  });

  it('falls back to the flat image too when skinview3d is loaded but cannot start', async () => {
    // a browser that hands out a WebGL context that does not work: skinview3d is imported and throws
    const original = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function () {
      return { getExtension: () => null } as unknown as RenderingContext;
    } as typeof original;
    try {
      const app = await open(profile);
      const flat = await app.findByRole('img', 'Miner_Max’s Minecraft skin', { timeout: 15_000 });
      expect(flat.getAttribute('src')).toBe(DEFAULT_SKIN_PATH);
    } finally {
      HTMLCanvasElement.prototype.getContext = original;
    }
  });

  it('shows the skin from the skin address, and the default skin when that address does not load', async () => {
    const app = await open({ ...profile, skin_url: 'https://skins.example.com/Miner_Max.png' });
    const flat = await app.findByRole('img', 'Miner_Max’s Minecraft skin', { timeout: 15_000 });
    expect(flat.getAttribute('src')).toBe('https://skins.example.com/Miner_Max.png');
    flat.dispatchEvent(new Event('error'));
    await app.waitFor(() => expect(app.getByRole('img', 'Miner_Max’s Minecraft skin').getAttribute('src')).toBe(DEFAULT_SKIN_PATH));
  });

  it('does not ask the server about an address that cannot name a user', async () => {
    const app = await renderPlugin(plugin, { manifest, route: '/profile/not-a-user', catalogues: { en }, session, settings: { allow_public_profiles: true }, http: {} });
    await app.findByText(en.errors.USER_NOT_FOUND);
    expect(app.httpCalls.filter((c) => c.path.startsWith('/api/user/profile/'))).toHaveLength(0);
  });

  it('says the profile is not available when the server answers 404', async () => {
    const app = await open({ status: 404, body: { error: { code: 'USER_NOT_FOUND', message: 'There is no such user.' } } });
    await app.findByText(en.errors.USER_NOT_FOUND);
    expect(app.getByText(en.profile.loadFailed)).toBeTruthy();
  });
});

describe('skin viewer settings', () => {
  it('applies the spec §9 defaults: walking at speed 1, no auto-rotate, zoom 0.8, lights 3 and 2.9', () => {
    expect(viewerOptions(UI_SETTINGS_DEFAULTS.skinViewer, false)).toEqual({ walking: true, animationSpeed: 1, autoRotate: false, zoom: 0.8, cameraLight: 3, globalLight: 2.9 });
  });

  it('stops walking and turning when the user asked for less motion', () => {
    const moving = { ...UI_SETTINGS_DEFAULTS.skinViewer, autoRotate: true };
    expect(viewerOptions(moving, true)).toMatchObject({ walking: false, autoRotate: false });
  });

  it('a change reaches the running viewer: zoom, turning, lights, and the walk started, sped up and stopped', () => {
    // the shape of skinview3d's viewer that the settings touch
    const viewer = { zoom: 0.8, autoRotate: false, cameraLight: { intensity: 0 }, globalLight: { intensity: 0 }, animation: null as { speed: number } | null };
    let walks = 0;
    const walk = () => {
      walks++;
      return { speed: 0 };
    };
    applyViewerOptions(viewer, viewerOptions(UI_SETTINGS_DEFAULTS.skinViewer, false), walk);
    expect(viewer).toEqual({ zoom: 0.8, autoRotate: false, cameraLight: { intensity: 3 }, globalLight: { intensity: 2.9 }, animation: { speed: 1 } });
    const first = viewer.animation;
    applyViewerOptions(viewer, viewerOptions({ ...UI_SETTINGS_DEFAULTS.skinViewer, zoom: 1.5, autoRotate: true, animationSpeed: 2, cameraLight: 1, globalLight: 4 }, false), walk);
    expect(viewer).toMatchObject({ zoom: 1.5, autoRotate: true, cameraLight: { intensity: 1 }, globalLight: { intensity: 4 }, animation: { speed: 2 } });
    // the same walk goes on faster: no jump back to its first step
    expect(viewer.animation).toBe(first);
    expect(walks).toBe(1);
    applyViewerOptions(viewer, viewerOptions({ ...UI_SETTINGS_DEFAULTS.skinViewer, walkingAnimation: false }, false), walk);
    expect(viewer.animation).toBeNull();
    applyViewerOptions(viewer, viewerOptions(UI_SETTINGS_DEFAULTS.skinViewer, true), walk);
    expect(viewer.animation).toBeNull();
  });
});
