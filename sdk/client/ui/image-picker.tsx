// Picking a picture for a form's image field from a library of named pictures. The sdk knows no
// library itself: a plugin that keeps one (the images plugin) offers it with provideImageLibrary in
// its setup, and any form shows <ImageLibraryPicker onPick={…} /> beside its address field. Without
// a library (its plugin off or not installed) the picker renders nothing and the address field
// works as before, so neither plugin imports the other.
import { useEffect, useId, useState, useSyncExternalStore } from 'react';
import { useSdkText } from '../i18n';
import { useHasPermission } from './access';
import { Button } from './Button';
import { Spinner } from './feedback';
import { SearchField } from './list';
import { theme } from './theme';

const c = theme.colors;

/** One picture a library offers. */
export interface PickableImage {
  id: number | string;
  name: string;
  /** the address a form keeps (a path on this site or a full address) */
  url: string;
}

/** Where the picker reads pictures: the first page of those whose name contains `search`. */
export interface ImageLibrarySource {
  list(search: string, signal: AbortSignal): Promise<readonly PickableImage[]>;
  /** the permission needed to read the library: without it the picker shows nothing */
  permission?: string;
}

let current: ImageLibrarySource | null = null;
const listeners = new Set<() => void>();

/** Offers (or, with null, withdraws) the panel's image library to every picker. */
export function provideImageLibrary(source: ImageLibrarySource | null): void {
  current = source;
  for (const listener of listeners) listener();
}

/** The library on offer, or null. */
export function useImageLibrary(): ImageLibrarySource | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => current,
  );
}

export interface ImageLibraryPickerProps {
  /** called with the picture's address when one is chosen */
  onPick(url: string): void;
  /** the address the field holds now (its picture shows as chosen) */
  value?: string;
  /** a library of the caller's own (tests); default: the one a plugin provided */
  source?: ImageLibrarySource | null;
}

type Loaded = { state: 'loading' } | { state: 'failed' } | { state: 'ready'; images: readonly PickableImage[] };

/** A "Choose from the library" button opening a searchable grid of thumbnails; nothing without a library. */
export function ImageLibraryPicker({ onPick, value, source }: ImageLibraryPickerProps) {
  const provided = useImageLibrary();
  const offered = source === undefined ? provided : source;
  const allowed = useHasPermission(offered?.permission ?? '');
  const library = offered && (offered.permission === undefined || allowed) ? offered : null;
  const text = useSdkText();
  const panelId = useId();
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });

  useEffect(() => {
    if (!open || !library) return;
    const controller = new AbortController();
    setLoaded({ state: 'loading' });
    // a short pause so each keystroke does not ask the server
    const timer = setTimeout(() => {
      library.list(search.trim(), controller.signal).then(
        (images) => setLoaded({ state: 'ready', images }),
        () => {
          if (!controller.signal.aborted) setLoaded({ state: 'failed' });
        },
      );
    }, 250);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [open, library, search]);

  if (!library) return null;
  return (
    <div css={{ display: 'grid', gap: 8 }}>
      <div>
        <Button variant="secondary" size="sm" icon="image" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen(!open)}>
          {open ? text('imageLibraryClose') : text('imageLibraryOpen')}
        </Button>
      </div>
      {open && (
        <div id={panelId} css={{ display: 'grid', gap: 10, padding: 12, background: c.surfaceRaised, border: `1px solid ${c.border}`, borderRadius: theme.radii.md }}>
          <SearchField value={search} onChange={setSearch} label={text('imageLibrarySearch')} />
          {loaded.state === 'loading' && <Spinner label={text('loading')} />}
          {loaded.state === 'failed' && <p css={{ margin: 0, color: c.warning }}>{text('imageLibraryFailed')}</p>}
          {loaded.state === 'ready' && loaded.images.length === 0 && <p css={{ margin: 0, color: c.muted }}>{search.trim() ? text('noResults') : text('imageLibraryEmpty')}</p>}
          {loaded.state === 'ready' && loaded.images.length > 0 && (
            <ul css={{ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: 8, gridTemplateColumns: 'repeat(auto-fill, minmax(96px, 1fr))' }}>
              {loaded.images.map((image) => {
                const chosen = value === image.url;
                return (
                  <li key={image.id}>
                    <button
                      type="button"
                      aria-label={text('imageLibraryPick', { name: image.name })}
                      aria-pressed={chosen}
                      onClick={() => {
                        onPick(image.url);
                        setOpen(false);
                      }}
                      css={{
                        width: '100%',
                        display: 'grid',
                        gap: 4,
                        padding: 6,
                        background: chosen ? c.primarySoft : c.surface,
                        border: `1px solid ${chosen ? c.primary : c.border}`,
                        borderRadius: theme.radii.md,
                        color: c.text,
                        cursor: 'pointer',
                        '&:hover': { background: c.surfaceHover },
                        '&:focus-visible': { outline: 'none', boxShadow: theme.focusRing },
                      }}
                    >
                      <img
                        src={image.url}
                        alt=""
                        loading="lazy"
                        css={{ width: '100%', aspectRatio: '1', objectFit: 'cover', borderRadius: theme.radii.sm, background: c.background }}
                      />
                      <span css={{ fontSize: theme.font.size.sm, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{image.name}</span>
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
