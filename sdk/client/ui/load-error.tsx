// The one way a page or a card says "this could not be loaded": the server's message (translated
// by the plugin's catalogue when it knows the code) and a retry button.
import { Button } from './Button';
import { Alert } from './feedback';
import { useErrorText } from './form';
import { useSdkText } from '../i18n';

export interface LoadErrorProps {
  /** what failed (an ApiError or anything thrown) */
  error: unknown;
  /** runs the load again */
  onRetry(): void;
  /** optional heading, e.g. "Could not load the users" */
  title?: string;
  className?: string;
}

export function LoadError({ error, onRetry, title, className }: LoadErrorProps) {
  const errorText = useErrorText();
  const text = useSdkText();
  return (
    <Alert tone="error" title={title} className={className}>
      <div css={{ display: 'grid', gap: 10, justifyItems: 'start' }}>
        <span>{errorText(error)}</span>
        <Button size="sm" variant="secondary" onClick={onRetry}>
          {text('retry')}
        </Button>
      </div>
    </Alert>
  );
}
