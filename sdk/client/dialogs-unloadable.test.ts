// @vitest-environment jsdom
// A dialog's code (sweetalert2) is fetched on first use. When that fetch fails after the page that
// asked for the dialog went away (dismissAllDialogs: the sdk's test kit calls it at unmount, and a
// test's document is then torn down under the pending import), nobody waits for the dialog: it
// resolves as closed instead of raising an unhandled rejection. While the page is there, the failure
// still reaches the caller.
import { afterEach, describe, expect, it, vi } from 'vitest';

/** The dialogs module with a dialog-popup whose import fails once `fail` is called. */
async function dialogsWithFailingPopup() {
  vi.resetModules();
  let fail = () => {};
  const failed = new Promise<void>((resolve) => {
    fail = resolve;
  });
  const loading = { started: false };
  vi.doMock('./dialog-popup', async () => {
    loading.started = true;
    await failed;
    throw new Error('Cannot load sweetalert2 after the environment was torn down');
  });
  const module = await import('./dialogs');
  const { dialogStore } = await import('./stores/dialog');
  return { ...module, dialogStore, fail, loading };
}

afterEach(() => {
  vi.doUnmock('./dialog-popup');
  vi.resetModules();
});

describe('a dialog whose code cannot load', () => {
  it('resolves as closed when the dialogs were dismissed meanwhile', async () => {
    const { dialogs, dismissAllDialogs, dialogStore, fail, loading } = await dialogsWithFailingPopup();
    const toast = dialogs.toast('Saved');
    await vi.waitFor(() => expect(loading.started).toBe(true));
    dismissAllDialogs();
    fail();
    await expect(toast).resolves.toBeUndefined();
    expect(dialogStore.getState().status).toBe('closed');
  });

  it('one dismissed before its turn came resolves as closed too, never left "loading"', async () => {
    const { dialogs, dismissAllDialogs, dialogStore } = await dialogsWithFailingPopup();
    const toast = dialogs.toast('Saved');
    expect(dialogStore.getState().status).toBe('loading');
    dismissAllDialogs();
    await expect(toast).resolves.toBeUndefined();
    expect(dialogStore.getState().status).toBe('closed');
  });

  it('still fails for the caller while its page is there', async () => {
    const { dialogs, dialogStore, fail } = await dialogsWithFailingPopup();
    const toast = dialogs.toast('Saved');
    fail();
    await expect(toast).rejects.toThrow();
    expect(dialogStore.getState().status).toBe('closed');
  });
});
