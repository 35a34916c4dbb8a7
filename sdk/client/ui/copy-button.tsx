// A button that copies a text to the clipboard and says so for a moment (a referral link, recovery
// codes…). Without a clipboard (an insecure origin, a refused permission) it says the copy failed:
// the text stays on screen to copy by hand.
import { useEffect, useState } from 'react';
import { useSdkText } from '../i18n';
import { Button, type ButtonSize, type ButtonVariant } from './Button';

export interface CopyButtonProps {
  /** what goes to the clipboard */
  text: string;
  /** the button's text (default: the translated "Copy") */
  label?: string;
  size?: ButtonSize;
  variant?: ButtonVariant;
}

const SAY_FOR_MS = 2000;

export function CopyButton({ text, label, size = 'sm', variant = 'secondary' }: CopyButtonProps) {
  const sdk = useSdkText();
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), SAY_FOR_MS);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  return (
    <Button size={size} variant={variant} icon={state === 'copied' ? 'check' : undefined} onClick={() => void copy()}>
      <span aria-live="polite">{state === 'copied' ? sdk('copied') : state === 'failed' ? sdk('copyFailed') : (label ?? sdk('copy'))}</span>
    </Button>
  );
}
