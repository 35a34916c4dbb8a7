// Interface customisation (the gear panel) and interface states (spec §3, §4, §9). Persisted in local
// storage under `ui-settings` (the groups) and `page-transition` (the preferred transition). A change in
// this tab is re-applied to the document after 10 ms; a change in another tab (the `storage` event)
// is re-applied at once.
import { create } from 'zustand';
import { immer } from 'zustand/middleware/immer';
import { readStored, STORAGE_KEYS, writeStored } from '../storage';

/** spec §9: page transitions; fade is the default. */
export const PAGE_TRANSITIONS = ['fade', 'slide-right', 'slide-left', 'slide-up', 'slide-down', 'scale', 'flip', 'rotate'] as const;
export type PageTransition = (typeof PAGE_TRANSITIONS)[number];
export const DEFAULT_PAGE_TRANSITION: PageTransition = 'fade';

/** spec §9: component animation styles. */
export const ANIMATION_STYLES = ['fade', 'slide', 'scale', 'bounce'] as const;
export type AnimationStyle = (typeof ANIMATION_STYLES)[number];

export const BORDER_RADII = ['none', 'sm', 'md', 'lg', 'xl', '2xl', 'full'] as const;
export type BorderRadiusName = (typeof BORDER_RADII)[number];

export interface SkinViewerSettings {
  walkingAnimation: boolean;
  autoRotate: boolean;
  zoom: number;
  animationSpeed: number;
  cameraLight: number;
  globalLight: number;
}

export interface ProfileDropdownSettings {
  backdropBlur: boolean;
  glassEffect: boolean;
  borderGlow: boolean;
  showBackground: boolean;
  showUserBackground: boolean;
  animationStyle: AnimationStyle;
  backgroundOpacity: number;
  borderRadius: BorderRadiusName;
}

export interface SidebarSettings {
  glassEffect: boolean;
  opacity: number;
  borderGlow: boolean;
  compactMode: boolean;
  showSectionDividers: boolean;
  animation: AnimationStyle;
}

export interface TopNavigationSettings {
  glass: boolean;
  opacity: number;
  glow: boolean;
  showSearchBar: boolean;
}

export interface NotificationSettings {
  glass: boolean;
  opacity: number;
  glow: boolean;
  animation: AnimationStyle;
  showBackground: boolean;
}

export interface PerformanceSettings {
  reduceMotion: boolean;
  disableAnimations: boolean;
  optimizeImages: boolean;
  lazyLoading: boolean;
  preloadCritical: boolean;
  backgroundEffects: boolean;
  transitionSpeed: number;
  frameRateLimit: number;
  memoryOptimization: boolean;
  networkOptimization: boolean;
  enableCaching: boolean;
  compressAssets: boolean;
}

/** The groups stored under `ui-settings`. */
export interface UiSettings {
  skinViewer: SkinViewerSettings;
  profileDropdown: ProfileDropdownSettings;
  sidebar: SidebarSettings;
  topNavigation: TopNavigationSettings;
  notifications: NotificationSettings;
  performance: PerformanceSettings;
}

export type UiSettingsGroup = keyof UiSettings;

/** spec §9 defaults, exactly. */
export const UI_SETTINGS_DEFAULTS: Readonly<UiSettings> = Object.freeze({
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
} satisfies UiSettings);

/** A slider's range (spec §5). */
export interface SliderLimits {
  min: number;
  max: number;
  step: number;
}

/** spec §5: the sliders of the customisation panel. */
export const SLIDER_LIMITS = Object.freeze({
  backgroundOpacity: { min: 0.1, max: 1, step: 0.05 },
  zoom: { min: 0.5, max: 1.5, step: 0.1 },
  transitionSpeed: { min: 0.5, max: 5, step: 0.1 },
  frameRateLimit: { min: 30, max: 144, step: 15 },
} satisfies Record<string, SliderLimits>);

/**
 * The skin viewer's other sliders. The spec gives them defaults (§9: speed 1, camera light 3, global
 * light 2.9) but no range; these keep a saved value to something the viewer can draw.
 */
export const SKIN_VIEWER_LIMITS = Object.freeze({
  animationSpeed: { min: 0.1, max: 3, step: 0.1 },
  cameraLight: { min: 0, max: 5, step: 0.1 },
  globalLight: { min: 0, max: 5, step: 0.1 },
} satisfies Record<string, SliderLimits>);

/** Which slider bounds which numeric setting. */
const NUMBER_LIMITS: Partial<Record<string, SliderLimits>> = {
  'profileDropdown.backgroundOpacity': SLIDER_LIMITS.backgroundOpacity,
  'sidebar.opacity': SLIDER_LIMITS.backgroundOpacity,
  'topNavigation.opacity': SLIDER_LIMITS.backgroundOpacity,
  'notifications.opacity': SLIDER_LIMITS.backgroundOpacity,
  'skinViewer.zoom': SLIDER_LIMITS.zoom,
  'skinViewer.animationSpeed': SKIN_VIEWER_LIMITS.animationSpeed,
  'skinViewer.cameraLight': SKIN_VIEWER_LIMITS.cameraLight,
  'skinViewer.globalLight': SKIN_VIEWER_LIMITS.globalLight,
  'performance.transitionSpeed': SLIDER_LIMITS.transitionSpeed,
  'performance.frameRateLimit': SLIDER_LIMITS.frameRateLimit,
};

function decimalsOf(step: number): number {
  return (String(step).split('.')[1] ?? '').length;
}

/**
 * The values a slider can take: from min in steps, and max itself even when it is off the steps
 * (spec §5: frame rate 30 to 144 step 15 — 30, 45 … 135, 144).
 */
export function sliderStops(limits: SliderLimits): number[] {
  const decimals = decimalsOf(limits.step);
  const stops: number[] = [];
  // counting steps (not adding them up) keeps 0.1 + 0.05 × n free of float drift
  for (let n = 0; ; n++) {
    const value = Number((limits.min + n * limits.step).toFixed(decimals));
    if (value > limits.max) break;
    stops.push(value);
  }
  if (stops[stops.length - 1] !== limits.max) stops.push(limits.max);
  return stops;
}

/**
 * A value a slider allows (spec §5): below min → min, above max → max, between steps → the nearest
 * stop (max counts as a stop). Null for a value that is not a finite number.
 */
export function snapToSlider(value: number, limits: SliderLimits): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  if (value <= limits.min) return limits.min;
  if (value >= limits.max) return limits.max;
  const decimals = decimalsOf(limits.step);
  const onStep = Math.min(limits.max, Number((limits.min + Math.round((value - limits.min) / limits.step) * limits.step).toFixed(decimals)));
  return Math.abs(limits.max - value) < Math.abs(onStep - value) ? limits.max : onStep;
}

const ENUM_VALUES: Partial<Record<string, readonly string[]>> = {
  'profileDropdown.animationStyle': ANIMATION_STYLES,
  'profileDropdown.borderRadius': BORDER_RADII,
  'sidebar.animation': ANIMATION_STYLES,
  'notifications.animation': ANIMATION_STYLES,
};

/** spec §9: the transition lasts the inverse of the speed, in seconds. */
export function transitionDurationSeconds(speed: number): number {
  return speed > 0 ? 1 / speed : 0;
}

/** The browser's reduced-motion preference (the system setting). */
export const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

function systemPrefersReducedMotion(): boolean {
  return typeof matchMedia === 'function' && matchMedia(REDUCED_MOTION_QUERY).matches;
}

/**
 * Whether the interface moves: not when the user reduced motion or switched animations off, and not
 * when the browser asks for reduced motion (a system setting the panel never overrides: someone who
 * gets sick from motion set it once for every site). Switching the panel's own setting off gives the
 * motion back at once, unless the browser asks for less.
 */
export function motionReduced(performance: Pick<PerformanceSettings, 'reduceMotion' | 'disableAnimations'>, systemReduced: boolean): boolean {
  return performance.reduceMotion || performance.disableAnimations || systemReduced;
}

/** spec §3: re-applied about 10 ms after a write in this tab. */
export const UI_SETTINGS_REAPPLY_DELAY_MS = 10;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Keeps a saved value only when it has the default's type and an allowed value; numbers are clamped. */
function acceptValue(path: string, fallback: unknown, value: unknown): unknown {
  if (typeof value !== typeof fallback) return fallback;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return fallback;
    const limits = NUMBER_LIMITS[path];
    return limits ? (snapToSlider(value, limits) ?? fallback) : value;
  }
  const allowed = ENUM_VALUES[path];
  if (allowed && !allowed.includes(value as string)) return fallback;
  return value;
}

function mergeGroup<G extends object>(group: string, defaults: G, saved: unknown): G {
  const out = { ...defaults };
  if (!isRecord(saved)) return out;
  const target = out as Record<string, unknown>;
  for (const key of Object.keys(defaults)) {
    if (key in saved) target[key] = acceptValue(`${group}.${key}`, target[key], saved[key]);
  }
  return out;
}

/** Reads saved groups over the defaults; unknown keys and invalid values are dropped. */
export function mergeUiSettings(saved: unknown): UiSettings {
  const s = isRecord(saved) ? saved : {};
  const d = UI_SETTINGS_DEFAULTS;
  return {
    skinViewer: mergeGroup('skinViewer', d.skinViewer, s.skinViewer),
    profileDropdown: mergeGroup('profileDropdown', d.profileDropdown, s.profileDropdown),
    sidebar: mergeGroup('sidebar', d.sidebar, s.sidebar),
    topNavigation: mergeGroup('topNavigation', d.topNavigation, s.topNavigation),
    notifications: mergeGroup('notifications', d.notifications, s.notifications),
    performance: mergeGroup('performance', d.performance, s.performance),
  };
}

/** spec §8: invalid saved settings → the warning 'Failed to parse saved UI settings', defaults kept. */
export function loadUiSettings(): UiSettings {
  const raw = readStored(STORAGE_KEYS.uiSettings);
  if (raw === null) return mergeUiSettings({});
  try {
    return mergeUiSettings(JSON.parse(raw));
  } catch {
    console.warn('Failed to parse saved UI settings');
    return mergeUiSettings({});
  }
}

export function isPageTransition(value: unknown): value is PageTransition {
  return typeof value === 'string' && (PAGE_TRANSITIONS as readonly string[]).includes(value);
}

export function loadPageTransition(): PageTransition {
  const raw = readStored(STORAGE_KEYS.pageTransition);
  return isPageTransition(raw) ? raw : DEFAULT_PAGE_TRANSITION;
}

export interface UiState {
  settings: UiSettings;
  pageTransition: PageTransition;
  /** spec §4: the customisation panel (gear) is open or closed */
  settingsPanelOpen: boolean;
  /** spec §4: the debug panel (Ctrl+I) is open or closed */
  debugPanelOpen: boolean;
  /** spec §4: a route change sets this until the page transition ends */
  transitioning: boolean;
  /** counts re-applications of the settings to the document (the shell can react to it) */
  appliedCount: number;
  /** the browser asks for reduced motion (prefers-reduced-motion; followed live) */
  systemReducedMotion: boolean;
  /** Changes settings of one group; saves them and re-applies them after 10 ms. */
  updateSettings<G extends UiSettingsGroup>(group: G, patch: Partial<UiSettings[G]>): void;
  /** Puts one group (or, without a group, everything) back to the spec §9 defaults. */
  resetSettings(group?: UiSettingsGroup): void;
  setPageTransition(transition: PageTransition): void;
  setSettingsPanelOpen(open: boolean): void;
  setDebugPanelOpen(open: boolean): void;
  setTransitioning(transitioning: boolean): void;
  /** Reads both keys from local storage again and re-applies them (another tab wrote them). */
  reloadFromStorage(): void;
}

let reapplyTimer: ReturnType<typeof setTimeout> | null = null;

function scheduleReapply(): void {
  if (reapplyTimer !== null) clearTimeout(reapplyTimer);
  reapplyTimer = setTimeout(() => {
    reapplyTimer = null;
    applyUiSettings();
  }, UI_SETTINGS_REAPPLY_DELAY_MS);
}

function persist(state: Pick<UiState, 'settings'>): void {
  writeStored(STORAGE_KEYS.uiSettings, JSON.stringify(state.settings));
}

export const uiStore = create<UiState>()(
  immer((set, get) => ({
    settings: loadUiSettings(),
    pageTransition: loadPageTransition(),
    settingsPanelOpen: false,
    debugPanelOpen: false,
    transitioning: false,
    appliedCount: 0,
    systemReducedMotion: systemPrefersReducedMotion(),
    updateSettings(group, patch) {
      set((s) => {
        const merged = mergeGroup(group, s.settings[group], patch);
        (s.settings as Record<UiSettingsGroup, object>)[group] = merged;
      });
      persist(get());
      scheduleReapply();
    },
    resetSettings(group) {
      set((s) => {
        if (group) (s.settings as Record<UiSettingsGroup, object>)[group] = { ...UI_SETTINGS_DEFAULTS[group] };
        else s.settings = mergeUiSettings({});
      });
      persist(get());
      scheduleReapply();
    },
    setPageTransition(transition) {
      if (!isPageTransition(transition)) return;
      set((s) => {
        s.pageTransition = transition;
      });
      writeStored(STORAGE_KEYS.pageTransition, transition);
      scheduleReapply();
    },
    setSettingsPanelOpen(open) {
      set((s) => {
        s.settingsPanelOpen = open;
      });
    },
    setDebugPanelOpen(open) {
      set((s) => {
        s.debugPanelOpen = open;
      });
    },
    setTransitioning(transitioning) {
      set((s) => {
        s.transitioning = transitioning;
      });
    },
    reloadFromStorage() {
      set((s) => {
        s.settings = loadUiSettings();
        s.pageTransition = loadPageTransition();
      });
      applyUiSettings();
    },
  })),
);

/**
 * Applies the interface settings to the document: CSS variables and data attributes on <html> that
 * the shell's styles read (transition duration, reduced motion, opacities), then counts the
 * application in `appliedCount`.
 */
export function applyUiSettings(): void {
  const { settings, pageTransition, systemReducedMotion } = uiStore.getState();
  if (typeof document !== 'undefined') {
    const root = document.documentElement;
    const p = settings.performance;
    const noMotion = motionReduced(p, systemReducedMotion);
    root.style.setProperty('--op-transition-duration', `${noMotion ? 0 : transitionDurationSeconds(p.transitionSpeed)}s`);
    root.style.setProperty('--op-sidebar-opacity', String(settings.sidebar.opacity));
    root.style.setProperty('--op-topnav-opacity', String(settings.topNavigation.opacity));
    root.style.setProperty('--op-notifications-opacity', String(settings.notifications.opacity));
    root.style.setProperty('--op-dropdown-opacity', String(settings.profileDropdown.backgroundOpacity));
    root.dataset.reduceMotion = String(noMotion);
    root.dataset.backgroundEffects = String(p.backgroundEffects);
    root.dataset.pageTransition = pageTransition;
  }
  uiStore.setState((s) => {
    s.appliedCount += 1;
  });
}

let stopSync: (() => void) | null = null;

/**
 * Starts keeping the settings in step with other tabs (spec §3: a write in another tab is re-applied)
 * and applies them once now. The kernel calls it at start-up; calling it again does nothing.
 * @returns a function that stops the sync
 */
export function startUiSettingsSync(): () => void {
  if (stopSync) return stopSync;
  const onStorage = (event: StorageEvent) => {
    // key null: the other tab cleared all of local storage
    if (event.key === null || event.key === STORAGE_KEYS.uiSettings || event.key === STORAGE_KEYS.pageTransition) {
      uiStore.getState().reloadFromStorage();
    }
  };
  if (typeof window !== 'undefined') window.addEventListener('storage', onStorage);
  // the system setting can change while the page is open (it is a switch in the OS): follow it live
  const query = typeof matchMedia === 'function' ? matchMedia(REDUCED_MOTION_QUERY) : null;
  const onMotionPreference = () => {
    uiStore.setState((s) => {
      s.systemReducedMotion = query?.matches ?? false;
    });
    applyUiSettings();
  };
  query?.addEventListener?.('change', onMotionPreference);
  uiStore.setState((s) => {
    s.systemReducedMotion = query?.matches ?? false;
  });
  applyUiSettings();
  stopSync = () => {
    if (typeof window !== 'undefined') window.removeEventListener('storage', onStorage);
    query?.removeEventListener?.('change', onMotionPreference);
    stopSync = null;
  };
  return stopSync;
}

/** The interface settings of one group, re-rendering when they change. */
export function useUiSettings<G extends UiSettingsGroup>(group: G): UiSettings[G] {
  return uiStore((s) => s.settings[group]);
}

/** Whether the interface should hold still now ({@link motionReduced}), re-rendering when it changes. */
export function useMotionReduced(): boolean {
  return uiStore((s) => motionReduced(s.settings.performance, s.systemReducedMotion));
}
