// The action buttons at the end of a list row (permissions, edit, delete…): one look for every admin
// list, whichever plugin owns it. An action the user may not take is passed as `false` and not shown.
import { Button } from './Button';

interface RowActionBase {
  text: string;
  /** names the row, for screen readers ("Edit alice") */
  label: string;
  variant?: 'secondary' | 'ghost';
}

/** a page of its own (edit, delete…), or something done in place (suspend, after a confirm dialog) */
export type RowAction = RowActionBase & ({ to: string; onClick?: never } | { onClick: () => void; to?: never });

export function RowActions({ actions }: { actions: (RowAction | false | null | undefined)[] }) {
  return (
    <div css={{ display: 'inline-flex', gap: 6, flexWrap: 'wrap', justifyContent: 'flex-end' }}>
      {actions.map(
        (action) =>
          action && (
            <Button key={action.label} size="sm" variant={action.variant ?? 'secondary'} to={action.to} onClick={action.onClick} aria-label={action.label}>
              {action.text}
            </Button>
          ),
      )}
    </div>
  );
}
