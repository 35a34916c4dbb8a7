// What a screen about one thing (a user, a role) shows before it has that thing: a skeleton while it
// loads, the server's message with a retry when it failed.
import { Card, LoadError, Skeleton, useTranslation, type ApiError } from '@orepanel/sdk';
import type { ReactNode } from 'react';

export interface ResourceStateProps<T> {
  data: T | undefined;
  loading: boolean;
  error: ApiError | null;
  reload(): void;
  children(data: T): ReactNode;
  /** placeholder lines while loading */
  lines?: number;
}

export function ResourceState<T>({ data, loading, error, reload, children, lines = 6 }: ResourceStateProps<T>) {
  const { t } = useTranslation('admin');
  if (data !== undefined) return <>{children(data)}</>;
  if (error && !loading) return <LoadError title={t('common.loadFailed')} error={error} onRetry={reload} />;
  return (
    <Card>
      <div aria-busy="true">
        <Skeleton lines={lines} height={20} label={t('common.loading')} />
      </div>
    </Card>
  );
}
