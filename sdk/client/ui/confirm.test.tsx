// @vitest-environment jsdom
// confirmAction: nothing runs without a yes; a failure is returned (not thrown) and shown with the
// server's message.
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../http';
import { confirmAction } from './confirm';
import { fillJsdomGaps } from '../../testing/jsdom-gaps';

beforeAll(fillJsdomGaps);

async function waitForElement(selector: string): Promise<HTMLElement> {
  for (let i = 0; i < 300; i++) {
    const found = document.querySelector<HTMLElement>(selector);
    if (found && !found.closest('.swal2-hide')) return found;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`no ${selector}`);
}

describe('confirmAction', () => {
  it('does not run the action when the user cancels', async () => {
    let ran = false;
    const pending = confirmAction({ title: 'Disable it?', danger: true, action: async () => (ran = true) });
    (await waitForElement('.swal2-cancel')).click();
    expect(await pending).toEqual({ status: 'cancelled' });
    expect(ran).toBe(false);
  });

  it('runs the action after a yes and returns its value', async () => {
    const pending = confirmAction({ title: 'Enable it?', action: async () => 42 });
    (await waitForElement('.swal2-confirm')).click();
    expect(await pending).toEqual({ status: 'done', value: 42 });
  });

  it('returns a failure and shows the server’s message', async () => {
    const failure = new ApiError(409, 'PLUGIN_CORE', 'A core plugin cannot be disabled.');
    const pending = confirmAction({
      title: 'Disable it?',
      action: async () => {
        throw failure;
      },
    });
    (await waitForElement('.swal2-confirm')).click();
    expect(await pending).toEqual({ status: 'failed', error: failure });
    const text = await waitForElement('.swal2-html-container');
    expect(text.textContent).toBe('A core plugin cannot be disabled.');
    (await waitForElement('.swal2-confirm')).click();
  });
});
