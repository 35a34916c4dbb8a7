// Overlays: panels that plugins float over every page (plugin.json "overlays"), opened by a keyboard
// shortcut or a launcher button in the bottom-right corner. The kernel knows them from the manifests
// alone, so nothing of such a plugin — not even its entry bundle — loads until one is first opened
// (the login page's first load stays as small as without it). Rendered under the router's root, on
// every page: the app shell's and the bare ones alike.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMatches } from 'react-router-dom';
import { hasPermission } from '../../sdk/manifest';
import { PluginComponentHost } from '../../sdk/client/boundary';
import type { ComponentLoader, OverlayProps } from '../../sdk/client/plugin';
import { isPluginOffered, pluginComponentLoader, registryStore } from '../../sdk/client/stores/registry';
import { sessionStore } from '../../sdk/client/stores/session';
import { isSettingEnabled, settingsStore } from '../../sdk/client/stores/settings';
import { Spinner } from '../../sdk/client/ui/feedback';
import { Icon } from '../../sdk/client/ui/icons';
import { theme } from '../../sdk/client/ui/theme';
import type { ManifestOverlay, PublicSettings, ServedPluginManifest } from '../../sdk/types';

export interface Shortcut {
  ctrl: boolean;
  alt: boolean;
  shift: boolean;
  meta: boolean;
  /** lower case */
  key: string;
}

/** "Ctrl+I" → its parts; null for anything else than modifiers and one letter or digit. */
export function parseShortcut(text: string | undefined): Shortcut | null {
  if (!text) return null;
  const parts = text.split('+');
  const key = parts.pop() ?? '';
  if (!/^[A-Za-z0-9]$/.test(key) || parts.length === 0) return null;
  const mods = new Set(parts.map((p) => p.toLowerCase()));
  if ([...mods].some((m) => !['ctrl', 'alt', 'shift', 'meta'].includes(m))) return null;
  return { ctrl: mods.has('ctrl'), alt: mods.has('alt'), shift: mods.has('shift'), meta: mods.has('meta'), key: key.toLowerCase() };
}

type KeyFacts = Pick<KeyboardEvent, 'key' | 'code' | 'ctrlKey' | 'altKey' | 'shiftKey' | 'metaKey'>;

/** Exactly these modifiers and this key (by the character, or by its place on layouts that type another letter there). */
export function matchesShortcut(event: KeyFacts, shortcut: Shortcut): boolean {
  if (event.ctrlKey !== shortcut.ctrl || event.altKey !== shortcut.alt || event.shiftKey !== shortcut.shift || event.metaKey !== shortcut.meta) return false;
  const key = (event.key ?? '').toLowerCase();
  if (key === shortcut.key) return true;
  const place = /^[a-z]$/.test(shortcut.key) ? `Key${shortcut.key.toUpperCase()}` : `Digit${shortcut.key}`;
  // a layout that does not type Latin letters (Cyrillic, Greek…) still has the key in that place
  return !/^[a-z0-9]$/.test(key) && event.code === place;
}

const NOT_TYPED = new Set(['button', 'checkbox', 'radio', 'range', 'submit', 'reset', 'file', 'color', 'image', 'hidden']);

/** Is the user typing in `target` (a text field, a text area, an editable element)? Shortcuts leave those alone. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).tagName !== 'string') return false;
  const element = target as HTMLElement;
  const tag = element.tagName.toLowerCase();
  if (tag === 'textarea' || tag === 'select') return true;
  if (tag === 'input') return !NOT_TYPED.has(((element as HTMLInputElement).type || 'text').toLowerCase());
  return element.isContentEditable === true || element.closest?.('[contenteditable=""],[contenteditable="true"],[contenteditable="plaintext-only"]') != null;
}

export interface OverlayEntry {
  /** `<plugin>:<component>` */
  key: string;
  pluginId: string;
  overlay: ManifestOverlay;
  shortcut: Shortcut | null;
  loader: ComponentLoader;
}

/** The overlays that may show: of offered plugins, whose permission the user holds and whose flag is on. */
export function overlayEntries(
  manifests: readonly ServedPluginManifest[],
  offered: (pluginId: string) => boolean,
  permissions: readonly string[],
  settings: PublicSettings,
): OverlayEntry[] {
  const entries: (OverlayEntry & { rank: number })[] = [];
  manifests.forEach((manifest, m) => {
    (manifest.overlays ?? []).forEach((overlay, o) => {
      if (!offered(manifest.id) || !hasPermission(permissions, overlay.permission)) return;
      if (overlay.flag && !isSettingEnabled(settings[overlay.flag])) return;
      entries.push({
        key: `${manifest.id}:${overlay.component}`,
        pluginId: manifest.id,
        overlay,
        shortcut: parseShortcut(overlay.shortcut),
        loader: pluginComponentLoader('overlay', manifest.id, overlay.component),
        rank: (overlay.order ?? 100) * 1e6 + m * 1000 + o,
      });
    });
  });
  return entries.sort((a, b) => a.rank - b.rank).map(({ rank: _rank, ...entry }) => entry);
}

function useOverlayEntries(): OverlayEntry[] {
  const manifests = registryStore((s) => s.manifests);
  const offered = registryStore((s) => s.offered);
  const failed = registryStore((s) => s.failed);
  const permissions = sessionStore((s) => s.permissions);
  const settings = settingsStore((s) => s.settings);
  return useMemo(() => overlayEntries(manifests, (id) => isPluginOffered({ offered, failed }, id), permissions, settings), [manifests, offered, failed, permissions, settings]);
}

/** What aria-keyshortcuts calls the modifiers. */
const ariaShortcut = (text: string) => text.replace(/\bCtrl\b/g, 'Control');

const c = theme.colors;

/** The launcher buttons and the open overlay. */
export function OverlayHost() {
  const entries = useOverlayEntries();
  const { t } = useTranslation();
  const [openKey, setOpenKey] = useState<string | null>(null);
  const returnFocus = useRef<HTMLElement | null>(null);
  const frame = useRef<HTMLDivElement>(null);
  // the app shell's customisation gear sits in the same corner: the launchers stand beside it, inside
  // the room the shell keeps free under the page's end (above it they would cover the last row)
  const inShell = useMatches().some((m) => m.id === 'layout:app');

  const close = useCallback(() => {
    setOpenKey(null);
    const back = returnFocus.current;
    returnFocus.current = null;
    if (back?.isConnected) requestAnimationFrame(() => back.focus());
  }, []);

  const toggle = useCallback(
    (key: string) => {
      if (openKey === key) return close();
      if (document.activeElement instanceof HTMLElement && !frame.current?.contains(document.activeElement)) returnFocus.current = document.activeElement;
      setOpenKey(key);
    },
    [openKey, close],
  );

  useEffect(() => {
    const withShortcut = entries.filter((e) => e.shortcut);
    if (withShortcut.length === 0 && openKey === null) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      // Escape closes the open overlay from inside it (or when nothing has the focus); the overlay
      // may keep Escape for itself by preventing its default
      if (event.key === 'Escape' && openKey !== null) {
        const inside = event.target instanceof Node && (frame.current?.contains(event.target) || event.target === document.body);
        if (inside) {
          event.preventDefault();
          close();
        }
        return;
      }
      if (event.repeat || isTypingTarget(event.target)) return;
      const hit = withShortcut.find((e) => matchesShortcut(event, e.shortcut as Shortcut));
      if (!hit) return;
      event.preventDefault();
      toggle(hit.key);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [entries, toggle, close, openKey]);

  // the focus goes into the overlay when it opens (its own content may move it further)
  useEffect(() => {
    if (openKey) frame.current?.focus();
  }, [openKey]);

  const open = entries.find((e) => e.key === openKey) ?? null;
  const launchers = entries.filter((e) => e.overlay.launcher !== false);
  const props = useMemo(() => ({ onClose: close }) satisfies OverlayProps, [close]);

  return (
    <>
      {launchers.length > 0 && (
        <div css={{ position: 'fixed', right: inShell ? 76 : 16, bottom: inShell ? 20 : 16, zIndex: 44, display: 'flex', flexDirection: 'row-reverse', gap: 8 }}>
          {launchers.map((e) => {
            const label = t(e.overlay.label, { ns: e.pluginId });
            return (
              <button
                key={e.key}
                type="button"
                data-overlay-launcher={e.key}
                aria-label={label}
                title={e.overlay.shortcut ? `${label} (${e.overlay.shortcut})` : label}
                aria-keyshortcuts={e.overlay.shortcut ? ariaShortcut(e.overlay.shortcut) : undefined}
                aria-expanded={openKey === e.key}
                onClick={() => toggle(e.key)}
                css={{
                  display: 'grid',
                  placeItems: 'center',
                  width: 40,
                  height: 40,
                  border: `1px solid ${c.borderStrong}`,
                  borderRadius: '50%',
                  background: openKey === e.key ? c.primary : c.surfaceRaised,
                  color: openKey === e.key ? c.primaryText : c.text,
                  boxShadow: theme.shadows.md,
                  cursor: 'pointer',
                  '&:hover': { background: openKey === e.key ? c.primaryHover : c.surfaceHover },
                  '&:focus-visible': { outline: 'none', boxShadow: theme.focusRing },
                }}
              >
                <Icon name={e.overlay.icon ?? 'plug'} size={20} />
              </button>
            );
          })}
        </div>
      )}
      {open && (
        // the corner the overlay stands in; its component decides its own size (and takes the whole
        // width on a phone)
        <div
          ref={frame}
          tabIndex={-1}
          data-overlay={open.key}
          css={{ position: 'fixed', right: 0, bottom: 0, zIndex: 60, maxWidth: '100vw', maxHeight: '100dvh', outline: 'none' }}
        >
          <PluginComponentHost
            key={open.key}
            pluginId={open.pluginId}
            component={open.overlay.component}
            loader={open.loader}
            props={props}
            fallback={
              <div css={{ margin: 16, padding: 12, borderRadius: theme.radii.md, background: c.surface, border: `1px solid ${c.border}` }}>
                <Spinner size={20} />
              </div>
            }
          />
        </div>
      )}
    </>
  );
}
