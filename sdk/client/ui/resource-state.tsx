// What a screen about one thing (a user, a role, a code) shows before it has that thing: a skeleton
// while it loads, the server's message with a retry when it failed. Moved here from the admin
// plugin when a second plugin's admin screens needed it.
import type { ReactNode } from 'react';
import type { ApiError } from '../http';
import { useSdkText } from '../i18n';
import { EmptyState, Skeleton, type EmptyStateProps } from './feedback';
import { Card } from './layout';
import { LoadError } from './load-error';

export interface ResourceStateProps<T> {
  data: T | undefined;
  loading: boolean;
  error: ApiError | null;
  reload(): void;
  children(data: T): ReactNode;
  /** placeholder lines while loading */
  lines?: number;
  /** heading of the load error (default: the sdk's "This could not be loaded.") */
  errorTitle?: string;
  /** accessible name of the placeholder (default: the sdk's "Loading…") */
  loadingLabel?: string;
}

export function ResourceState<T>({ data, loading, error, reload, children, lines = 6, errorTitle, loadingLabel }: ResourceStateProps<T>) {
  const text = useSdkText();
  if (data !== undefined) return <>{children(data)}</>;
  if (error && !loading) return <LoadError title={errorTitle ?? text('loadFailed')} error={error} onRetry={reload} />;
  return (
    <Card>
      <div aria-busy="true">
        <Skeleton lines={lines} height={20} label={loadingLabel} />
      </div>
    </Card>
  );
}

/** An empty state inside a card (a page with nothing to show). */
export function EmptyStateCard(props: EmptyStateProps) {
  return (
    <Card>
      <EmptyState {...props} />
    </Card>
  );
}
