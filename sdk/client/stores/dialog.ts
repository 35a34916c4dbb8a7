// spec §4: dialogs are open, loading or closed; dismissal reasons cancel, backdrop, close, esc, timer.
import { create } from 'zustand';

export type DialogStatus = 'closed' | 'loading' | 'open';

/** spec §4: why a dialog closed without being confirmed. */
export const DISMISS_REASONS = ['cancel', 'backdrop', 'close', 'esc', 'timer'] as const;
export type DismissReason = (typeof DISMISS_REASONS)[number];

export interface DialogState {
  status: DialogStatus;
  /** how the last dialog was dismissed; null when it was confirmed (or none closed yet) */
  lastDismiss: DismissReason | null;
  setStatus(status: DialogStatus): void;
  setClosed(dismiss: DismissReason | null): void;
}

export const dialogStore = create<DialogState>()((set) => ({
  status: 'closed',
  lastDismiss: null,
  setStatus(status) {
    set({ status });
  },
  setClosed(dismiss) {
    set({ status: 'closed', lastDismiss: dismiss });
  },
}));
