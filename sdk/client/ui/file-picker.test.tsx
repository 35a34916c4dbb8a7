// @vitest-environment jsdom
// The attach field through a tiny test plugin: the limits in words, a drop checked like a choice,
// the progress bar while a form uploads (the chosen files' remove buttons off meanwhile), no field
// at all while the limits allow no file; and file sizes in the reader's language.
import { act, useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, renderPlugin } from '../../testing';
import { definePlugin } from '../plugin';
import { formatFileSize, formWithFiles } from './file-picker';

afterEach(() => cleanup());

const manifest = { id: 'picker-demo', name: 'Picker demo', version: '1.0.0', sdk: '^2.0.0', routes: [{ path: '/attach', component: 'AttachPage' }] };

function pluginWith(maxFiles: number) {
  return definePlugin({
    id: 'picker-demo',
    setup(ctx) {
      ctx.routes.provide('AttachPage', async () => {
        const { FilePicker, useFileSelection } = await import('./file-picker');
        return {
          default: function AttachPage() {
            const selection = useFileSelection({ maxFiles, maxBytes: 2048, extensions: ['png', 'log'] });
            const [progress, setProgress] = useState<number | null>(null);
            return (
              <div>
                <FilePicker selection={selection} progress={progress} />
                <button type="button" onClick={() => setProgress(0.42)}>
                  start
                </button>
              </div>
            );
          },
        };
      });
    },
  });
}

describe('FilePicker', () => {
  it('states the limits, checks dropped files like chosen ones, and shows the progress while uploading', async () => {
    const app = await renderPlugin(pluginWith(3), { manifest, route: '/attach' });
    await app.findByText(/Up to 3 files of 2 kB each \(png, log\)\. Drop files here or paste a screenshot\./);
    const zone = app.getByRole('group', 'Attachments');
    const drop = new Event('drop', { bubbles: true, cancelable: true });
    Object.defineProperty(drop, 'dataTransfer', { value: { files: [new File(['x'], 'crash.log'), new File(['<?php'], 'shell.php')] } });
    await act(async () => {
      zone.dispatchEvent(drop);
    });
    await app.findByText('crash.log');
    expect(app.getByText('shell.php is not an accepted kind of file (png, log).')).toBeTruthy();
    expect(app.queryByRole('progressbar')).toBeNull();

    await app.click(app.getByRole('button', 'start'));
    const bar = await app.findByRole('progressbar');
    expect(bar.getAttribute('aria-valuenow')).toBe('42');
    expect(app.getByText('Uploading… 42%')).toBeTruthy();
    expect(app.getByRole('button', 'Remove crash.log').hasAttribute('disabled')).toBe(true);
  });

  it('shows nothing while the limits allow no file', async () => {
    const app = await renderPlugin(pluginWith(0), { manifest, route: '/attach' });
    await app.findByRole('button', 'start');
    expect(app.queryByRole('group', 'Attachments')).toBeNull();
  });
});

describe('formatFileSize and formWithFiles', () => {
  it('writes sizes in the reader’s language and builds the form an upload route takes', () => {
    expect(formatFileSize(512, 'en')).toBe('512 bytes');
    expect(formatFileSize(1536, 'en')).toBe('1.5 kB');
    expect(formatFileSize(5 * 1024 * 1024, 'de')).toBe('5 MB');
    expect(formatFileSize(3.25 * 1024 ** 3, 'en')).toBe('3.3 GB');
    const form = formWithFiles({ message: 'hi', department_id: 3, skipped: undefined }, [new File(['a'], 'a.log')]);
    expect([...form.keys()]).toEqual(['message', 'department_id', 'files']);
    expect(form.get('department_id')).toBe('3');
  });
});
