// One dashboard component: a titled card whose body is its data, a skeleton while that loads, or the
// server's message with a retry. The title stays, so the page does not jump while components load.
import { Card, LoadError, Skeleton, useTranslation, type UseApiResult } from '@orepanel/sdk';
import type { ReactNode } from 'react';

export interface ComponentCardProps<T> {
  title: string;
  /** buttons in the card's header (a period switch, a refresh) */
  actions?: ReactNode;
  state: UseApiResult<T>;
  children(data: T): ReactNode;
  /** placeholder lines while loading */
  lines?: number;
}

export function ComponentCard<T>({ title, actions, state, children, lines = 4 }: ComponentCardProps<T>) {
  const { t } = useTranslation('admin-dashboard');
  let body: ReactNode;
  if (state.data !== undefined) body = children(state.data);
  else if (state.error && !state.loading) body = <LoadError title={t('common.loadFailed')} error={state.error} onRetry={state.reload} />;
  else
    body = (
      <div aria-busy="true">
        <Skeleton lines={lines} height={18} label={t('common.loading')} />
      </div>
    );
  return (
    <Card title={title} actions={actions}>
      {body}
    </Card>
  );
}
