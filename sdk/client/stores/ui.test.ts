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
