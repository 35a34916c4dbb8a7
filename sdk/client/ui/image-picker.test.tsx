// @vitest-environment jsdom
// The image library picker through a tiny test plugin and a source of its own: closed until asked,
// the pictures as thumbnail buttons with the current one marked, the search sent to the source,
// "nothing matches" and "empty library" told apart, a failing source said plainly, and a pick that
// hands the address over and closes the grid.
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, renderPlugin } from '../../testing';
import { definePlugin } from '../plugin';
import type { ImageLibrarySource, PickableImage } from './image-picker';

afterEach(() => cleanup());

const manifest = { id: 'library-demo', name: 'Library demo', version: '1.0.0', sdk: '^2.0.0', routes: [{ path: '/pick', component: 'PickPage' }] };
const PICTURES: PickableImage[] = [
  { id: 1, name: 'Spawn', url: '/api/library-images/AAAAAAAAAAAAAAAAAAAAAA.png' },
  { id: 2, name: 'Nether', url: '/api/library-images/BBBBBBBBBBBBBBBBBBBBBB.webp' },
];

function pluginWith(source: ImageLibrarySource) {
  return definePlugin({
    id: 'library-demo',
    setup(ctx) {
      ctx.routes.provide('PickPage', async () => {
        const { ImageLibraryPicker } = await import('./image-picker');
        return {
          default: function PickPage() {
            const [value, setValue] = useState(PICTURES[1]?.url ?? '');
            return (
              <div>
                <output>{value}</output>
                <ImageLibraryPicker source={source} value={value} onPick={setValue} />
              </div>
            );
          },
        };
      });
    },
  });
}

describe('ImageLibraryPicker', () => {
  it('opens on request, marks the current picture, searches through the source and hands a pick over', async () => {
    const asked: string[] = [];
    const source: ImageLibrarySource = {
      async list(search) {
        asked.push(search);
        return PICTURES.filter((p) => p.name.toLowerCase().includes(search.toLowerCase()));
      },
    };
    const app = await renderPlugin(pluginWith(source), { manifest, route: '/pick' });
    const toggle = await app.findByRole('button', 'Choose from the library');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(asked).toEqual([]);
    await app.click(toggle);
    const nether = await app.findByRole('button', 'Use Nether');
    expect(nether.getAttribute('aria-pressed')).toBe('true');
    expect(app.getByRole('button', 'Use Spawn').getAttribute('aria-pressed')).toBe('false');
    expect(nether.querySelector('img')?.getAttribute('src')).toBe(PICTURES[1]?.url);

    await app.type(app.getByLabelText('Search pictures'), 'zzz');
    await app.findByText('Nothing matches your search.');
    expect(asked.at(-1)).toBe('zzz');
    await app.type(app.getByLabelText('Search pictures'), 'spa');
    await app.click(await app.findByRole('button', 'Use Spawn'));
    expect(app.getByText(PICTURES[0]?.url ?? '')).toBeTruthy();
    expect(app.queryByRole('button', 'Use Spawn')).toBeNull();
    expect(app.getByRole('button', 'Choose from the library').getAttribute('aria-expanded')).toBe('false');
  });

  it('says the library is empty, or that it could not be read while an address still works', async () => {
    const empty = await renderPlugin(pluginWith({ list: async () => [] }), { manifest, route: '/pick' });
    await empty.click(await empty.findByRole('button', 'Choose from the library'));
    await empty.findByText('No pictures in the library yet.');
    empty.unmount();

    const failing = await renderPlugin(pluginWith({ list: () => Promise.reject(new Error('down')) }), { manifest, route: '/pick' });
    await failing.click(await failing.findByRole('button', 'Choose from the library'));
    await failing.findByText('The library could not be loaded; an address still works.');
  });
});
