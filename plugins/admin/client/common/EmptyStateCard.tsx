// An empty state inside a card (a page with nothing to show).
import { Card, EmptyState, type EmptyStateProps } from '@orepanel/sdk';

export function EmptyStateCard(props: EmptyStateProps) {
  return (
    <Card>
      <EmptyState {...props} />
    </Card>
  );
}
