// Ticket departments, and which roles are limited to which of them (ticket_role_departments): a
// role with no rows there sees every department, admin.root always does.
import { insertedId, type DatabaseDialect, type httpError as HttpErrorFn, type SessionUser } from '@orepanel/sdk/server';
import type { TicketDb } from './tables';

const ROOT_PERMISSION = 'admin.root';

export const DEPARTMENT_LIMITS = { nameMaxLength: 64, descriptionMaxLength: 255, maxRoles: 100 } as const;

export interface DepartmentInput {
  name: string;
  description: string;
  enabled: boolean;
  /** the roles limited to this department (among others they may have) */
  role_ids: number[];
}

export interface DepartmentView {
  id: number;
  name: string;
  description: string;
  enabled: boolean;
  role_ids: number[];
  created_at: string;
  updated_at: string;
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
    const id = await this.db.transaction().execute(async (trx) => {
      const inserted = await insertedId(
        this.dialect,
        trx.insertInto('ticket_departments').values({ name: input.name, description: input.description, enabled: input.enabled ? 1 : 0, created_at: now, updated_at: now }),
      );
      await this.setRoles(trx, inserted, input.role_ids);
      return inserted;
    });
    return this.get(id);
  }

  async update(id: number, changes: Partial<DepartmentInput>): Promise<DepartmentView> {
    await this.get(id);
    await this.db.transaction().execute(async (trx) => {
      const set: { name?: string; description?: string; enabled?: number; updated_at: string } = { updated_at: this.now() };
      if (changes.name !== undefined) set.name = changes.name;
      if (changes.description !== undefined) set.description = changes.description;
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
