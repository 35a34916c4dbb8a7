// The create and edit form of a department: its name and description as customers see them, its
// opening hours (a weekly grid in one time zone) and a note beside them, whether it takes new
// tickets, and which staff roles are limited to it (a role limited to no department sees them all;
// admin.root always does).
import {
  ADMIN_API,
  ADMIN_PERMISSIONS,
  Alert,
  Button,
  Card,
  Checkbox,
  Form,
  TextArea,
  TextField,
  UnchangedNote,
  useApi,
  useEditForm,
  useHasPermission,
  useTranslation,
  type AdminRole,
} from '@orepanel/sdk';
import { HOURS_LIMITS, WEEKDAYS, type OpeningHours } from '../../shared/opening-hours';
import { dayProblem, OpeningHoursField } from './OpeningHoursField';
import { useStaffErrorText } from './staff-errors';
import { DEPARTMENT_LIMITS, type Department, type DepartmentBody } from './staff-api';

export interface DepartmentFormValues {
  name: string;
  description: string;
  /** null: no hours stated */
  hours: OpeningHours | null;
  hours_note: string;
  enabled: boolean;
  role_ids: number[];
}

/**
 * Only a role whose staff work tickets (admin.tickets.view) can usefully be limited to departments; a
 * customer role or an admin.root one (which sees every department) would be a checkbox that does nothing.
 */
export function mayWorkTickets(role: Pick<AdminRole, 'permissions'>): boolean {
  return role.permissions.includes('admin.tickets.view') && !role.permissions.includes('admin.root');
}

export const EMPTY_DEPARTMENT: DepartmentFormValues = { name: '', description: '', hours: null, hours_note: '', enabled: true, role_ids: [] };

export function departmentValuesOf(department: Department): DepartmentFormValues {
  return {
    name: department.name,
    description: department.description,
    // an answer from before the hours existed has neither field
    hours: department.hours ?? null,
    hours_note: department.hours_note ?? '',
    enabled: department.enabled,
    role_ids: [...department.role_ids],
  };
}

/** i18n keys (tickets namespace) of the problems, per field; the server's schema stays the authority. */
export function checkDepartment(values: DepartmentFormValues): Partial<Record<keyof DepartmentFormValues, string>> {
  const name = values.name.trim();
  if (name === '') return { name: 'staff.validation.required' };
  if (name.length > DEPARTMENT_LIMITS.nameMaxLength) return { name: 'staff.validation.tooLong' };
  if (values.description.trim().length > DEPARTMENT_LIMITS.descriptionMaxLength) return { description: 'staff.validation.tooLong' };
  const hours = values.hours;
  if (hours && WEEKDAYS.some((day) => hours.days[day] && dayProblem(hours.days[day]) !== null)) return { hours: 'hours.form.invalid' };
  if (values.hours_note.trim().length > HOURS_LIMITS.noteMaxLength) return { hours_note: 'staff.validation.tooLong' };
  return {};
}

const sameRoles = (a: readonly number[], b: readonly number[]) => a.length === b.length && [...a].sort().join(',') === [...b].sort().join(',');
/** the hours in a fixed key order, so equal weeks compare equal */
const hoursKey = (hours: OpeningHours | null) => (hours ? JSON.stringify([hours.time_zone, WEEKDAYS.map((d) => hours.days[d] && [hours.days[d].from, hours.days[d].to])]) : 'none');

/** What to send: every field for a new department, only the changed ones for an existing one. */
export function departmentBody(before: DepartmentFormValues | null, values: DepartmentFormValues): DepartmentBody {
  const name = values.name.trim();
  const description = values.description.trim();
  const hoursNote = values.hours_note.trim();
  if (!before) {
    const body: DepartmentBody = { name, description, enabled: values.enabled, role_ids: [...values.role_ids].sort((x, y) => x - y) };
    // no hours and no note are the server's defaults: left out
    if (values.hours) body.hours = values.hours;
    if (hoursNote) body.hours_note = hoursNote;
    return body;
  }
  const body: DepartmentBody = {};
  if (name !== before.name.trim()) body.name = name;
  if (description !== before.description.trim()) body.description = description;
  if (hoursKey(values.hours) !== hoursKey(before.hours)) body.hours = values.hours;
  if (hoursNote !== before.hours_note.trim()) body.hours_note = hoursNote;
  if (values.enabled !== before.enabled) body.enabled = values.enabled;
  if (!sameRoles(values.role_ids, before.role_ids)) body.role_ids = [...values.role_ids].sort((x, y) => x - y);
  return body;
}

export interface DepartmentFormProps {
  /** the department being edited; null for a new one */
  initial: DepartmentFormValues | null;
  onSubmit(body: DepartmentBody): Promise<void>;
  submitText: string;
}

export function DepartmentForm({ initial, onSubmit, submitText }: DepartmentFormProps) {
  const { t } = useTranslation('tickets');
  const errorText = useStaffErrorText();
  const mayListRoles = useHasPermission(ADMIN_PERMISSIONS.rolesList);
  const roles = useApi<{ data: AdminRole[] }>(mayListRoles ? `${ADMIN_API}/roles` : null);
  const form = useEditForm({
    initial: initial ?? EMPTY_DEPARTMENT,
    check: checkDepartment,
    changes: (values: DepartmentFormValues) => departmentBody(initial, values),
    submit: onSubmit,
    problemText: (problem) => t(problem),
  });
  const { values, set } = form;
  const toggleRole = (id: number) => (checked: boolean) => set('role_ids')(checked ? [...values.role_ids.filter((r) => r !== id), id] : values.role_ids.filter((r) => r !== id));

  return (
    <Card>
      <Form onSubmit={form.submit} aria-label={submitText} errorText={errorText} noValidate>
        <UnchangedNote form={form}>{t('staff.departments.form.nothingChanged')}</UnchangedNote>
        <TextField label={t('staff.departments.form.name')} {...form.field('name')} maxLength={DEPARTMENT_LIMITS.nameMaxLength} autoComplete="off" />
        <TextArea
          label={t('staff.departments.form.description')}
          {...form.field('description')}
          maxLength={DEPARTMENT_LIMITS.descriptionMaxLength}
          rows={3}
          hint={t('staff.departments.form.descriptionHint')}
        />
        <OpeningHoursField value={values.hours} onChange={set('hours')} />
        {form.problem('hours') && <Alert tone="error">{form.problem('hours')}</Alert>}
        <TextArea label={t('hours.form.note')} {...form.field('hours_note')} maxLength={HOURS_LIMITS.noteMaxLength} rows={2} hint={t('hours.form.noteHint')} />
        <Checkbox label={t('staff.departments.form.enabled')} name="enabled" checked={values.enabled} onChange={set('enabled')} hint={t('staff.departments.form.enabledHint')} />
        <fieldset css={{ border: 0, margin: 0, padding: 0, display: 'grid', gap: 8, minWidth: 0 }}>
          <legend css={{ fontWeight: 600, marginBottom: 4 }}>{t('staff.departments.form.roles')}</legend>
          <p css={{ margin: 0, opacity: 0.8 }}>{t('staff.departments.form.rolesHint')}</p>
          {!mayListRoles && <Alert tone="info">{t('staff.departments.form.rolesHidden')}</Alert>}
          {roles.error && <Alert tone="error">{t('staff.departments.form.rolesFailed')}</Alert>}
          {roles.data?.data
            .filter((role) => mayWorkTickets(role) || values.role_ids.includes(role.id))
            .map((role) => (
              <Checkbox key={role.id} label={role.real_name} name={`role_${role.id}`} checked={values.role_ids.includes(role.id)} onChange={toggleRole(role.id)} />
            ))}
        </fieldset>
        <div>
          <Button type="submit">{submitText}</Button>
        </div>
      </Form>
    </Card>
  );
}
