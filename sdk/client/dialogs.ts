// The one dialog API of the panel, over sweetalert2. sweetalert2 is imported on first use, so it is
// not in the first-load bundle. Dialogs queue: one shows at a time (sweetalert2 can show only one).
// Texts are whatever the caller passes (translate them first with `t`); the defaults are the sdk's
// translated texts, whose English values are the spec's (§9: OK / No / Cancel, §5: validation texts).
import type { SweetAlertIcon, SweetAlertOptions, SweetAlertResult } from 'sweetalert2';
import { sdkText } from './i18n';
import { notificationSurface } from './notification-look';
import { dialogStore, DISMISS_REASONS, type DismissReason } from './stores/dialog';
import { motionReduced, uiStore, type NotificationSettings } from './stores/ui';
import { theme } from './ui/theme';

/**
 * spec §9: dialog defaults. `theme` stays the spec's default value 'light' (sweetalert2's theme
 * option); the panel's dark look is a skin of CSS variables over it (the `op-dialog` class, see
 * ./dialog-popup.ts), so a caller may still pick another sweetalert2 theme.
 */
export const DIALOG_DEFAULTS = Object.freeze({
  confirmButtonText: 'OK',
  denyButtonText: 'No',
  cancelButtonText: 'Cancel',
  theme: 'light',
} as const);

export const DIALOG_ICONS = ['success', 'error', 'warning', 'info', 'question'] as const;
export type DialogIcon = (typeof DIALOG_ICONS)[number];

export const DIALOG_INPUTS = ['text', 'email', 'url'] as const;
export type DialogInput = (typeof DIALOG_INPUTS)[number];

export interface AlertOptions {
  title: string;
  text?: string;
  icon?: DialogIcon;
  /** small text under the buttons (spec §8: 'Please log in again.') */
  footer?: string;
  confirmText?: string;
  /** closes by itself after this many milliseconds (dismiss reason 'timer') */
  timer?: number;
}

export interface ConfirmOptions {
  title: string;
  text?: string;
  icon?: DialogIcon;
  confirmText?: string;
  cancelText?: string;
  /** shows the confirm button in the danger colour (deleting, spending) */
  danger?: boolean;
}

export interface PromptOptions {
  title: string;
  text?: string;
  /** spec §5: `email` and `url` inputs are validated ('Invalid email address', 'Invalid URL') */
  input: DialogInput;
  label?: string;
  placeholder?: string;
  value?: string;
  confirmText?: string;
  cancelText?: string;
  /** an extra check after the built-in one: return an error text to keep the dialog open */
  validate?: (value: string) => string | null;
}

/** The outcome of a dialog: confirmed, denied or dismissed (and why). */
export interface DialogOutcome<V = unknown> {
  confirmed: boolean;
  denied: boolean;
  dismiss: DismissReason | null;
  value: V | undefined;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * spec §5: the validation of dialog inputs. Returns the (translated) error text, or null when valid:
 * an email must match a basic pattern ('Invalid email address'); a URL must be an http or https
 * address ('Invalid URL').
 */
export function validateDialogInput(input: DialogInput, value: string): string | null {
  const v = value.trim();
  if (input === 'email') return EMAIL.test(v) ? null : sdkText('invalidEmail');
  if (input === 'url') {
    try {
      const url = new URL(v);
      return url.protocol === 'http:' || url.protocol === 'https:' ? null : sdkText('invalidUrl');
    } catch {
      return sdkText('invalidUrl');
    }
  }
  return null;
}

/** spec §8 dialog warnings: unknown icon. */
function checkedIcon(icon: string | undefined): SweetAlertIcon | undefined {
  if (icon === undefined) return undefined;
  if ((DIALOG_ICONS as readonly string[]).includes(icon)) return icon as SweetAlertIcon;
  console.warn(`Unknown icon! Expected "${DIALOG_ICONS.join('", "')}", got "${icon}"`);
  return undefined;
}

/** spec §8 dialog warnings: unexpected input type (falls back to a text input). */
function checkedInput(input: string): DialogInput {
  if ((DIALOG_INPUTS as readonly string[]).includes(input)) return input as DialogInput;
  console.warn(`Unexpected type of input! Expected "${DIALOG_INPUTS.join('", "')}", got "${input}"`);
  return 'text';
}

let queue: Promise<unknown> = Promise.resolve();
/** Counts dismissAllDialogs() calls: a dialog asked for before the last one never shows. */
let generation = 0;
/** set once sweetalert2 is loaded: closes the dialog on screen */
let closeShown: (() => void) | null = null;

/**
 * Ends every dialog: the one on screen closes, the ones still waiting (in the queue, or for
 * sweetalert2 to load) resolve as closed without showing. For a page that goes away with its dialogs
 * — the sdk's test kit calls it when a rendered plugin unmounts, so that no toast opens, and no
 * sweetalert2 timer runs, in a document the test has torn down.
 */
export function dismissAllDialogs(): void {
  generation++;
  closeShown?.();
}

function toDismiss(value: unknown): DismissReason | null {
  return typeof value === 'string' && (DISMISS_REASONS as readonly string[]).includes(value) ? (value as DismissReason) : null;
}

/**
 * Shows one dialog (after the ones before it closed). The low-level entry the helpers below use, with
 * sweetalert2's options; options not given take the spec §9 defaults.
 */
export function showDialog(options: SweetAlertOptions): Promise<DialogOutcome> {
  const asked = generation;
  const run = async (): Promise<DialogOutcome> => {
    const dismissed: DialogOutcome = { confirmed: false, denied: false, dismiss: 'close', value: undefined };
    if (asked !== generation) {
      // its turn came after the dialogs were dismissed: it never shows, and is no longer 'loading'
      dialogStore.getState().setClosed('close');
      return dismissed;
    }
    dialogStore.getState().setStatus('loading');
    let result: SweetAlertResult<unknown>;
    try {
      // sweetalert2 and the dialog skin are fetched on first use: not in the first-load bundle
      const { openPopup, closePopup } = await import('./dialog-popup');
      closeShown = closePopup;
      if (asked !== generation) {
        dialogStore.getState().setClosed('close');
        return dismissed;
      }
      result = await openPopup(options, {
        confirmButtonText: sdkText('dialogOk'),
        denyButtonText: sdkText('dialogNo'),
        cancelButtonText: sdkText('dialogCancel'),
        onOpen: () => dialogStore.getState().setStatus('open'),
      });
    } catch (error) {
      // Dismissed meanwhile (the page that asked is gone — in a test, its document torn down while
      // sweetalert2 was still loading): nobody waits for this dialog, so its failure is no error.
      if (asked !== generation) {
        dialogStore.getState().setClosed('close');
        return dismissed;
      }
      dialogStore.getState().setClosed(null);
      throw error;
    }
    const dismiss = toDismiss(result.dismiss);
    dialogStore.getState().setClosed(dismiss);
    return { confirmed: result.isConfirmed, denied: result.isDenied, dismiss, value: result.value };
  };
  // spec §4: the dialog is 'loading' from the moment it is asked for until it shows
  if (dialogStore.getState().status === 'closed') dialogStore.getState().setStatus('loading');
  const next = queue.then(run, run);
  queue = next.catch(() => undefined);
  return next;
}

/** Shows a message with one button. Resolves when it closes. */
export async function alert(options: AlertOptions): Promise<void> {
  await showDialog({
    title: options.title,
    text: options.text,
    icon: checkedIcon(options.icon),
    footer: options.footer,
    timer: options.timer,
    timerProgressBar: options.timer !== undefined,
    ...(options.confirmText ? { confirmButtonText: options.confirmText } : {}),
  });
}

/** Asks a yes/no question. Resolves true only when the user confirmed. */
export async function confirm(options: ConfirmOptions): Promise<boolean> {
  const outcome = await showDialog({
    title: options.title,
    text: options.text,
    icon: checkedIcon(options.icon ?? 'question'),
    showCancelButton: true,
    focusCancel: options.danger === true,
    customClass: options.danger ? { popup: 'swal2-danger' } : undefined,
    ...(options.confirmText ? { confirmButtonText: options.confirmText } : {}),
    ...(options.cancelText ? { cancelButtonText: options.cancelText } : {}),
  });
  return outcome.confirmed;
}

/** Shows an error message (spec §8 texts such as 'Session Error'). Resolves when it closes. */
export function error(title: string, text?: string, footer?: string): Promise<void> {
  return alert({ title, text, footer, icon: 'error' });
}

/** Class of a toast's popup; its animation classes are `op-toast-in-<style>` and `op-toast-out-<style>`. */
export const TOAST_CLASS = 'op-toast';

/**
 * The sweetalert2 options that give a toast the user's notification look (spec §9 notifications: glass,
 * opacity, glow, animation, showBackground), read when the toast opens — a change in the
 * customisation panel shows on the next toast. Held still when motion is reduced.
 */
export function toastLookOptions(look: NotificationSettings, still: boolean): SweetAlertOptions {
  const surface = notificationSurface(look, theme.colors.surface);
  return {
    customClass: { popup: TOAST_CLASS },
    showClass: { popup: still ? '' : `${TOAST_CLASS}-in-${look.animation}` },
    hideClass: { popup: still ? '' : `${TOAST_CLASS}-out-${look.animation}` },
    willOpen: (popup: HTMLElement) => {
      Object.assign(popup.style, surface);
      popup.dataset.animation = still ? 'none' : look.animation;
    },
  };
}

/** A small message in the corner that goes away by itself after 3 s. */
export async function toast(text: string, icon: DialogIcon = 'success'): Promise<void> {
  const ui = uiStore.getState();
  await showDialog({
    toast: true,
    position: 'top-end',
    title: text,
    icon: checkedIcon(icon),
    showConfirmButton: false,
    timer: 3000,
    timerProgressBar: true,
    ...toastLookOptions(ui.settings.notifications, motionReduced(ui.settings.performance, ui.systemReducedMotion)),
  });
}

/**
 * Asks for one value. `email` and `url` inputs are validated (spec §5). Resolves with the trimmed
 * value, or null when the user cancelled.
 */
export async function prompt(options: PromptOptions): Promise<string | null> {
  const input = checkedInput(options.input);
  const outcome = await showDialog({
    title: options.title,
    text: options.text,
    input,
    inputLabel: options.label,
    inputPlaceholder: options.placeholder,
    inputValue: options.value ?? '',
    showCancelButton: true,
    inputValidator: (value) => validateDialogInput(input, value) ?? options.validate?.(value.trim()) ?? null,
    ...(options.confirmText ? { confirmButtonText: options.confirmText } : {}),
    ...(options.cancelText ? { cancelButtonText: options.cancelText } : {}),
  });
  return outcome.confirmed && typeof outcome.value === 'string' ? outcome.value.trim() : null;
}

/** The panel's dialogs: `alert`, `confirm`, `error`, `toast`, `prompt` (sweetalert2 loads on first use). */
export const dialogs = Object.freeze({ alert, confirm, error, toast, prompt, show: showDialog });
