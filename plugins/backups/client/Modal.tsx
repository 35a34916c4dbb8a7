// A dialog over the page for a form the sdk's dialogs (one input at most) cannot hold: the restore's
// name, password and code. Escape and the backdrop close it unless `busy`; focus moves into it on open
// and back to what had it on close; Tab stays inside.
import { theme } from '@orepanel/sdk';
import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

const c = theme.colors;

export interface ModalProps {
  title: string;
  children: ReactNode;
  onClose(): void;
  /** while true, Escape and the backdrop do nothing (a job is starting) */
  busy?: boolean;
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function Modal({ title, children, onClose, busy = false }: ModalProps) {
  const titleId = useId();
  const box = useRef<HTMLDivElement>(null);
  const backdrop = useRef<HTMLDivElement>(null);
  const closing = useRef({ onClose, busy });
  closing.current = { onClose, busy };

  // a press on the backdrop itself (not on the dialog) closes, as Escape does; a keyboard user has Escape and Cancel
  useEffect(() => {
    const element = backdrop.current;
    const press = (event: MouseEvent) => {
      if (event.target === element && !closing.current.busy) closing.current.onClose();
    };
    element?.addEventListener('mousedown', press);
    return () => element?.removeEventListener('mousedown', press);
  }, []);

  useEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const first = box.current?.querySelector<HTMLElement>('input, textarea, select') ?? box.current?.querySelector<HTMLElement>(FOCUSABLE);
    first?.focus();
    return () => before?.focus();
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape' && !busy) {
      event.stopPropagation();
      onClose();
      return;
    }
    if (event.key !== 'Tab' || !box.current) return;
    const focusable = [...box.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    if (focusable.length === 0) return;
    const [first, last] = [focusable[0], focusable[focusable.length - 1]];
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <div
      ref={backdrop}
      css={{
        position: 'fixed',
        inset: 0,
        zIndex: 1000,
        display: 'grid',
        placeItems: 'center',
        padding: 12,
        background: 'rgba(5, 8, 14, .72)',
        overflowY: 'auto',
      }}
    >
      <div
        ref={box}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        onKeyDown={onKeyDown}
        css={{
          width: '100%',
          maxWidth: 520,
          boxSizing: 'border-box',
          display: 'grid',
          gap: 14,
          padding: 20,
          background: c.surface,
          border: `1px solid ${c.border}`,
          borderRadius: theme.radii.lg,
          boxShadow: theme.shadows.lg,
          color: c.text,
          minWidth: 0,
        }}
      >
        <h2 id={titleId} css={{ margin: 0, fontSize: theme.font.size.lg, fontWeight: theme.font.weight.semibold }}>
          {title}
        </h2>
        {children}
      </div>
    </div>
  );
}
