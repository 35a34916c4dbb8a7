// @vitest-environment jsdom
// The notifications group of the interface settings (spec §9: glass true, opacity 0.95, glow true,
// animation fade, showBackground true) applied to the dialog API's toasts: each control changes what
// the next toast looks like, and reduced motion holds it still.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fillJsdomGaps } from '../testing/jsdom-gaps';
import { dialogs, TOAST_CLASS, toastLookOptions } from './dialogs';
import { NOTIFICATION_KEYFRAMES, notificationAnimation, notificationSurface, withAlpha } from './notification-look';
import { ANIMATION_STYLES, UI_SETTINGS_DEFAULTS, uiStore } from './stores/ui';
import { theme } from './ui/theme';

beforeAll(fillJsdomGaps);
afterEach(() => uiStore.getState().resetSettings());

const defaults = UI_SETTINGS_DEFAULTS.notifications;

describe('the notification surface', () => {
  it('by default (spec §9): the fill at 0.95, glass blur, an accent glow', () => {
    const s = notificationSurface(defaults, theme.colors.surface);
    expect(s.background).toBe(withAlpha(theme.colors.surface, 0.95));
    expect(s.background).toBe('rgba(18,24,38,0.95)');
    expect(s.backdropFilter).toContain('blur(');
    expect(s.boxShadow).toContain('14px');
  });

  it('each control changes it: opacity, glass, glow, background', () => {
    expect(notificationSurface({ ...defaults, opacity: 0.4 }, theme.colors.surface).background).toBe('rgba(18,24,38,0.4)');
    expect(notificationSurface({ ...defaults, glass: false }, theme.colors.surface).backdropFilter).toBe('none');
    expect(notificationSurface({ ...defaults, glow: false }, theme.colors.surface).boxShadow).toBe('none');
    const bare = notificationSurface({ ...defaults, showBackground: false }, theme.colors.surface);
    expect(bare.background).toBe('transparent');
    // nothing behind it to blur, but still an outline to read it by
    expect(bare.backdropFilter).toBe('none');
    expect(bare.border).toContain(theme.colors.primary);
  });

  it('one animation per style of spec §9, none when motion is held still, played back when going', () => {
    expect(Object.keys(NOTIFICATION_KEYFRAMES)).toEqual([...ANIMATION_STYLES]);
    expect(notificationAnimation(defaults, false)).toBe('op-notification-fade 280ms ease-out both');
    expect(notificationAnimation({ ...defaults, animation: 'bounce' }, false, 'out')).toBe('op-notification-bounce 280ms ease-out both reverse');
    expect(notificationAnimation(defaults, true)).toBe('none');
  });
});

describe('toasts', () => {
  it('take the animation classes of the chosen style, or none when still', () => {
    for (const style of ANIMATION_STYLES) {
      const o = toastLookOptions({ ...defaults, animation: style }, false);
      expect(o.showClass).toEqual({ popup: `${TOAST_CLASS}-in-${style}` });
      expect(o.hideClass).toEqual({ popup: `${TOAST_CLASS}-out-${style}` });
    }
    const still = toastLookOptions(defaults, true);
    expect(still.showClass).toEqual({ popup: '' });
    expect(still.hideClass).toEqual({ popup: '' });
  });

  it('a toast opens with the settings of the moment it opens', async () => {
    uiStore.getState().updateSettings('notifications', { showBackground: true, opacity: 0.5, glow: false, animation: 'slide' });
    void dialogs.toast('Saved');
    const popup = await waitForToast();
    expect(popup.classList.contains(TOAST_CLASS)).toBe(true);
    // sweetalert2 adds the show class once the popup is in place
    await until(() => popup.classList.contains(`${TOAST_CLASS}-in-slide`));
    expect(popup.style.background).toBe('rgba(18, 24, 38, 0.5)');
    expect(popup.style.boxShadow).toBe('none');
    expect(popup.dataset.animation).toBe('slide');
    // the rules the classes name are in the dialogs' stylesheet
    const css = document.querySelector('style[data-orepanel-dialogs]')?.textContent ?? '';
    expect(css).toContain('@keyframes op-notification-slide');
    expect(css).toContain(`.${TOAST_CLASS}-in-slide{animation:op-notification-slide 280ms`);
  });
});

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(check()).toBe(true);
}

async function waitForToast(): Promise<HTMLElement> {
  for (let i = 0; i < 200; i++) {
    const popup = document.querySelector<HTMLElement>('.swal2-toast');
    if (popup) return popup;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('no toast opened');
}
