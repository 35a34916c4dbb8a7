// Ticket departments, and which roles are limited to which of them (ticket_role_departments): a
// role with no rows there sees every department, admin.root always does.
import { insertedId, type DatabaseDialect, type httpError as HttpErrorFn, type SessionUser } from '@orepanel/sdk/server';
import { hoursProblem, WEEKDAYS, type OpeningHours } from '../shared/opening-hours';
import type { TicketDb } from './tables';

const ROOT_PERMISSION = 'admin.root';

export const DEPARTMENT_LIMITS = { nameMaxLength: 64, descriptionMaxLength: 255, maxRoles: 100 } as const;

export interface DepartmentInput {
  name: string;
  description: string;
  /** null (the default): no hours stated */
  hours?: OpeningHours | null;
  hours_note?: string;
  enabled: boolean;
  /** the roles limited to this department (among others they may have) */
  role_ids: number[];
}

export interface DepartmentView {
  id: number;
  name: string;
  description: string;
  hours: OpeningHours | null;
  hours_note: string;
  enabled: boolean;
  role_ids: number[];
  created_at: string;
  updated_at: string;
}

/** What customers see of a department that takes tickets. */
export type OpenDepartmentView = Pick<DepartmentView, 'id' | 'name' | 'description' | 'hours' | 'hours_note'>;

/** Stored hours back into their shape; anything that is not (a hand-edited row) reads as none stated. */
function parseHours(text: string | null): OpeningHours | null {
  if (text === null) return null;
  try {
    const value = JSON.parse(text) as OpeningHours;
    const days = value?.days;
    if (typeof value?.time_zone !== 'string' || typeof days !== 'object' || days === null || !WEEKDAYS.every((d) => d in days)) return null;
    return hoursProblem(value) === null ? value : null;
  } catch {
    return null;
  }
}

/** The departments a staff member may see; null: all of them. */
export type DepartmentScope = readonly number[] | null;

export class Departments {
  constructor(
    private readonly db: TicketDb,
    private readonly dialect: DatabaseDialect,
    private readonly httpError: typeof HttpErrorFn,
    private readonly now: () => string,
  ) {}

  async list(): Promise<DepartmentView[]> {
    const rows = await this.db.selectFrom('ticket_departments').selectAll().orderBy('id').execute();
    const links = await this.db.selectFrom('ticket_role_departments').select(['department_id', 'role_id']).orderBy('role_id').execute();
    return rows.map((row) => ({
      id: Number(row.id),
      name: row.name,
      description: row.description,
      hours: parseHours(row.hours),
      hours_note: row.hours_note,
      enabled: Number(row.enabled) === 1,
      role_ids: links.filter((l) => Number(l.department_id) === Number(row.id)).map((l) => Number(l.role_id)),
      created_at: row.created_at,
      updated_at: row.updated_at,
    }));
  }

  async get(id: number): Promise<DepartmentView> {
    const found = (await this.list()).find((d) => d.id === id);
    if (!found) throw this.httpError(404, 'DEPARTMENT_NOT_FOUND', 'No such department.');
    return found;
  }

  /** The departments a staff member works in (scopeOf): what their pages offer to filter by and move tickets to. */
  async inScope(scope: DepartmentScope): Promise<Pick<DepartmentView, 'id' | 'name' | 'enabled'>[]> {
    return (await this.list()).filter((d) => scope === null || scope.includes(d.id)).map(({ id, name, enabled }) => ({ id, name, enabled }));
  }

  /** The departments customers may open tickets in, with their hours. */
  async openToCustomers(): Promise<OpenDepartmentView[]> {
    return (await this.list()).filter((d) => d.enabled).map(({ id, name, description, hours, hours_note }) => ({ id, name, description, hours, hours_note }));
  }

  /**
   * The hours as they are stored (JSON, days in weekday order), or a 400
   * naming the field: an unknown zone, or a day whose `from` is not before its `to`.
   */
  checkHours(hours: OpeningHours | null): string | null {
    if (hours === null) return null;
    const problem = hoursProblem(hours);
    if (problem?.code === 'UNKNOWN_TIME_ZONE') throw this.httpError(400, 'UNKNOWN_TIME_ZONE', 'The time zone is not a known IANA zone name.', problem.field);
    if (problem) throw this.httpError(400, 'VALIDATION_ERROR', 'Each open day needs a start time before its end time (HH:MM, 24:00 at most).', problem.field);
    const days = Object.fromEntries(WEEKDAYS.map((d) => [d, hours.days[d] && { from: hours.days[d].from, to: hours.days[d].to }]));
    return JSON.stringify({ time_zone: hours.time_zone, days });
  }

  /** A department customers may open a ticket in, or a 400 naming department_id. */
  async requireEnabled(id: number): Promise<void> {
    const row = await this.db.selectFrom('ticket_departments').select('enabled').where('id', '=', id).executeTakeFirst();
    if (!row || Number(row.enabled) !== 1) throw this.httpError(400, 'DEPARTMENT_UNAVAILABLE', 'This department does not take tickets.', 'department_id');
  }

  async exists(id: number): Promise<boolean> {
    return (await this.db.selectFrom('ticket_departments').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }

  async create(input: DepartmentInput): Promise<DepartmentView> {
    const now = this.now();
    const hours = this.checkHours(input.hours ?? null);
    const id = await this.db.transaction().execute(async (trx) => {
      const inserted = await insertedId(
        this.dialect,
        trx.insertInto('ticket_departments').values({
          name: input.name,
          description: input.description,
          hours,
          hours_note: input.hours_note ?? '',
          enabled: input.enabled ? 1 : 0,
          created_at: now,
          updated_at: now,
        }),
      );
      await this.setRoles(trx, inserted, input.role_ids);
      return inserted;
    });
    return this.get(id);
  }

  async update(id: number, changes: Partial<DepartmentInput>): Promise<DepartmentView> {
    await this.get(id);
    // checked before anything is written: refused hours change nothing
    const hours = changes.hours === undefined ? undefined : this.checkHours(changes.hours);
    await this.db.transaction().execute(async (trx) => {
      const set: { name?: string; description?: string; hours?: string | null; hours_note?: string; enabled?: number; updated_at: string } = { updated_at: this.now() };
      if (changes.name !== undefined) set.name = changes.name;
      if (changes.description !== undefined) set.description = changes.description;
      if (hours !== undefined) set.hours = hours;
      if (changes.hours_note !== undefined) set.hours_note = changes.hours_note;
      if (changes.enabled !== undefined) set.enabled = changes.enabled ? 1 : 0;
      await trx.updateTable('ticket_departments').set(set).where('id', '=', id).execute();
      if (changes.role_ids !== undefined) await this.setRoles(trx, id, changes.role_ids);
    });
    return this.get(id);
  }

  /** Deletes a department without tickets; one with tickets answers 409 (disable it instead). */
  async delete(id: number): Promise<DepartmentView> {
    const department = await this.get(id);
    const used = await this.db.selectFrom('tickets').select('id').where('department_id', '=', id).limit(1).executeTakeFirst();
    if (used) throw this.httpError(409, 'DEPARTMENT_HAS_TICKETS', 'This department has tickets and cannot be deleted; disable it instead.');
    // the foreign key of tickets refuses the delete should a ticket have arrived in between
    await this.db.deleteFrom('ticket_departments').where('id', '=', id).execute();
    return department;
  }

  /** The departments `user` may see tickets of (null: all). */
  async scopeOf(user: SessionUser): Promise<DepartmentScope> {
    if (user.permissions.includes(ROOT_PERMISSION)) return null;
    const rows = await this.db.selectFrom('ticket_role_departments').select('department_id').where('role_id', '=', user.role).execute();
    return rows.length === 0 ? null : rows.map((r) => Number(r.department_id));
  }

  private async setRoles(trx: TicketDb, departmentId: number, roleIds: readonly number[]): Promise<void> {
    await trx.deleteFrom('ticket_role_departments').where('department_id', '=', departmentId).execute();
    const unique = [...new Set(roleIds)];
    if (unique.length === 0) return;
    await trx
      .insertInto('ticket_role_departments')
      .values(unique.map((role_id) => ({ role_id, department_id: departmentId })))
      .execute();
  }
}
