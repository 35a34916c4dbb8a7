// Who works tickets: the accounts (not banned) whose role holds admin.tickets.view (admin.root
// passes every check), and of those, who sees a department — admin.root always, any other role
// unless ticket_role_departments limits it to other departments. One rule, read by ticket mail
// (who hears of a ticket), the assignee picker (who may take it) and the assignment check itself.
import { hasPermission, type ServerPluginContext } from '@orepanel/sdk/server';
import type { TicketDb } from './tables';

export const VIEW_PERMISSION = 'admin.tickets.view';
const ROOT_PERMISSION = 'admin.root';

export interface StaffRole {
  roleId: number;
  root: boolean;
}

export interface StaffMember {
  id: number;
  uuid: string;
  username: string;
  role_id: number;
  role_name: string | null;
  role_color: string | null;
}

/** Why an account may not be given a ticket (the PATCH answers 400 with it, naming assigned_to). */
export type AssigneeRefusal = 'UNKNOWN_USER' | 'NOT_STAFF' | 'ASSIGNEE_OUT_OF_SCOPE';

export class TicketStaff {
  constructor(
    private readonly auth: Pick<ServerPluginContext['auth'], 'userPermissions'>,
    private readonly db: TicketDb,
  ) {}

  /**
   * The roles that may work tickets. Plugins read a role's permissions through one of its accounts
   * (ctx.auth.userPermissions): a role without accounts has nobody to mail or assign anyway.
   */
  async roles(): Promise<StaffRole[]> {
    const members = await this.db
      .selectFrom('user_public')
      .select(['role_id', (eb) => eb.fn.min<number>('id').as('member')])
      .groupBy('role_id')
      .orderBy('role_id')
      .execute();
    const roles: StaffRole[] = [];
    for (const { role_id, member } of members) {
      const permissions = await this.auth.userPermissions(Number(member));
      if (hasPermission(permissions, VIEW_PERMISSION)) roles.push({ roleId: Number(role_id), root: permissions.includes(ROOT_PERMISSION) });
    }
    return roles;
  }

  /** Whether a staff role sees `departmentId`: admin.root always, another role unless it is limited to other departments. */
  async departmentCheck(departmentId: number): Promise<(role: StaffRole) => boolean> {
    const limits = await this.db.selectFrom('ticket_role_departments').select(['role_id', 'department_id']).execute();
    return ({ roleId, root }) => {
      if (root) return true;
      const limited = limits.filter((l) => Number(l.role_id) === roleId);
      return limited.length === 0 || limited.some((l) => Number(l.department_id) === departmentId);
    };
  }

  /** The staff, by name; only those who see `departmentId` when given, and of the roles `keep` passes. */
  async members(options: { departmentId?: number; keep?: (role: StaffRole) => boolean } = {}): Promise<StaffMember[]> {
    const sees = options.departmentId === undefined ? () => true : await this.departmentCheck(options.departmentId);
    const keep = options.keep ?? (() => true);
    const roleIds = (await this.roles()).filter((role) => keep(role) && sees(role)).map((r) => r.roleId);
    if (roleIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('user_public')
      .select(['id', 'uuid', 'username', 'username_lower', 'role_id', 'role_name', 'role_color'])
      .where('role_id', 'in', roleIds)
      .where('banned', '=', 0)
      .orderBy('username_lower')
      .orderBy('id')
      .execute();
    return rows.map((r) => ({ id: Number(r.id), uuid: r.uuid, username: r.username, role_id: Number(r.role_id), role_name: r.role_name, role_color: r.role_color }));
  }

  /** null when `userId` may be given a ticket of `departmentId` (the members() rule, for one account), else why not. */
  async refusal(userId: number, departmentId: number): Promise<AssigneeRefusal | null> {
    const account = await this.db.selectFrom('user_public').select(['role_id', 'banned']).where('id', '=', userId).executeTakeFirst();
    if (!account) return 'UNKNOWN_USER';
    const permissions = await this.auth.userPermissions(userId);
    if (Number(account.banned) === 1 || !hasPermission(permissions, VIEW_PERMISSION)) return 'NOT_STAFF';
    const sees = await this.departmentCheck(departmentId);
    return sees({ roleId: Number(account.role_id), root: permissions.includes(ROOT_PERMISSION) }) ? null : 'ASSIGNEE_OUT_OF_SCOPE';
  }
}
