// Picking a picture for a form's image field from a library of named pictures. The sdk knows no
// library itself: a form renders the slot IMAGE_LIBRARY_SLOT beside its address field
// (`<Slot name={IMAGE_LIBRARY_SLOT} props={{ value, onPick }} />`), and a plugin that keeps a library
// (the images plugin) contributes a component there that shows <ImageLibraryPicker source={…} />
// with its own data source. Without such a plugin (off, not installed, or the user lacks the slot's
// permission) the slot renders nothing and the address field works as before; the library's code is
// only fetched when a form with the slot is on screen. Neither plugin imports the other.
import { useEffect, useId, useState } from 'react';
import { useSdkText } from '../i18n';
import { Button } from './Button';
import { Spinner } from './feedback';
import { LazyImage } from './lazy-image';
import { SearchField } from './list';
import { theme } from './theme';

/** The slot an image field offers a library in; its props are {@link ImageLibrarySlotProps}. */
export const IMAGE_LIBRARY_SLOT = 'form.image-library';

/** What a form gives the component contributed to {@link IMAGE_LIBRARY_SLOT}. */
export interface ImageLibrarySlotProps {
  /** the address the field holds now */
  value: string;
  /** sets the field to a picture's address */
  onPick(url: string): void;
}

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
}

export interface ImageLibraryPickerProps {
  /** called with the picture's address when one is chosen */
  onPick(url: string): void;
  /** the address the field holds now (its picture shows as chosen) */
  value?: string;
  /** where the pictures come from */
  source: ImageLibrarySource;
}

type Loaded = { state: 'loading' } | { state: 'failed' } | { state: 'ready'; images: readonly PickableImage[] };

/** A "Choose from the library" button opening a searchable grid of thumbnails. */
export function ImageLibraryPicker({ onPick, value, source }: ImageLibraryPickerProps) {
  const text = useSdkText();
  const panelId = useId();
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });

  useEffect(() => {
    if (!open) return;
    const controller = new AbortController();
    setLoaded({ state: 'loading' });
    // a short pause so each keystroke does not ask the server
    const timer = setTimeout(() => {
      source.list(search.trim(), controller.signal).then(
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
  }, [open, source, search]);

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
                      <LazyImage src={image.url} alt="" css={{ width: '100%', aspectRatio: '1', objectFit: 'cover', borderRadius: theme.radii.sm, background: c.background }} />
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
