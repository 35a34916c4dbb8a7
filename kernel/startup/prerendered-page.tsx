// issue 15: the kernel taking over a page the server sent already rendered (server/http/prerender.ts
// marks #app with data-prerendered). The app mounts, as always, in the spec's step 5 — but into a copy
// of #app that is not yet in the document, while the visitor keeps using the server's page (reading,
// typing, even sending its form). Once the mounted app shows a page, the copy replaces the server's
// page in one step, before the browser paints again: what was typed into a field goes over to the
// field of the same form and name, and the focus and caret stay where they were. The two pages are
// drawn by the same components with the same styles, so nothing on screen moves.
import { useEffect, useState, type ReactNode } from 'react';
import { kernelEvents } from '../../sdk/client/events';
import { clearPrimedApiAnswers, primeApiAnswers } from '../../sdk/client/http';
import { PrerenderedFormContext, type PrerenderedFormState } from '../../sdk/client/ui/form-context';
import { PRERENDERED_ATTRIBUTE } from './first-paint';

/** The JSON blocks the server writes beside the page (server/http/prerender.ts). */
export const PRERENDER_FORM_ELEMENT_ID = 'op-prerender-form';
export const PRERENDER_DATA_ELEMENT_ID = 'op-prerender-data';
/** Longest wait for the mounted app's first page; after it the app replaces the server's page anyway. */
export const TAKEOVER_TIMEOUT_MS = 15_000;

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

export interface PrerenderedPage {
  /** where React renders: a copy of #app outside the document until the swap */
  container: HTMLElement;
  /** the app, given the refused form's state (if the server showed one) for its first page */
  wrap(app: ReactNode): ReactNode;
  /** resolves once the mounted page replaced the server's */
  swapped: Promise<void>;
}

function readFormState(doc: Document): PrerenderedFormState | null {
  const text = doc.getElementById(PRERENDER_FORM_ELEMENT_ID)?.textContent;
  if (!text) return null;
  try {
    const parsed = JSON.parse(text) as PrerenderedFormState;
    return parsed && typeof parsed === 'object' && parsed.error && typeof parsed.error.code === 'string' ? parsed : null;
  } catch {
    return null;
  }
}

/** The answers the server drew the page with (plugin.json `prerender.data`): URL -> body. */
function readPageData(doc: Document): Record<string, unknown> | null {
  const text = doc.getElementById(PRERENDER_DATA_ELEMENT_ID)?.textContent;
  if (!text) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The state of a refused form, until the visitor leaves the page it was shown on. */
function PrerenderedFormProvider({ state, path, children }: { state: PrerenderedFormState | null; path: string; children: ReactNode }) {
  const [value, setValue] = useState(state);
  useEffect(() => {
    if (!value) return;
    const left = ({ pathname }: { pathname: string }) => {
      if (pathname !== path) setValue(null);
    };
    kernelEvents.on('navigation', left);
    return () => kernelEvents.off('navigation', left);
  }, [value, path]);
  return <PrerenderedFormContext.Provider value={value}>{children}</PrerenderedFormContext.Provider>;
}

/** A page is on screen: a page frame whose plugin part is no longer loading. */
export function showsPage(root: ParentNode): boolean {
  return root.querySelector('[data-page-transition]') !== null && root.querySelector('[data-plugin-loading]') === null;
}

/** Form fields by form, name and rank, so a field finds its twin in the other page. */
function fieldsByKey(root: HTMLElement): Map<string, Field> {
  const out = new Map<string, Field>();
  const forms = [...root.querySelectorAll('form')];
  const seen = new Map<string, number>();
  for (const field of root.querySelectorAll<Field>('input[name], textarea[name], select[name]')) {
    const form = field.closest('form');
    const base = `${form ? forms.indexOf(form) : -1}:${field.name}`;
    const rank = seen.get(base) ?? 0;
    seen.set(base, rank + 1);
    out.set(`${base}:${rank}`, field);
  }
  return out;
}

/** Gives a field a value as typing would: React's own value tracking sees the change. */
function typeInto(field: Field, value: string): void {
  const proto =
    field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : field instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(field, value);
  field.dispatchEvent(new Event(field instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
}

/**
 * Replaces the server's page with the mounted one, carrying over what the visitor did with it: the
 * fields' values (and checkboxes), the focused field and its caret or selection, the scroll position.
 */
export function swapPages(old: HTMLElement, next: HTMLElement, doc: Document): void {
  const win = doc.defaultView;
  const scroll = win ? { x: win.scrollX, y: win.scrollY } : null;
  const oldFields = fieldsByKey(old);
  const active = doc.activeElement;
  let focusedKey: string | null = null;
  for (const [key, field] of oldFields) if (field === active) focusedKey = key;
  const selection =
    active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement
      ? (() => {
          try {
            return { start: active.selectionStart, end: active.selectionEnd, direction: active.selectionDirection };
          } catch {
            return null; // an input type without a caret (checkbox, email in some browsers)
          }
        })()
      : null;

  old.replaceWith(next);

  const nextFields = fieldsByKey(next);
  for (const [key, field] of oldFields) {
    const twin = nextFields.get(key);
    if (!twin || twin.tagName !== field.tagName) continue;
    if (field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio')) {
      if (twin instanceof HTMLInputElement && twin.checked !== field.checked) twin.click();
    } else if (field.type !== 'file' && twin.value !== field.value) {
      typeInto(twin, field.value);
    }
  }
  if (focusedKey !== null) {
    const twin = nextFields.get(focusedKey);
    if (twin) {
      twin.focus({ preventScroll: true });
      if (selection && (twin instanceof HTMLInputElement || twin instanceof HTMLTextAreaElement)) {
        try {
          twin.setSelectionRange(selection.start, selection.end, selection.direction ?? undefined);
        } catch {
          // no caret in this kind of input
        }
      }
    }
  } else if (active instanceof HTMLElement && active !== doc.body && !doc.contains(active)) {
    // a button or link of the old page had the focus: it goes to the start, not lost in a removed node
    next.focus?.();
  }
  if (win && scroll && (win.scrollX !== scroll.x || win.scrollY !== scroll.y)) win.scrollTo(scroll.x, scroll.y);
}

/**
 * The takeover of the pre-rendered page in #app, or null when #app holds none (the app then mounts into
 * #app as it always did).
 */
export function prerenderedPage(doc: Document, timeoutMs = TAKEOVER_TIMEOUT_MS): PrerenderedPage | null {
  const host = doc.getElementById('app');
  const path = host?.getAttribute(PRERENDERED_ATTRIBUTE);
  if (!host || path === null || path === undefined) return null;
  const container = host.cloneNode(false) as HTMLElement;
  container.removeAttribute(PRERENDERED_ATTRIBUTE);
  const formState = readFormState(doc);
  // the mounted page draws the data the server drew it with, instead of a loading state and a request
  const data = readPageData(doc);
  if (data) primeApiAnswers(data);
  const swapped = new Promise<void>((resolve) => {
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      observer.disconnect();
      clearTimeout(timer);
      if (data) clearPrimedApiAnswers();
      // the visitor left the server's page meanwhile (its form was sent): nothing to replace
      if (host.isConnected) swapPages(host, container, doc);
      resolve();
    };
    // a mutation callback runs before the next paint: the swap is never seen half-way
    const observer = new MutationObserver(() => {
      if (showsPage(container)) finish();
    });
    observer.observe(container, { childList: true, subtree: true });
    const timer = setTimeout(finish, timeoutMs);
  });
  return {
    container,
    swapped,
    wrap: (app) => (
      <PrerenderedFormProvider state={formState} path={path}>
        {app}
      </PrerenderedFormProvider>
    ),
  };
}

/** Where the app mounts: into #app itself, or beside the server's page it then replaces. */
export function takeOverPage(doc: Document, host: HTMLElement): Pick<PrerenderedPage, 'container' | 'wrap'> {
  const page = host.hasAttribute(PRERENDERED_ATTRIBUTE) ? prerenderedPage(doc) : null;
  return page ?? { container: host, wrap: (app) => app };
}
