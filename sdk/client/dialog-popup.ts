// The part of the dialogs that needs sweetalert2: fetched on the first dialog (./dialogs.ts imports it
// dynamically), so neither sweetalert2 nor the dialog skin is in the first-load bundle.
import Swal, { type SweetAlertOptions, type SweetAlertResult } from 'sweetalert2';
import { DIALOG_DEFAULTS, TOAST_CLASS } from './dialogs';
import { notificationAnimation, notificationKeyframesCss } from './notification-look';
import { ANIMATION_STYLES, UI_SETTINGS_DEFAULTS } from './stores/ui';
import { theme } from './ui/theme';

/** Class of the dialog container that carries the panel's dark skin. */
export const DIALOG_CLASS = 'op-dialog';

/**
 * The panel's dark palette as sweetalert2's CSS variables, scoped to our dialogs. The spec's default
 * theme ('light') stays sweetalert2's theme option; these variables restyle it to match the panel.
 */
function injectSkin(): void {
  if (typeof document === 'undefined' || document.querySelector('style[data-orepanel-dialogs]')) return;
  const c = theme.colors;
  const style = document.createElement('style');
  style.dataset.orepanelDialogs = '';
  style.textContent =
    `.${DIALOG_CLASS}{--swal2-background:${c.surface};--swal2-color:${c.text};--swal2-border:1px solid ${c.border};` +
    `--swal2-border-radius:${theme.radii.lg};--swal2-backdrop:rgba(3,6,12,.72);--swal2-input-background:${c.background};` +
    `--swal2-input-border:1px solid ${c.border};--swal2-input-focus-border:1px solid ${c.primary};` +
    `--swal2-validation-message-background:${c.surfaceRaised};--swal2-validation-message-color:${c.text};` +
    `--swal2-footer-border-color:${c.border};--swal2-footer-color:${c.muted};--swal2-close-button-color:${c.muted};` +
    `--swal2-confirm-button-background-color:${c.primary};--swal2-confirm-button-color:${c.primaryText};` +
    `--swal2-deny-button-background-color:${c.dangerStrong};--swal2-cancel-button-background-color:${c.surfaceRaised};` +
    `--swal2-cancel-button-color:${c.text};--swal2-timer-progress-bar-background:${c.primary};font-family:${theme.font.family}}` +
    `.${DIALOG_CLASS} .swal2-popup{box-shadow:${theme.shadows.lg}}` +
    `.${DIALOG_CLASS} .swal2-danger{--swal2-confirm-button-background-color:${c.dangerStrong};--swal2-confirm-button-color:#fff}` +
    toastAnimationCss();
  document.head.appendChild(style);
}

/** The in and out animation classes of toasts, one pair per component animation style (spec §9). */
function toastAnimationCss(): string {
  const rules = ANIMATION_STYLES.map((animation) => {
    const look = { ...UI_SETTINGS_DEFAULTS.notifications, animation };
    return (
      `.${DIALOG_CLASS} .${TOAST_CLASS}-in-${animation}{animation:${notificationAnimation(look, false, 'in')}}` +
      `.${DIALOG_CLASS} .${TOAST_CLASS}-out-${animation}{animation:${notificationAnimation(look, false, 'out')}}`
    );
  });
  return notificationKeyframesCss() + rules.join('');
}

export interface PopupDefaults {
  confirmButtonText: string;
  denyButtonText: string;
  cancelButtonText: string;
  /** called once the popup is on screen */
  onOpen(): void;
}

/** Opens one sweetalert2 popup with the panel's defaults and skin. */
export function openPopup(options: SweetAlertOptions, defaults: PopupDefaults): Promise<SweetAlertResult<unknown>> {
  injectSkin();
  const customClass = typeof options.customClass === 'object' ? options.customClass : {};
  return Swal.fire<unknown>({
    theme: DIALOG_DEFAULTS.theme, // spec §9
    confirmButtonText: defaults.confirmButtonText,
    denyButtonText: defaults.denyButtonText,
    cancelButtonText: defaults.cancelButtonText,
    ...options,
    customClass: { ...customClass, container: [DIALOG_CLASS, customClass.container].filter(Boolean).join(' ') },
    didOpen: (popup) => {
      defaults.onOpen();
      options.didOpen?.(popup);
    },
  });
}

/** Closes the dialog on screen at once, if there is one (its promise resolves as dismissed). */
export function closePopup(): void {
  // by its element, not Swal.isVisible(): that reads the layout, which a test's DOM does not have
  if (Swal.getPopup()) Swal.close();
}
