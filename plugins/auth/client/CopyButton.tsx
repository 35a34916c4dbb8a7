// A button that copies a text to the clipboard and says so for a moment.
import { Button, useTranslation } from '@orepanel/sdk';
import { useEffect, useState } from 'react';

export function CopyButton({ text, label }: { text: string; label: string }) {
  const { t } = useTranslation('auth');
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      // no clipboard (an insecure origin, a refused permission): the text stays on screen to copy by hand
      setState('failed');
    }
  };
  return (
    <Button size="sm" variant="secondary" icon={state === 'copied' ? 'check' : undefined} onClick={() => void copy()}>
      {state === 'copied' ? t('copy.copied') : state === 'failed' ? t('copy.failed') : label}
    </Button>
  );
}
