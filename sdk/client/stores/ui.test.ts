// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The store reads local storage when its module loads, so each test imports a fresh copy.
async function freshUi() {
  vi.resetModules();
  return import('./ui');
}

beforeEach(() => localStorage.clear());
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('ui-settings defaults', () => {
  it('equal spec §9 exactly', async () => {
    const { UI_SETTINGS_DEFAULTS } = await freshUi();
    expect(UI_SETTINGS_DEFAULTS).toStrictEqual({
      skinViewer: { walkingAnimation: true, autoRotate: false, zoom: 0.8, animationSpeed: 1, cameraLight: 3, globalLight: 2.9 },
      profileDropdown: {
        backdropBlur: true,
        glassEffect: true,
        borderGlow: true,
        showBackground: true,
        showUserBackground: true,
        animationStyle: 'fade',
        backgroundOpacity: 0.95,
        borderRadius: 'xl',
      },
      sidebar: { glassEffect: true, opacity: 0.95, borderGlow: true, compactMode: false, showSectionDividers: true, animation: 'fade' },
      topNavigation: { glass: true, opacity: 0.95, glow: true, showSearchBar: true },
      notifications: { glass: true, opacity: 0.95, glow: true, animation: 'fade', showBackground: true },
      performance: {
        reduceMotion: false,
        disableAnimations: false,
        optimizeImages: true,
        lazyLoading: true,
        preloadCritical: true,
        backgroundEffects: true,
        transitionSpeed: 4.5,
        frameRateLimit: 75,
        memoryOptimization: false,
        networkOptimization: true,
        enableCaching: true,
        compressAssets: true,
      },
    });
  });

  it('page transitions: fade by default and the seven others (spec §9); animation styles; slider ranges (spec §5)', async () => {
    const ui = await freshUi();
    expect(ui.PAGE_TRANSITIONS).toEqual(['fade', 'slide-right', 'slide-left', 'slide-up', 'slide-down', 'scale', 'flip', 'rotate']);
    expect(ui.DEFAULT_PAGE_TRANSITION).toBe('fade');
    expect(ui.uiStore.getState().pageTransition).toBe('fade');
    expect(ui.ANIMATION_STYLES).toEqual(['fade', 'slide', 'scale', 'bounce']);
    expect(ui.SLIDER_LIMITS).toEqual({
      backgroundOpacity: { min: 0.1, max: 1, step: 0.05 },
      zoom: { min: 0.5, max: 1.5, step: 0.1 },
      transitionSpeed: { min: 0.5, max: 5, step: 0.1 },
      frameRateLimit: { min: 30, max: 144, step: 15 },
    });
    expect(ui.transitionDurationSeconds(4.5)).toBeCloseTo(1 / 4.5);
    expect(ui.transitionDurationSeconds(0.5)).toBe(2);
  });

  it('the panels start closed', async () => {
    const { uiStore } = await freshUi();
    expect(uiStore.getState().settingsPanelOpen).toBe(false);
    expect(uiStore.getState().debugPanelOpen).toBe(false);
    expect(uiStore.getState().transitioning).toBe(false);
  });
});

describe('ui-settings persistence', () => {
  it('invalid saved JSON → the warning "Failed to parse saved UI settings" and the defaults (spec §8)', async () => {
    localStorage.setItem('ui-settings', '{not json');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { uiStore, UI_SETTINGS_DEFAULTS } = await freshUi();
    expect(warn).toHaveBeenCalledWith('Failed to parse saved UI settings');
    expect(uiStore.getState().settings).toStrictEqual(UI_SETTINGS_DEFAULTS);
  });

  it('reads saved groups over the defaults, dropping unknown keys, wrong types and out-of-range values', async () => {
    localStorage.setItem(
      'ui-settings',
      JSON.stringify({
        sidebar: { compactMode: true, opacity: 7, animation: 'wobble', bogus: 1 },
        performance: { transitionSpeed: 2, frameRateLimit: 'fast' },
      }),
    );
    localStorage.setItem('page-transition', 'flip');
    const { uiStore, UI_SETTINGS_DEFAULTS } = await freshUi();
    const s = uiStore.getState();
    expect(s.settings.sidebar).toEqual({ ...UI_SETTINGS_DEFAULTS.sidebar, compactMode: true, opacity: 1 });
    expect(s.settings.performance.transitionSpeed).toBe(2);
    expect(s.settings.performance.frameRateLimit).toBe(75);
    expect(s.pageTransition).toBe('flip');
  });

  it('an unknown saved transition falls back to fade', async () => {
    localStorage.setItem('page-transition', 'teleport');
    const { uiStore } = await freshUi();
    expect(uiStore.getState().pageTransition).toBe('fade');
  });

  it('a local write is saved under ui-settings and re-applied after 10 ms (spec §3, §9)', async () => {
    vi.useFakeTimers();
    const { uiStore, UI_SETTINGS_REAPPLY_DELAY_MS } = await freshUi();
    expect(UI_SETTINGS_REAPPLY_DELAY_MS).toBe(10);
    const before = uiStore.getState().appliedCount;
    uiStore.getState().updateSettings('performance', { transitionSpeed: 2 });
    expect(JSON.parse(localStorage.getItem('ui-settings')!).performance.transitionSpeed).toBe(2);
    vi.advanceTimersByTime(9);
    expect(uiStore.getState().appliedCount).toBe(before);
    vi.advanceTimersByTime(1);
    expect(uiStore.getState().appliedCount).toBe(before + 1);
    expect(document.documentElement.style.getPropertyValue('--op-transition-duration')).toBe('0.5s');
  });

  it('the preferred transition is saved under its own key', async () => {
    const { uiStore } = await freshUi();
    uiStore.getState().setPageTransition('slide-up');
    expect(localStorage.getItem('page-transition')).toBe('slide-up');
    expect(JSON.parse(localStorage.getItem('ui-settings') ?? '{}').pageTransition).toBeUndefined();
  });

  it('a write in another tab (storage event) is re-applied at once', async () => {
    const { uiStore, startUiSettingsSync } = await freshUi();
    const stop = startUiSettingsSync();
    const before = uiStore.getState().appliedCount;
    localStorage.setItem('ui-settings', JSON.stringify({ sidebar: { compactMode: true } }));
    window.dispatchEvent(new StorageEvent('storage', { key: 'ui-settings' }));
    expect(uiStore.getState().settings.sidebar.compactMode).toBe(true);
    expect(uiStore.getState().appliedCount).toBe(before + 1);
    localStorage.setItem('page-transition', 'rotate');
    window.dispatchEvent(new StorageEvent('storage', { key: 'page-transition' }));
    expect(uiStore.getState().pageTransition).toBe('rotate');
    expect(document.documentElement.dataset.pageTransition).toBe('rotate');
    stop();
    window.dispatchEvent(new StorageEvent('storage', { key: 'ui-settings' }));
    expect(uiStore.getState().appliedCount).toBe(before + 2);
  });

  it('reset puts a group back to the defaults', async () => {
    vi.useFakeTimers();
    const { uiStore, UI_SETTINGS_DEFAULTS } = await freshUi();
    uiStore.getState().updateSettings('topNavigation', { showSearchBar: false });
    uiStore.getState().resetSettings('topNavigation');
    expect(uiStore.getState().settings.topNavigation).toEqual(UI_SETTINGS_DEFAULTS.topNavigation);
  });
});

describe('sliders at their bounds and steps (spec §5)', () => {
  // spec §5, every slider: [limits name, below min, min, max, above max, off-step → nearest stop]
  const cases = [
    {
      name: 'backgroundOpacity',
      below: 0,
      min: 0.1,
      max: 1,
      above: 1.5,
      offStep: [
        [0.12, 0.1],
        [0.13, 0.15],
        [0.62, 0.6],
        [0.97, 0.95],
        [0.99, 1],
      ],
    },
    {
      name: 'zoom',
      below: 0.2,
      min: 0.5,
      max: 1.5,
      above: 2,
      offStep: [
        [0.84, 0.8],
        [0.86, 0.9],
        [1.44, 1.4],
        [1.46, 1.5],
      ],
    },
    {
      name: 'transitionSpeed',
      below: 0.1,
      min: 0.5,
      max: 5,
      above: 9,
      offStep: [
        [0.54, 0.5],
        [4.46, 4.5],
        [2.349, 2.3],
      ],
    },
    {
      name: 'frameRateLimit',
      below: 10,
      min: 30,
      max: 144,
      above: 240,
      offStep: [
        [37, 30],
        [38, 45],
        [70, 75],
        [139, 135],
        [140, 144],
      ],
    },
  ] as const;

  for (const c of cases) {
    it(`${c.name}: below min → min, min, max, above max → max, off-step → the nearest stop`, async () => {
      const { SLIDER_LIMITS, snapToSlider } = await freshUi();
      const limits = SLIDER_LIMITS[c.name];
      expect(limits.min).toBe(c.min);
      expect(limits.max).toBe(c.max);
      expect(snapToSlider(c.below, limits)).toBe(c.min);
      expect(snapToSlider(c.min, limits)).toBe(c.min);
      expect(snapToSlider(c.max, limits)).toBe(c.max);
      expect(snapToSlider(c.above, limits)).toBe(c.max);
      for (const [value, expected] of c.offStep) expect(snapToSlider(value, limits), `${value}`).toBe(expected);
      expect(snapToSlider(Number.NaN, limits)).toBeNull();
      expect(snapToSlider(Number.POSITIVE_INFINITY, limits)).toBeNull();
    });
  }

  it('the stops each slider offers: from min in steps, max included even off the steps', async () => {
    const { SLIDER_LIMITS, sliderStops } = await freshUi();
    expect(sliderStops(SLIDER_LIMITS.zoom)).toEqual([0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.1, 1.2, 1.3, 1.4, 1.5]);
    expect(sliderStops(SLIDER_LIMITS.frameRateLimit)).toEqual([30, 45, 60, 75, 90, 105, 120, 135, 144]);
    const opacity = sliderStops(SLIDER_LIMITS.backgroundOpacity);
    expect(opacity).toHaveLength(19);
    expect(opacity.slice(0, 3)).toEqual([0.1, 0.15, 0.2]);
    expect(opacity.at(-1)).toBe(1);
    const speed = sliderStops(SLIDER_LIMITS.transitionSpeed);
    expect(speed).toHaveLength(46);
    expect(speed).toContain(4.5);
    expect(speed.at(-1)).toBe(5);
  });

  it('every spec §9 default sits on a stop of its slider', async () => {
    const { UI_SETTINGS_DEFAULTS: d, SLIDER_LIMITS: l, SKIN_VIEWER_LIMITS: k, sliderStops } = await freshUi();
    expect(sliderStops(l.zoom)).toContain(d.skinViewer.zoom);
    expect(sliderStops(l.transitionSpeed)).toContain(d.performance.transitionSpeed);
    expect(sliderStops(l.frameRateLimit)).toContain(d.performance.frameRateLimit);
    for (const o of [d.sidebar.opacity, d.topNavigation.opacity, d.notifications.opacity, d.profileDropdown.backgroundOpacity])
      expect(sliderStops(l.backgroundOpacity)).toContain(o);
    expect(sliderStops(k.animationSpeed)).toContain(d.skinViewer.animationSpeed);
    expect(sliderStops(k.cameraLight)).toContain(d.skinViewer.cameraLight);
    expect(sliderStops(k.globalLight)).toContain(d.skinViewer.globalLight);
  });

  it('saved values are held to the sliders: clamped, snapped to a stop, and a non-number dropped', async () => {
    localStorage.setItem(
      'ui-settings',
      JSON.stringify({
        skinViewer: { zoom: 0.87, animationSpeed: 99, cameraLight: -1, globalLight: 'bright' },
        notifications: { opacity: 0.03 },
        performance: { transitionSpeed: 4.46, frameRateLimit: 140 },
      }),
    );
    const { uiStore } = await freshUi();
    const s = uiStore.getState().settings;
    expect(s.skinViewer).toMatchObject({ zoom: 0.9, animationSpeed: 3, cameraLight: 0, globalLight: 2.9 });
    expect(s.notifications.opacity).toBe(0.1);
    expect(s.performance).toMatchObject({ transitionSpeed: 4.5, frameRateLimit: 144 });
  });

  it('a control writing past a bound or between steps stores the allowed value', async () => {
    const { uiStore } = await freshUi();
    uiStore.getState().updateSettings('skinViewer', { zoom: 1.7 });
    expect(uiStore.getState().settings.skinViewer.zoom).toBe(1.5);
    uiStore.getState().updateSettings('skinViewer', { zoom: 0.449 });
    expect(uiStore.getState().settings.skinViewer.zoom).toBe(0.5);
    uiStore.getState().updateSettings('performance', { frameRateLimit: 50 });
    expect(uiStore.getState().settings.performance.frameRateLimit).toBe(45);
    expect(JSON.parse(localStorage.getItem('ui-settings')!).performance.frameRateLimit).toBe(45);
  });
});

describe('reduced motion (spec §9 reduceMotion, and the browser’s prefers-reduced-motion)', () => {
  /** a matchMedia whose reduced-motion answer the test switches */
  function systemPreference(initial: boolean) {
    const listeners = new Set<() => void>();
    const query = {
      matches: initial,
      media: '(prefers-reduced-motion: reduce)',
      addEventListener: (_: string, fn: () => void) => listeners.add(fn),
      removeEventListener: (_: string, fn: () => void) => listeners.delete(fn),
    };
    vi.stubGlobal('matchMedia', (media: string) => (media === query.media ? query : { matches: false, addEventListener() {}, removeEventListener() {} }));
    return {
      set(matches: boolean) {
        query.matches = matches;
        for (const fn of listeners) fn();
      },
      listeners,
    };
  }
  afterEach(() => vi.unstubAllGlobals());

  it('the rule: the setting, disabled animations or the browser asking each hold the motion', async () => {
    const { motionReduced } = await freshUi();
    const off = { reduceMotion: false, disableAnimations: false };
    expect(motionReduced(off, false)).toBe(false);
    expect(motionReduced({ ...off, reduceMotion: true }, false)).toBe(true);
    expect(motionReduced({ ...off, disableAnimations: true }, false)).toBe(true);
    expect(motionReduced(off, true)).toBe(true);
  });

  it('switching reduceMotion off gives the motion back at once, without a reload', async () => {
    vi.useFakeTimers();
    systemPreference(false);
    const { uiStore, startUiSettingsSync } = await freshUi();
    const stop = startUiSettingsSync();
    const root = document.documentElement;
    expect(root.dataset.reduceMotion).toBe('false');
    uiStore.getState().updateSettings('performance', { reduceMotion: true });
    vi.advanceTimersByTime(10);
    expect(root.dataset.reduceMotion).toBe('true');
    expect(root.style.getPropertyValue('--op-transition-duration')).toBe('0s');
    uiStore.getState().updateSettings('performance', { reduceMotion: false });
    vi.advanceTimersByTime(10);
    expect(root.dataset.reduceMotion).toBe('false');
    expect(Number.parseFloat(root.style.getPropertyValue('--op-transition-duration'))).toBeCloseTo(1 / 4.5);
    stop();
  });

  it('follows the browser’s preference live, and stops listening when the sync stops', async () => {
    const system = systemPreference(false);
    const { uiStore, startUiSettingsSync } = await freshUi();
    const stop = startUiSettingsSync();
    const root = document.documentElement;
    expect(uiStore.getState().systemReducedMotion).toBe(false);
    system.set(true);
    expect(uiStore.getState().systemReducedMotion).toBe(true);
    expect(root.dataset.reduceMotion).toBe('true');
    system.set(false);
    expect(root.dataset.reduceMotion).toBe('false');
    stop();
    expect(system.listeners.size).toBe(0);
  });
});
