// @vitest-environment jsdom
// The customisation panel (spec §2, §3, §5, §9): the skin viewer group with its sliders held to spec
// §5's zoom range, and a control (or a stated reason for none) for every performance setting.
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addPluginCatalogue, i18n } from '../../../sdk/client/i18n';
import { UI_SETTINGS_DEFAULTS, uiStore, type PerformanceSettings } from '../../../sdk/client/stores/ui';
import en from '../../../locales/en.json';
import CustomizationPanel from './CustomizationPanel';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | null = null;
let container: HTMLElement | null = null;

beforeAll(async () => {
  addPluginCatalogue('kernel', 'en', en);
  await i18n.changeLanguage('en');
});
beforeEach(() => uiStore.getState().resetSettings());
afterEach(() => {
  if (root) act(() => root!.unmount());
  container?.remove();
  root = null;
  container = null;
});

function render() {
  container = document.createElement('div');
  document.body.appendChild(container);
  root = createRoot(container);
  act(() => root!.render(createElement(CustomizationPanel, { onClose: () => {} })));
  return container;
}

function openTab(view: HTMLElement, tab: string) {
  act(() => view.querySelector<HTMLButtonElement>(`[role="tab"][data-tab="${tab}"]`)!.click());
}

/** the group (section) with this heading */
function group(view: HTMLElement, title: string): HTMLElement {
  const heading = [...view.querySelectorAll('h3')].find((h) => h.textContent === title);
  if (!heading) throw new Error(`no group "${title}"`);
  return heading.closest('section')!;
}

function control(scope: HTMLElement, label: string): HTMLInputElement {
  const found = [...scope.querySelectorAll('label')].find((l) => l.textContent?.startsWith(label));
  if (!found) throw new Error(`no control "${label}"`);
  return scope.ownerDocument.getElementById(found.htmlFor) as HTMLInputElement;
}

/** moves a range input the way a user does (React listens to the native input event) */
function slide(input: HTMLInputElement, position: number) {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  act(() => {
    setter.call(input, String(position));
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

describe('the skin viewer group', () => {
  it('shows the spec §9 defaults and writes the store, the zoom held to 0.5–1.5 step 0.1', () => {
    const view = render();
    openTab(view, 'components');
    const skin = group(view, en.customize.skinViewer);
    expect(control(skin, en.customize.walkingAnimation).checked).toBe(true);
    expect(control(skin, en.customize.autoRotate).checked).toBe(false);
    const zoom = control(skin, en.customize.zoom);
    // the input moves over the stops 0.5, 0.6 … 1.5: 0.8 is the fourth
    expect([zoom.min, zoom.max, zoom.step, zoom.value]).toEqual(['0', '10', '1', '3']);
    expect(zoom.getAttribute('aria-valuetext')).toBe('0.8×');
    slide(zoom, 10);
    expect(uiStore.getState().settings.skinViewer.zoom).toBe(1.5);
    slide(zoom, 0);
    expect(uiStore.getState().settings.skinViewer.zoom).toBe(0.5);
    act(() => control(skin, en.customize.autoRotate).click());
    expect(uiStore.getState().settings.skinViewer.autoRotate).toBe(true);
    expect(control(skin, en.customize.cameraLight).getAttribute('aria-valuetext')).toBe('3');
    expect(control(skin, en.customize.globalLight).getAttribute('aria-valuetext')).toBe('2.9');
    expect(control(skin, en.customize.animationSpeed).getAttribute('aria-valuetext')).toBe('1×');
  });
});

describe('the performance tab', () => {
  it('has a control or a stated reason for every performance setting of spec §9', () => {
    const view = render();
    openTab(view, 'performance');
    const text = view.textContent ?? '';
    const labels: Record<keyof PerformanceSettings, string> = {
      reduceMotion: en.customize.reduceMotion,
      disableAnimations: en.customize.disableAnimations,
      optimizeImages: en.customize.optimizeImages,
      lazyLoading: en.customize.lazyLoading,
      preloadCritical: en.customize.preloadCritical,
      backgroundEffects: en.customize.backgroundEffects,
      transitionSpeed: en.customize.transitionSpeed,
      frameRateLimit: en.customize.frameRateLimit,
      memoryOptimization: en.customize.memoryOptimization,
      networkOptimization: en.customize.networkOptimization,
      enableCaching: en.customize.enableCaching,
      compressAssets: en.customize.compressAssets,
    };
    expect(Object.keys(labels).sort()).toEqual(Object.keys(UI_SETTINGS_DEFAULTS.performance).sort());
    for (const [key, label] of Object.entries(labels)) {
      // the transition speed lives on the Transitions tab, beside the transition it times
      if (key === 'transitionSpeed') continue;
      expect(text, key).toContain(label);
    }
    // compressAssets cannot be switched by a page: the panel says so instead of showing a dead switch
    expect(text).toContain(en.customize.alwaysOn);
    expect(text).toContain(en.customize.compressAssetsHint);
    for (const key of ['lazyLoading', 'optimizeImages', 'preloadCritical', 'networkOptimization', 'memoryOptimization'] as const) {
      const input = control(view, labels[key]);
      const before = uiStore.getState().settings.performance[key];
      expect(input.checked, key).toBe(before);
      act(() => input.click());
      expect(uiStore.getState().settings.performance[key], key).toBe(!before);
    }
  });

  it('the frame rate slider reaches 144, its max, although 144 is off the 15 steps', () => {
    const view = render();
    openTab(view, 'performance');
    const fps = control(view, en.customize.frameRateLimit);
    expect(fps.max).toBe('8');
    slide(fps, 8);
    expect(uiStore.getState().settings.performance.frameRateLimit).toBe(144);
    slide(fps, 7);
    expect(uiStore.getState().settings.performance.frameRateLimit).toBe(135);
    slide(fps, 0);
    expect(uiStore.getState().settings.performance.frameRateLimit).toBe(30);
  });

  it('says when the browser asks for reduced motion', () => {
    act(() => uiStore.setState({ systemReducedMotion: true }));
    const view = render();
    openTab(view, 'performance');
    expect(view.querySelector('[data-testid="system-reduced-motion"]')?.textContent).toBe(en.customize.systemReducedMotion);
    act(() => uiStore.setState({ systemReducedMotion: false }));
    expect(view.querySelector('[data-testid="system-reduced-motion"]')).toBeNull();
  });
});

describe('the focus (keyboard use)', () => {
  it('goes into the panel when it opens and back to the gear when it closes from inside; a close with the focus elsewhere leaves it there', () => {
    container = document.createElement('div');
    document.body.appendChild(container);
    const gear = document.createElement('button');
    const elsewhere = document.createElement('input');
    document.body.append(gear, elsewhere);
    const ref = { current: gear };
    root = createRoot(container);
    const show = (open: boolean) => act(() => root!.render(open ? createElement(CustomizationPanel, { onClose: () => {}, ignore: ref }) : null));
    show(true);
    expect(container.querySelector('[role="dialog"]')!.contains(document.activeElement)).toBe(true);
    show(false);
    expect(document.activeElement).toBe(gear);

    show(true);
    elsewhere.focus();
    show(false);
    expect(document.activeElement).toBe(elsewhere);
    gear.remove();
    elsewhere.remove();
  });
});
