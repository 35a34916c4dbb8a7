// Destructive actions: `confirmAction` asks in a dialog, runs the action and reports the outcome (a
// toast, or an error dialog with the server's message); `ConfirmPanel` is the same question as a page
// (the /{id}/delete routes of every admin area).
import { useState, type ReactNode } from 'react';
import { dialogs } from '../dialogs';
import { ApiError } from '../http';
import { sdkText, useSdkText } from '../i18n';
import { Button } from './Button';
import { Alert } from './feedback';
import { useErrorText } from './form';
import { theme } from './theme';

export interface ConfirmActionOptions<R> {
  title: string;
  text?: string;
  /** the confirm button's text (e.g. "Delete") */
  confirmText?: string;
  cancelText?: string;
  /** destructive: the confirm button in the danger colour, focus on cancel */
  danger?: boolean;
  /** runs after the user confirmed */
  action(): Promise<R>;
  /** a toast after success */
  successText?: string;
  /** the error dialog's title (default: the translated "It could not be done.") */
  errorTitle?: string;
}

/** The outcome of {@link confirmAction}. */
export type ConfirmActionResult<R> = { status: 'cancelled' } | { status: 'done'; value: R } | { status: 'failed'; error: unknown };

/**
 * Asks, then runs `action`. A failure shows the server's message in an error dialog and is returned,
 * never thrown, so a click handler needs no try/catch.
 * @example
 * const result = await confirmAction({ title: t('disable.title'), danger: true, action: () => http.post(url) });
 * if (result.status === 'done') reload();
 */
export async function confirmAction<R>(options: ConfirmActionOptions<R>): Promise<ConfirmActionResult<R>> {
  const confirmed = await dialogs.confirm({
    title: options.title,
    text: options.text,
    icon: options.danger ? 'warning' : 'question',
    danger: options.danger,
    confirmText: options.confirmText,
    cancelText: options.cancelText,
  });
  if (!confirmed) return { status: 'cancelled' };
  try {
    const value = await options.action();
    if (options.successText) void dialogs.toast(options.successText);
    return { status: 'done', value };
  } catch (error) {
    void dialogs.error(options.errorTitle ?? sdkText('actionFailed'), error instanceof ApiError ? error.message : sdkText('somethingWentWrong'));
    return { status: 'failed', error };
  }
}

export interface ConfirmPanelProps {
  title: ReactNode;
  /** what will happen, and to what */
  children?: ReactNode;
  confirmText: string;
  /** default: the translated "Cancel" */
  cancelText?: string;
  /** runs on confirm; a rejection shows its message in the panel (translated by code like Form) */
  onConfirm(): Promise<unknown>;
  /** where Cancel goes */
  cancelTo: string;
  /** the confirm button in the danger colour (default true) */
  danger?: boolean;
}

/** A confirmation as a card: the question, what it does, confirm and cancel. */
export function ConfirmPanel({ title, children, confirmText, cancelText, onConfirm, cancelTo, danger = true }: ConfirmPanelProps) {
  const text = useSdkText();
  const errorText = useErrorText();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const run = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await onConfirm();
    } catch (error) {
      setFailure(errorText(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section
      role="group"
      aria-label={typeof title === 'string' ? title : undefined}
      css={{
        display: 'grid',
        gap: 14,
        maxWidth: 640,
        padding: 20,
        background: theme.colors.surface,
        border: `1px solid ${danger ? `${theme.colors.danger}55` : theme.colors.border}`,
        borderRadius: theme.radii.lg,
      }}
    >
      <h2 css={{ margin: 0, fontSize: theme.font.size.lg, fontWeight: theme.font.weight.semibold, color: theme.colors.text }}>{title}</h2>
      {children && <div css={{ color: theme.colors.muted, lineHeight: 1.5, overflowWrap: 'anywhere' }}>{children}</div>}
      {failure && (
        <Alert tone="error" onClose={() => setFailure(null)}>
          {failure}
        </Alert>
      )}
      <div css={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
        <Button variant={danger ? 'danger' : 'primary'} loading={busy} onClick={() => void run()}>
          {confirmText}
        </Button>
        <Button variant="secondary" to={cancelTo} disabled={busy}>
          {cancelText ?? text('cancel')}
        </Button>
      </div>
    </section>
  );
}
