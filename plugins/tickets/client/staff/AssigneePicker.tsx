// Who works a ticket: a picker of the staff who see its department (the server's own list, so the
// choice it offers is the choice it accepts), "Nobody", and "Assign to me" one press away.
import { Button, Select, useApi, useTranslation } from '@orepanel/sdk';
import { staffUrl, type AssigneeList, type StaffChanges, type StaffTicket } from './staff-api';

const NOBODY = 'nobody';

export interface AssigneePickerProps {
  ticket: Pick<StaffTicket, 'department_id' | 'assigned_to'>;
  busy: boolean;
  onChange(changes: StaffChanges): void;
}

export function AssigneePicker({ ticket, busy, onChange }: AssigneePickerProps) {
  const { t } = useTranslation('tickets');
  const assignees = useApi<AssigneeList>(staffUrl.assignees(ticket.department_id));
  const people = assignees.data?.data ?? [];
  const current = ticket.assigned_to;
  const options = [
    { value: NOBODY, label: t('staff.assignee.nobody') },
    ...people.map((p) => ({ value: String(p.id), label: p.role_name ? `${p.username} (${p.role_name})` : p.username })),
    // kept visible when the assignee has since lost the right to work this department's tickets
    ...(current !== null && assignees.data && !people.some((p) => p.id === current) ? [{ value: String(current), label: t('staff.assignee.notStaff', { id: current }) }] : []),
  ];
  const me = assignees.data?.me;
  const mayTakeIt = me !== undefined && me !== current && people.some((p) => p.id === me);
  return (
    <div css={{ display: 'grid', gap: 8 }}>
      <Select
        label={t('staff.assignee.label')}
        name="assigned_to"
        value={current === null ? NOBODY : String(current)}
        options={options}
        disabled={busy || !assignees.data}
        hint={assignees.error ? t('staff.assignee.loadFailed') : undefined}
        onChange={(value) => onChange({ assigned_to: value === NOBODY ? null : Number(value) })}
      />
      {mayTakeIt && (
        <Button variant="secondary" size="sm" disabled={busy} onClick={() => onChange({ assigned_to: me })}>
          {t('staff.assignee.assignToMe')}
        </Button>
      )}
    </div>
  );
}
