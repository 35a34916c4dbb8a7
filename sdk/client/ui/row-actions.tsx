// The action buttons at the end of a list row (permissions, edit, delete…): one look for every admin
// list, whichever plugin owns it. An action the user may not take is passed as `false` and not shown.
import { Button } from './Button';

export interface RowAction {
  to: string;
  text: string;
  /** names the row, for screen readers ("Edit alice") */
  label: string;
  variant?: 'secondary' | 'ghost';
}

export function RowActions({ actions }: { actions: (RowAction | false)[] }) {
  return (
    <div css={{ display: 'inline-flex', gap: 6, flexWrap: 'wrap', justifyContent: 'flex-end' }}>
      {actions.map(
        (action) =>
          action && (
            <Button key={action.to} size="sm" variant={action.variant ?? 'secondary'} to={action.to} aria-label={action.label}>
              {action.text}
            </Button>
          ),
      )}
    </div>
  );
}
