// @vitest-environment jsdom
// Plugins' overlays (plugin.json "overlays"): the shortcut rule (Ctrl+I, never from a text field), the
// launcher, nothing of the plugin loaded before the first opening, Escape closing it with the focus
// given back, and permissions and flags.
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import type { OverlayProps } from '../../sdk/client/plugin';
import { registryStore } from '../../sdk/client/stores/registry';
import type { ServedPluginManifest } from '../../sdk/types';
import { isTypingTarget, matchesShortcut, OverlayHost, overlayEntries, parseShortcut } from './overlays';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const key = (k: string, mods: Partial<Record<'ctrlKey' | 'altKey' | 'shiftKey' | 'metaKey', boolean>> = {}, code = `Key${k.toUpperCase()}`) => ({
  key: k,
  code,
  ctrlKey: false,
  altKey: false,
  shiftKey: false,
  metaKey: false,
  ...mods,
});

describe('the shortcut rule', () => {
  const ctrlI = parseShortcut('Ctrl+I')!;

  it('reads a shortcut and refuses what is not one', () => {
    expect(ctrlI).toEqual({ ctrl: true, alt: false, shift: false, meta: false, key: 'i' });
    expect(parseShortcut('Ctrl+Shift+7')).toMatchObject({ ctrl: true, shift: true, key: '7' });
    expect(parseShortcut('I')).toBeNull();
    expect(parseShortcut('Hyper+I')).toBeNull();
    expect(parseShortcut(undefined)).toBeNull();
  });

  it('matches Ctrl+I exactly: not Ctrl+Shift+I (the browser’s tools), not Alt or Meta with it, not I alone', () => {
    expect(matchesShortcut(key('i', { ctrlKey: true }), ctrlI)).toBe(true);
    expect(matchesShortcut(key('I', { ctrlKey: true }), ctrlI)).toBe(true);
    expect(matchesShortcut(key('I', { ctrlKey: true, shiftKey: true }), ctrlI)).toBe(false);
    expect(matchesShortcut(key('i', { ctrlKey: true, altKey: true }), ctrlI)).toBe(false);
    expect(matchesShortcut(key('i', { metaKey: true }), ctrlI)).toBe(false);
    expect(matchesShortcut(key('i'), ctrlI)).toBe(false);
    expect(matchesShortcut(key('u', { ctrlKey: true }), ctrlI)).toBe(false);
  });

  it('matches the key’s place on a layout that types another alphabet there, not another Latin letter', () => {
    expect(matchesShortcut(key('ш', { ctrlKey: true }, 'KeyI'), ctrlI)).toBe(true);
    expect(matchesShortcut(key('g', { ctrlKey: true }, 'KeyI'), ctrlI)).toBe(false);
  });

  it('leaves text fields, text areas and editable elements alone, not buttons or checkboxes', () => {
    const make = (html: string) => {
      const host = document.createElement('div');
      host.innerHTML = html;
      return host.firstElementChild!;
    };
    expect(isTypingTarget(make('<input>'))).toBe(true);
    expect(isTypingTarget(make('<input type="password">'))).toBe(true);
    expect(isTypingTarget(make('<input type="search">'))).toBe(true);
    expect(isTypingTarget(make('<textarea></textarea>'))).toBe(true);
    expect(isTypingTarget(make('<select></select>'))).toBe(true);
    const editable = make('<div contenteditable="true"><b>x</b></div>');
    document.body.appendChild(editable);
    expect(isTypingTarget(editable.firstElementChild)).toBe(true);
    editable.remove();
    expect(isTypingTarget(make('<input type="checkbox">'))).toBe(false);
    expect(isTypingTarget(make('<button>b</button>'))).toBe(false);
    expect(isTypingTarget(document.body)).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });
});

const manifest = (id: string, extra: Partial<ServedPluginManifest>): ServedPluginManifest =>
  ({ id, name: id, version: '1.0.0', sdk: '^2.0.0', routes: [], nav: [], slots: [], permissions: [], settings: [], locales: [], ...extra }) as unknown as ServedPluginManifest;

const tools = manifest('tools', { overlays: [{ component: 'ToolsPanel', label: 'open', icon: 'gear', shortcut: 'Ctrl+I' }] });

describe('which overlays show', () => {
  it('only those of offered plugins, whose permission the user holds and whose flag is on', () => {
    const guarded = manifest('staff', { overlays: [{ component: 'Staff', label: 'x', permission: 'admin.tools' }] });
    const flagged = manifest('flagged', { overlays: [{ component: 'Flagged', label: 'x', flag: 'tools_enabled' }] });
    const all = [tools, guarded, flagged];
    const offered = () => true;
    expect(overlayEntries(all, offered, [], {}).map((e) => e.key)).toEqual(['tools:ToolsPanel']);
    expect(overlayEntries(all, offered, ['admin.tools'], { tools_enabled: true }).map((e) => e.key)).toEqual(['tools:ToolsPanel', 'staff:Staff', 'flagged:Flagged']);
    expect(overlayEntries(all, (id) => id !== 'tools', ['admin.root'], {}).map((e) => e.key)).toEqual(['staff:Staff']);
  });
});

let root: Root | null = null;
let container: HTMLElement | null = null;

afterEach(() => {
  if (root) act(() => root!.unmount());
  container?.remove();
  root = null;
  container = null;
  registryStore.getState().reset();
});

const flush = () => act(async () => new Promise((resolve) => setTimeout(resolve, 0)));

function ToolsPanel({ onClose }: OverlayProps) {
  return createElement('section', { role: 'dialog', 'aria-label': 'Tools' }, createElement('button', { type: 'button', onClick: onClose }, 'Done'));
}

async function renderHost(manifests: ServedPluginManifest[]) {
  const installs: string[] = [];
  registryStore.getState().setManifests(manifests);
  registryStore.getState().offerPlugins(
    manifests.map((m) => m.id),
    async (id) => {
      installs.push(id);
      registryStore.getState().commitPlugin(id, { routes: {}, slots: {}, overlays: { ToolsPanel: async () => ({ default: ToolsPanel }) } });
      return true;
    },
  );
  const router = createMemoryRouter([{ path: '*', element: createElement('main', null, createElement('input', { 'aria-label': 'Search' }), createElement(OverlayHost)) }]);
  container = document.createElement('div');
  document.body.appendChild(container);
  root = createRoot(container);
  await act(async () => {
    root!.render(createElement(RouterProvider, { router }));
  });
  return { installs };
}

const press = (target: EventTarget, init: KeyboardEventInit) =>
  act(async () => void target.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...init })));

describe('the overlay host', () => {
  it('installs nothing until Ctrl+I opens the overlay, then closes it again with Ctrl+I', async () => {
    const { installs } = await renderHost([tools]);
    expect(installs).toEqual([]);
    expect(document.querySelector('[data-overlay-launcher="tools:ToolsPanel"]')?.getAttribute('aria-keyshortcuts')).toBe('Control+I');
    await press(document.body, { key: 'i', code: 'KeyI', ctrlKey: true });
    await flush();
    expect(installs).toEqual(['tools']);
    expect(document.querySelector('[role="dialog"]')?.getAttribute('aria-label')).toBe('Tools');
    await press(document.body, { key: 'i', code: 'KeyI', ctrlKey: true });
    expect(document.querySelector('[role="dialog"]')).toBeNull();
  });

  it('does not open while the user types in a text field', async () => {
    await renderHost([tools]);
    const input = document.querySelector('input')!;
    input.focus();
    await press(input, { key: 'i', code: 'KeyI', ctrlKey: true });
    await flush();
    expect(document.querySelector('[role="dialog"]')).toBeNull();
  });

  it('opens from its launcher, closes with Escape and gives the focus back to the launcher', async () => {
    await renderHost([tools]);
    const launcher = document.querySelector<HTMLButtonElement>('[data-overlay-launcher]')!;
    launcher.focus();
    await act(async () => launcher.click());
    await flush();
    expect(launcher.getAttribute('aria-expanded')).toBe('true');
    const done = document.querySelector<HTMLButtonElement>('[role="dialog"] button')!;
    expect(document.querySelector('[data-overlay]')?.contains(document.activeElement)).toBe(true);
    await press(done, { key: 'Escape' });
    expect(document.querySelector('[role="dialog"]')).toBeNull();
    await act(async () => new Promise((resolve) => requestAnimationFrame(() => resolve(undefined))));
    expect(document.activeElement).toBe(launcher);
  });

  it('draws nothing and hears no shortcut when no plugin declares an overlay', async () => {
    const { installs } = await renderHost([manifest('plain', {})]);
    expect(document.querySelector('[data-overlay-launcher]')).toBeNull();
    await press(document.body, { key: 'i', code: 'KeyI', ctrlKey: true });
    expect(installs).toEqual([]);
  });
});
