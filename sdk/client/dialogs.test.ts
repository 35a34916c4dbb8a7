// @vitest-environment jsdom
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { dialogs, DIALOG_DEFAULTS, dismissAllDialogs, validateDialogInput } from './dialogs';
import { changeLanguage, i18n } from './i18n';
import { dialogStore, DISMISS_REASONS } from './stores/dialog';
import { fillJsdomGaps } from '../testing/jsdom-gaps';

beforeAll(fillJsdomGaps);

afterEach(async () => {
  vi.restoreAllMocks();
  await i18n.changeLanguage('en');
});

describe('dialog input validation (spec §5)', () => {
  it('an email must match a basic pattern, otherwise "Invalid email address"', () => {
    expect(validateDialogInput('email', 'alice@example.com')).toBeNull();
    expect(validateDialogInput('email', ' alice@example.com ')).toBeNull();
    for (const bad of ['', 'alice', 'alice@', '@example.com', 'alice@example', 'al ice@example.com']) {
      expect(validateDialogInput('email', bad)).toBe('Invalid email address');
    }
  });

  it('a URL must be an http or https address, otherwise "Invalid URL"', () => {
    expect(validateDialogInput('url', 'https://example.com/a?b=c')).toBeNull();
    expect(validateDialogInput('url', 'http://localhost:3000')).toBeNull();
    for (const bad of ['', 'example.com', 'ftp://example.com', 'javascript:alert(1)', 'https//x']) {
      expect(validateDialogInput('url', bad)).toBe('Invalid URL');
    }
  });

  it('plain text is not validated', () => {
    expect(validateDialogInput('text', '')).toBeNull();
  });

  it('the validation texts are translated', async () => {
    await changeLanguage('de');
    expect(validateDialogInput('email', 'x')).toBe('Ungültige E-Mail-Adresse');
  });
});

describe('dialog defaults (spec §9)', () => {
  it('confirm OK, deny No, cancel Cancel, theme light; dismissal reasons (spec §4)', () => {
    expect(DIALOG_DEFAULTS).toEqual({ confirmButtonText: 'OK', denyButtonText: 'No', cancelButtonText: 'Cancel', theme: 'light' });
    expect(DISMISS_REASONS).toEqual(['cancel', 'backdrop', 'close', 'esc', 'timer']);
  });
});

describe('dialogs over sweetalert2 (loaded on first use)', () => {
  const button = (selector: string) => document.querySelector<HTMLButtonElement>(selector);
  const waitFor = async (check: () => boolean) => {
    for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
    expect(check()).toBe(true);
  };

  it('confirm resolves true when confirmed and false when cancelled, with the state and reason recorded', async () => {
    const answer = dialogs.confirm({ title: 'Delete?', text: 'This cannot be undone.' });
    expect(dialogStore.getState().status).toBe('loading');
    await waitFor(() => button('.swal2-confirm') !== null && dialogStore.getState().status === 'open');
    expect(document.querySelector('.swal2-container')?.classList.contains('op-dialog')).toBe(true);
    expect(button('.swal2-confirm')?.textContent).toBe('OK');
    expect(button('.swal2-cancel')?.textContent).toBe('Cancel');
    button('.swal2-confirm')!.click();
    await expect(answer).resolves.toBe(true);
    expect(dialogStore.getState()).toMatchObject({ status: 'closed', lastDismiss: null });

    const second = dialogs.confirm({ title: 'Again?' });
    await waitFor(() => button('.swal2-cancel') !== null && dialogStore.getState().status === 'open');
    button('.swal2-cancel')!.click();
    await expect(second).resolves.toBe(false);
    expect(dialogStore.getState()).toMatchObject({ status: 'closed', lastDismiss: 'cancel' });
  });

  it('dismissAllDialogs: the dialog on screen closes, and one still waiting never shows', async () => {
    const shown = dialogs.confirm({ title: 'Shown?' });
    await waitFor(() => button('.swal2-confirm') !== null && dialogStore.getState().status === 'open');
    const waiting = dialogs.toast('Saved');
    dismissAllDialogs();
    await expect(shown).resolves.toBe(false);
    await waiting;
    expect(dialogStore.getState().status).toBe('closed');
    await new Promise((r) => setTimeout(r, 200));
    expect(document.querySelector('.op-toast')).toBeNull();
    // dialogs asked for afterwards show as always
    const next = dialogs.confirm({ title: 'Next?' });
    await waitFor(() => button('.swal2-confirm') !== null && dialogStore.getState().status === 'open');
    button('.swal2-confirm')!.click();
    await expect(next).resolves.toBe(true);
  });

  it('prompt shows "Invalid email address" and stays open until the value is valid', async () => {
    const answer = dialogs.prompt({ title: 'Your email', input: 'email' });
    await waitFor(() => document.querySelector('.swal2-input') !== null && dialogStore.getState().status === 'open');
    const input = document.querySelector<HTMLInputElement>('.swal2-input')!;
    input.value = 'nope';
    button('.swal2-confirm')!.click();
    await waitFor(() => document.querySelector('.swal2-validation-message')?.textContent === 'Invalid email address');
    input.value = 'alice@example.com';
    button('.swal2-confirm')!.click();
    await expect(answer).resolves.toBe('alice@example.com');
  });

  it('warns about an unknown icon and an unexpected input type (spec §8 dialog warnings)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const shown = dialogs.alert({ title: 'Hi', icon: 'sparkles' as 'info' });
    await waitFor(() => button('.swal2-confirm') !== null && dialogStore.getState().status === 'open');
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('Unknown icon'));
    button('.swal2-confirm')!.click();
    await shown;
    const asked = dialogs.prompt({ title: 'Hi', input: 'color' as 'text' });
    await waitFor(() => document.querySelector('.swal2-input') !== null && dialogStore.getState().status === 'open');
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('Unexpected type of input'));
    button('.swal2-cancel')!.click();
    await expect(asked).resolves.toBeNull();
  });
});
