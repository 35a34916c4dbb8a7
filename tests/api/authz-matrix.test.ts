// The authorisation matrix, generated from the route registry: every route under /api/admin must
// declare a permission, and for each one — anonymous → 401, a plain user (role 1) → 403, an
// admin-type role holding every other permission but not this one → 403, the same role with it
// → 2xx, a role-8 user (admin.root) → 2xx. A new admin route without a fixture below fails the
// test by name, so the matrix can never silently skip one.
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { hostPermissionCatalogue } from '../../server/auth/permission-catalogue';
import { emptyPluginArchive } from './plugin-archives';
import { J4rGuilds } from '../../plugins/earn-j4r/server/guilds';
import type { J4rTables } from '../../plugins/earn-j4r/server/tables';
import { RedeemCodes } from '../../plugins/earn-redeem/server/redeem-codes';
import type { RedeemTables } from '../../plugins/earn-redeem/server/tables';
import { keepAttachments } from '../../plugins/tickets/server/attachments';
import { Departments } from '../../plugins/tickets/server/departments';
import { Desk } from '../../plugins/tickets/server/desk';
import type { TicketTables } from '../../plugins/tickets/server/tables';
import type { ImageTables } from '../../plugins/images/server/tables';
import type { AnnouncementTables } from '../../plugins/announcements/server/tables';
import { httpError } from '../../sdk/server';
import { DiskFileStore } from '../../server/files/disk-store';
import { FileService } from '../../server/files/file-service';
import { S3FileStore } from '../../server/files/s3-store';
import { RouteRegistry, type RegisteredRoute } from '../../server/http/route-registry';
import { onSettingsScreen } from '../../server/settings/groups';
import { SecretBox } from '../../server/settings/secret-box';
import type { AbuseReviewTables } from '../../server/security/abuse-review-tables';
import type { ImageHostingTables } from '../../plugins/image-hosting/server/tables';
import { RedirectLinkStore } from '../../plugins/redirect-links/server/link-store';
import type { RedirectLinkTables } from '../../plugins/redirect-links/server/tables';
import type { CatalogTables } from '../../plugins/server-catalog/server/tables';
import type { PterodactylStandIn } from '../fixtures/pterodactyl-panel';
import { PASSWORD, pluginView, roleWith, setRolePermissions, testDialects, userWithRole, type SignedInUser, type TestPanel } from './harness';
import { multipartForm, type FormFile } from './multipart-form';
import { startTestS3, type TestS3 } from './s3-server';
import { builtServer, call as callAs, createBody, customer, startServersWorld, type ServersWorld } from './servers-world';

const ADMIN_PREFIX = '/api/admin/';

/** Admin routes that would be reachable without a permission check. */
export function unguardedAdminRoutes(routes: readonly RegisteredRoute[]): string[] {
  return routes.filter((r) => (r.url === '/api/admin' || r.url.startsWith(ADMIN_PREFIX)) && !r.permission).map((r) => `${r.method} ${r.url}`);
}

describe('unguardedAdminRoutes', () => {
  it('names every /api/admin route without a permission, and only those', () => {
    const registry = new RouteRegistry();
    registry.record({ method: 'GET', url: '/api/admin/things', config: { permission: 'admin.things.list' }, handler: () => undefined });
    registry.record({ method: 'POST', url: '/api/admin/things', config: { auth: true }, handler: () => undefined });
    registry.record({ method: 'DELETE', url: '/api/admin/things/:id', handler: () => undefined });
    registry.record({ method: 'GET', url: '/api/user/session', handler: () => undefined });
    expect(unguardedAdminRoutes(registry.list())).toEqual(['POST /api/admin/things', 'DELETE /api/admin/things/:id']);
  });
});

interface Call {
  url: string;
  payload?: Record<string, unknown>;
  /** an upload route's files, sent as a multipart form (field `files`) instead of a JSON payload */
  form?: FormFile[];
  /** the form's text fields beside its files */
  formFields?: Record<string, string>;
  /** a route taking one file as its whole body (a plugin archive) */
  raw?: { body: Buffer; type: string };
}

type Fixture = (panel: TestPanel, ctx: { target: SignedInUser; standIn: PterodactylStandIn; world: ServersWorld }) => Promise<Call>;

let roleCounter = 0;
const MATRIX_WEEK = { mon: { from: '09:00', to: '17:00' }, tue: null, wed: null, thu: null, fri: null, sat: null, sun: null };
const freshRole = (panel: TestPanel) => roleWith(panel, [], `matrix_${Date.now().toString(36)}_${++roleCounter}`);

/** A valid request for each admin route, so a passing permission check answers 2xx. */
const FIXTURES: Record<string, Fixture> = {
  'GET /api/admin/permissions': async () => ({ url: '/api/admin/permissions' }),
  'GET /api/admin/users': async () => ({ url: '/api/admin/users?search=ada&page=1&per_page=5' }),
  'GET /api/admin/users/:uuid': async (_p, { target }) => ({ url: `/api/admin/users/${target.uuid}` }),
  'PATCH /api/admin/users/:uuid': async (_p, { target }) => ({ url: `/api/admin/users/${target.uuid}`, payload: { ram: 2048, first_name: 'Matrix' } }),
  'DELETE /api/admin/users/:uuid': async (panel) => ({ url: `/api/admin/users/${(await userWithRole(panel, 1)).uuid}` }),
  'GET /api/admin/users/:uuid/activity': async (_p, { target }) => ({ url: `/api/admin/users/${target.uuid}/activity?page=1&per_page=10` }),
  'GET /api/admin/users/:uuid/flags': async (_p, { target }) => ({ url: `/api/admin/users/${target.uuid}/flags` }),
  'POST /api/admin/users/:uuid/flags/:id/clear': async (panel, { target }) => ({
    url: `/api/admin/users/${target.uuid}/flags/${await openFlag(panel, target.id)}/clear`,
    payload: { note: 'matrix' },
  }),
  'GET /api/admin/users/:uuid/transactions': async (_p, { target }) => ({ url: `/api/admin/users/${target.uuid}/transactions?page=1&per_page=10` }),
  'POST /api/admin/users/:uuid/coins': async (_p, { target }) => ({ url: `/api/admin/users/${target.uuid}/coins`, payload: { amount: 5, reason: 'matrix check' } }),
  'GET /api/admin/roles': async () => ({ url: '/api/admin/roles' }),
  'GET /api/admin/roles/:id': async () => ({ url: '/api/admin/roles/2' }),
  'POST /api/admin/roles': async () => ({ url: '/api/admin/roles', payload: { name: `matrix_new_${++roleCounter}`, real_name: 'Matrix', color: '#aabbcc' } }),
  'PATCH /api/admin/roles/:id': async (panel) => ({ url: `/api/admin/roles/${await freshRole(panel)}`, payload: { color: '#010203' } }),
  'DELETE /api/admin/roles/:id': async (panel) => ({ url: `/api/admin/roles/${await freshRole(panel)}` }),
  'GET /api/admin/roles/:id/permissions': async () => ({ url: '/api/admin/roles/2/permissions' }),
  'PUT /api/admin/roles/:id/permissions': async (panel) => ({ url: `/api/admin/roles/${await freshRole(panel)}/permissions`, payload: { permissions: [] } }),
  'GET /api/admin/settings': async () => ({ url: '/api/admin/settings' }),
  'PATCH /api/admin/settings': async () => ({ url: '/api/admin/settings', payload: { values: { company_name: 'Matrix Ltd' } } }),
  'GET /api/admin/plugins': async () => ({ url: '/api/admin/plugins' }),
  'GET /api/admin/plugins/:id': async () => ({ url: '/api/admin/plugins/legal' }),
  'POST /api/admin/plugins/:id/enable': async () => ({ url: '/api/admin/plugins/legal/enable' }),
  // each call a new version of the same plugin: the first installs it, the next ones update it
  'POST /api/admin/plugins/install': async () => ({
    url: '/api/admin/plugins/install',
    raw: { body: emptyPluginArchive('fx-matrix', `1.0.${++roleCounter}`), type: 'application/gzip' },
  }),
  'POST /api/admin/plugins/rescan': async () => ({ url: '/api/admin/plugins/rescan' }),
  'POST /api/admin/plugins/:id/remove': async (panel) => {
    const id = `fx-matrix-rm${++roleCounter}`;
    await panel.services.plugins.installPlugin(emptyPluginArchive(id));
    return { url: `/api/admin/plugins/${id}/remove`, payload: { drop_tables: false } };
  },
  'POST /api/admin/plugins/:id/disable': async () => ({ url: '/api/admin/plugins/legal/disable' }),
  'GET /api/admin/plugins/:id/config': async () => ({ url: '/api/admin/plugins/legal/config' }),
  'PATCH /api/admin/plugins/:id/config': async () => ({ url: '/api/admin/plugins/legal/config', payload: { values: { legal_terms_of_service: 'Be nice.' } } }),
  'GET /api/admin/health': async () => ({ url: '/api/admin/health' }),
  'GET /api/admin/mail-templates': async () => ({ url: '/api/admin/mail-templates?page=1&per_page=5' }),
  'GET /api/admin/mail-templates/:id': async (panel) => ({ url: `/api/admin/mail-templates/${await seededTemplateId(panel, 'verify')}` }),
  'POST /api/admin/mail-templates': async () => ({ url: '/api/admin/mail-templates', payload: { name: `matrix_${++roleCounter}`, subject: 'Hi', html: '<p>Hi</p>' } }),
  'PATCH /api/admin/mail-templates/:id': async (panel) => ({ url: `/api/admin/mail-templates/${await seededTemplateId(panel, 'welcome')}`, payload: { description: 'Matrix' } }),
  'DELETE /api/admin/mail-templates/:id': async (panel) => ({ url: `/api/admin/mail-templates/${await freshTemplate(panel)}` }),
  'POST /api/admin/mail-templates/:id/preview': async (panel) => ({ url: `/api/admin/mail-templates/${await seededTemplateId(panel, 'verify')}/preview`, payload: {} }),
  'POST /api/admin/sso/tokens': async (_p, { target }) => ({ url: '/api/admin/sso/tokens', payload: { user: target.uuid } }),
  'GET /api/admin/redirect-links': async () => ({ url: '/api/admin/redirect-links?page=1&per_page=5' }),
  'GET /api/admin/redirect-links/:id': async (panel) => ({ url: `/api/admin/redirect-links/${await freshRedirectLink(panel)}` }),
  'POST /api/admin/redirect-links': async () => ({ url: '/api/admin/redirect-links', payload: { name: 'Matrix', url: 'https://example.com/matrix' } }),
  'PATCH /api/admin/redirect-links/:id': async (panel) => ({ url: `/api/admin/redirect-links/${await freshRedirectLink(panel)}`, payload: { order: 3 } }),
  'DELETE /api/admin/redirect-links/:id': async (panel) => ({ url: `/api/admin/redirect-links/${await freshRedirectLink(panel)}` }),
  'GET /api/admin/images': async () => ({ url: '/api/admin/images?page=1&per_page=5&search=matrix' }),
  'GET /api/admin/images/limits': async () => ({ url: '/api/admin/images/limits' }),
  'GET /api/admin/images/:id': async (panel) => ({ url: `/api/admin/images/${await freshLibraryImage(panel)}` }),
  'POST /api/admin/images': async () => ({
    url: '/api/admin/images',
    form: [{ name: 'matrix.png', bytes: MATRIX_PNG, claim: 'image/png' }],
    formFields: { name: `Matrix ${++roleCounter}` },
  }),
  'DELETE /api/admin/images/:id': async (panel) => ({ url: `/api/admin/images/${await freshLibraryImage(panel)}` }),
  // backups: a job at a time, so each call that starts one first waits for the last to end
  'GET /api/admin/backups': async () => ({ url: '/api/admin/backups' }),
  'POST /api/admin/backups': async (panel) => {
    await backupsIdle(panel);
    return { url: '/api/admin/backups' };
  },
  'GET /api/admin/backup-jobs/current': async () => ({ url: '/api/admin/backup-jobs/current' }),
  'GET /api/admin/backup-jobs/:id': async (panel) => ({ url: `/api/admin/backup-jobs/${await backupJob(panel)}` }),
  'POST /api/admin/backups/:name/verify': async (panel) => ({ url: `/api/admin/backups/${await sharedBackup(panel)}/verify` }),
  'GET /api/admin/backups/:name/download': async (panel) => ({ url: `/api/admin/backups/${await sharedBackup(panel)}/download` }),
  'DELETE /api/admin/backups/:name': async (panel) => ({ url: `/api/admin/backups/${await freshBackup(panel)}` }),
  // a dry run: every check of the real thing (root, the panel's name, the caller's password), nothing restored
  'POST /api/admin/backups/:name/restore': async (panel) => ({
    url: `/api/admin/backups/${await sharedBackup(panel)}/restore`,
    payload: { panel_name: String(await panel.services.settings.get('app_name')), password: PASSWORD, dry_run: true },
  }),
  // off-site copies against a local S3 server: one transfer at a time, so each call that starts one waits for the last
  'GET /api/admin/cloud-backups': async () => ({ url: '/api/admin/cloud-backups' }),
  'GET /api/admin/cloud-backups/transfers/:id': async (panel) => ({ url: `/api/admin/cloud-backups/transfers/${(await offsiteArchive(panel)).transfer}` }),
  'POST /api/admin/cloud-backups/uploads': async (panel) => {
    await cloudIdle(panel);
    return { url: '/api/admin/cloud-backups/uploads', payload: { name: await localOnlyBackup(panel) } };
  },
  'POST /api/admin/cloud-backups/downloads': async (panel) => {
    const { name } = await offsiteArchive(panel);
    await panel.services.panelBackup.remove(name);
    return { url: '/api/admin/cloud-backups/downloads', payload: { name } };
  },
  'DELETE /api/admin/cloud-backups/remote/:name': async (panel) => ({ url: `/api/admin/cloud-backups/remote/${(await offsiteArchive(panel)).name}` }),
  'PUT /api/admin/cloud-backups/settings': async (panel) => ({ url: '/api/admin/cloud-backups/settings', payload: await cloudForm(panel) }),
  'POST /api/admin/cloud-backups/test': async (panel) => ({ url: '/api/admin/cloud-backups/test', payload: await cloudForm(panel) }),
  'GET /api/admin/image-reports': async () => ({ url: '/api/admin/image-reports?status=pending&page=1&per_page=5' }),
  'POST /api/admin/image-reports/:id/resolve': async (panel, { target }) => ({ url: `/api/admin/image-reports/${await freshImageReport(panel, target)}/resolve` }),
  'POST /api/admin/image-reports/:id/dismiss': async (panel, { target }) => ({ url: `/api/admin/image-reports/${await freshImageReport(panel, target)}/dismiss` }),
  'GET /api/admin/dashboard/overview': async () => ({ url: '/api/admin/dashboard/overview' }),
  'GET /api/admin/dashboard/updates': async () => ({ url: '/api/admin/dashboard/updates' }),
  'GET /api/admin/dashboard/logs': async () => ({ url: '/api/admin/dashboard/logs' }),
  'GET /api/admin/dashboard/analytics': async () => ({ url: '/api/admin/dashboard/analytics?days=30' }),
  'GET /api/admin/dashboard/support/pins/:pin': async () => ({ url: '/api/admin/dashboard/support/pins/123456' }),
  'GET /api/admin/dashboard/activity': async () => ({ url: '/api/admin/dashboard/activity?limit=5' }),
  'GET /api/admin/redeem-codes': async () => ({ url: '/api/admin/redeem-codes?page=1&per_page=5&search=matrix' }),
  'GET /api/admin/redeem-codes/:id': async (panel) => ({ url: `/api/admin/redeem-codes/${await freshRedeemCode(panel)}` }),
  'POST /api/admin/redeem-codes': async () => ({ url: '/api/admin/redeem-codes', payload: { code: `matrix-new-${++roleCounter}`, coins: 5, uses: 2 } }),
  'PATCH /api/admin/redeem-codes/:id': async (panel) => ({ url: `/api/admin/redeem-codes/${await freshRedeemCode(panel)}`, payload: { coins: 7 } }),
  'DELETE /api/admin/redeem-codes/:id': async (panel) => ({ url: `/api/admin/redeem-codes/${await freshRedeemCode(panel)}` }),
  'GET /api/admin/tickets': async () => ({ url: '/api/admin/tickets?page=1&per_page=5&search=matrix&status=open&unanswered=true&assignee=nobody&sort=priority' }),
  'GET /api/admin/tickets/counts': async () => ({ url: '/api/admin/tickets/counts' }),
  'GET /api/admin/tickets/departments': async () => ({ url: '/api/admin/tickets/departments' }),
  'GET /api/admin/tickets/assignees': async (panel) => ({ url: `/api/admin/tickets/assignees?department_id=${await freshDepartment(panel)}` }),
  'GET /api/admin/tickets/:id': async (panel, { target }) => ({ url: `/api/admin/tickets/${await freshTicket(panel, target)}` }),
  'GET /api/admin/tickets/:id/socket': async (panel, { target }) => ({ url: `/api/admin/tickets/${await freshTicket(panel, target)}/socket` }),
  'PATCH /api/admin/tickets/:id': async (panel, { target }) => ({
    url: `/api/admin/tickets/${await freshTicket(panel, target)}`,
    payload: { status: 'inprogress', priority: 'high' },
  }),
  'POST /api/admin/tickets/:id/replies': async (panel, { target }) => ({
    url: `/api/admin/tickets/${await freshTicket(panel, target)}/replies`,
    payload: { message: 'Matrix answer' },
  }),
  'POST /api/admin/tickets/:id/notes': async (panel, { target }) => ({ url: `/api/admin/tickets/${await freshTicket(panel, target)}/notes`, payload: { message: 'Matrix note' } }),
  'GET /api/admin/tickets/:id/customer': async (panel, { target }) => ({ url: `/api/admin/tickets/${await freshTicket(panel, target)}/customer` }),
  'POST /api/admin/tickets/:id/customer/pin': async (panel, { target }) => ({
    url: `/api/admin/tickets/${await freshTicket(panel, target)}/customer/pin`,
    payload: { pin: '123456' },
  }),
  'GET /api/admin/announcements': async () => ({ url: '/api/admin/announcements?page=1&per_page=5&search=matrix&status=draft' }),
  'GET /api/admin/announcements/:id': async (panel) => ({ url: `/api/admin/announcements/${await freshAnnouncement(panel)}` }),
  'POST /api/admin/announcements': async () => ({ url: '/api/admin/announcements', payload: { title: 'Matrix', body: 'Matrix **news**', severity: 'info' } }),
  'POST /api/admin/announcements/preview': async () => ({ url: '/api/admin/announcements/preview', payload: { body: '# Matrix' } }),
  'PATCH /api/admin/announcements/:id': async (panel) => ({ url: `/api/admin/announcements/${await freshAnnouncement(panel)}`, payload: { pinned: true } }),
  'DELETE /api/admin/announcements/:id': async (panel) => ({ url: `/api/admin/announcements/${await freshAnnouncement(panel)}` }),
  'POST /api/admin/announcements/:id/images': async (panel) => ({
    url: `/api/admin/announcements/${await freshAnnouncement(panel)}/images`,
    form: [{ name: 'matrix.png', bytes: MATRIX_PNG, claim: 'image/png' }],
  }),
  'DELETE /api/admin/announcements/:id/images/:key': async (panel) => {
    const { id, key } = await freshAnnouncementImage(panel);
    return { url: `/api/admin/announcements/${id}/images/${key}` };
  },
  'GET /api/admin/tickets/attachments/limits': async () => ({ url: '/api/admin/tickets/attachments/limits' }),
  'GET /api/admin/tickets/:id/attachments/:key': async (panel, { target }) => {
    const { ticketId, key } = await freshAttachment(panel, target);
    return { url: `/api/admin/tickets/${ticketId}/attachments/${key}` };
  },
  'GET /api/admin/departments': async () => ({ url: '/api/admin/departments' }),
  'GET /api/admin/departments/:id': async (panel) => ({ url: `/api/admin/departments/${await freshDepartment(panel)}` }),
  'POST /api/admin/departments': async () => ({
    url: '/api/admin/departments',
    payload: { name: `Matrix ${++roleCounter}`, description: 'matrix', hours: { time_zone: 'UTC', days: MATRIX_WEEK }, hours_note: 'matrix' },
  }),
  'PATCH /api/admin/departments/:id': async (panel) => ({ url: `/api/admin/departments/${await freshDepartment(panel)}`, payload: { enabled: false } }),
  'DELETE /api/admin/departments/:id': async (panel) => ({ url: `/api/admin/departments/${await freshDepartment(panel)}` }),
  'GET /api/admin/departments/mail-roles': async () => ({ url: '/api/admin/departments/mail-roles' }),
  // a role no account has: the matrix's calls change no one's mail
  'PUT /api/admin/departments/mail-roles/:id': async () => ({ url: '/api/admin/departments/mail-roles/999999', payload: { mail: true } }),
  // a public address (saving resolves nothing for an IP literal; the matrix never sends an event)
  'GET /api/admin/departments/:id/webhook': async (panel) => ({ url: `/api/admin/departments/${await freshDepartment(panel)}/webhook` }),
  'PUT /api/admin/departments/:id/webhook': async (panel) => ({
    url: `/api/admin/departments/${await freshDepartment(panel)}/webhook`,
    payload: { url: 'https://203.0.114.1/hook', kind: 'discord', enabled: false, events: [] },
  }),
  'DELETE /api/admin/departments/:id/webhook': async (panel) => ({ url: `/api/admin/departments/${await freshWebhook(panel)}/webhook` }),
  'POST /api/admin/departments/:id/webhook/test': async (panel) => ({ url: `/api/admin/departments/${await freshWebhook(panel)}/webhook/test` }),
  'GET /api/admin/j4r/guilds': async () => ({ url: '/api/admin/j4r/guilds' }),
  'POST /api/admin/j4r/guilds': async () => ({
    url: '/api/admin/j4r/guilds',
    payload: { guild_id: matrixSnowflake(), name: 'Matrix', invite_url: 'https://discord.gg/matrix', coins: 5 },
  }),
  'PATCH /api/admin/j4r/guilds/:id': async (panel) => ({ url: `/api/admin/j4r/guilds/${await freshJ4rGuild(panel)}`, payload: { coins: 7 } }),
  'DELETE /api/admin/j4r/guilds/:id': async (panel) => ({ url: `/api/admin/j4r/guilds/${await freshJ4rGuild(panel)}` }),
  'POST /api/admin/pterodactyl/test': async () => ({ url: '/api/admin/pterodactyl/test', payload: {} }),
  // the catalogue: each create links a panel object no other call linked
  'GET /api/admin/locations': async () => ({ url: '/api/admin/locations?page=1&per_page=5&search=matrix' }),
  'GET /api/admin/locations/:id': async (panel) => ({ url: `/api/admin/locations/${await freshLocation(panel)}` }),
  'POST /api/admin/locations': async (_p, { standIn }) => ({
    url: '/api/admin/locations',
    payload: { name: 'Matrix', panel_location_id: standIn.addLocation({ short: `mx${++roleCounter}` }).id },
  }),
  'PATCH /api/admin/locations/:id': async (panel) => ({ url: `/api/admin/locations/${await freshLocation(panel)}`, payload: { slots: 3 } }),
  'DELETE /api/admin/locations/:id': async (panel) => ({ url: `/api/admin/locations/${await freshLocation(panel)}` }),
  'GET /api/admin/egg-categories': async () => ({ url: '/api/admin/egg-categories?page=1&per_page=5' }),
  'GET /api/admin/egg-categories/:id': async (panel) => ({ url: `/api/admin/egg-categories/${await freshCategory(panel)}` }),
  'POST /api/admin/egg-categories': async (_p, { standIn }) => ({
    url: '/api/admin/egg-categories',
    payload: { name: 'Matrix', panel_nest_id: standIn.addNest({ name: `Matrix ${++roleCounter}` }).id },
  }),
  'PATCH /api/admin/egg-categories/:id': async (panel) => ({ url: `/api/admin/egg-categories/${await freshCategory(panel)}`, payload: { name: 'Matrix renamed' } }),
  'DELETE /api/admin/egg-categories/:id': async (panel) => ({ url: `/api/admin/egg-categories/${await freshCategory(panel)}` }),
  'GET /api/admin/eggs': async () => ({ url: '/api/admin/eggs?page=1&per_page=5' }),
  'GET /api/admin/eggs/category-choices': async () => ({ url: '/api/admin/eggs/category-choices' }),
  'GET /api/admin/eggs/:id': async (panel) => ({ url: `/api/admin/eggs/${await freshEgg(panel)}` }),
  'POST /api/admin/eggs': async (panel, { standIn }) => {
    const nest = standIn.addNest({ name: `Matrix ${++roleCounter}` });
    const egg = standIn.addEgg(nest.id, { name: 'Matrix egg' });
    return { url: '/api/admin/eggs', payload: { name: 'Matrix egg', category_id: await freshCategory(panel, nest.id), panel_egg_id: egg.id } };
  },
  'PATCH /api/admin/eggs/:id': async (panel) => ({ url: `/api/admin/eggs/${await freshEgg(panel)}`, payload: { enabled: true } }),
  'DELETE /api/admin/eggs/:id': async (panel) => ({ url: `/api/admin/eggs/${await freshEgg(panel)}` }),
  'POST /api/admin/catalog/sync/locations': async () => ({ url: '/api/admin/catalog/sync/locations' }),
  'POST /api/admin/catalog/sync/categories': async () => ({ url: '/api/admin/catalog/sync/categories' }),
  'POST /api/admin/catalog/sync/eggs': async () => ({ url: '/api/admin/catalog/sync/eggs' }),
  'GET /api/admin/catalog/panel-objects/locations': async () => ({ url: '/api/admin/catalog/panel-objects/locations' }),
  'GET /api/admin/catalog/panel-objects/nests': async () => ({ url: '/api/admin/catalog/panel-objects/nests' }),
  'GET /api/admin/catalog/panel-objects/eggs': async () => ({ url: '/api/admin/catalog/panel-objects/eggs' }),
  // hosting: servers built through the queue against the stand-in, one per call
  'GET /api/admin/servers': async () => ({ url: '/api/admin/servers?search=matrix&page=1' }),
  'POST /api/admin/servers/:id/suspend': async (_p, { world }) => ({ url: `/api/admin/servers/${await freshServer(world)}/suspend` }),
  'POST /api/admin/servers/:id/unsuspend': async (_p, { world }) => ({ url: `/api/admin/servers/${await freshServer(world, true)}/unsuspend` }),
  'POST /api/admin/servers/:id/delete': async (_p, { world }) => ({ url: `/api/admin/servers/${await freshServer(world)}/delete` }),
  'GET /api/admin/server-queue': async () => ({ url: '/api/admin/server-queue?status=pending&page=1' }),
  'POST /api/admin/server-queue': async (_p, { world }) => ({
    url: '/api/admin/server-queue',
    payload: { user_uuid: (await customer(world)).uuid, ...createBody(world, { name: 'Matrix' }) },
  }),
  'GET /api/admin/server-queue/logs': async () => ({ url: '/api/admin/server-queue/logs?page=1' }),
  'GET /api/admin/server-queue/:id': async (_p, { world }) => ({ url: `/api/admin/server-queue/${await freshEntry(world)}` }),
  'POST /api/admin/server-queue/:id/delete': async (_p, { world }) => ({ url: `/api/admin/server-queue/${await freshEntry(world)}/delete` }),
};

async function freshServer(world: ServersWorld, suspended = false): Promise<number> {
  const id = await builtServer(world, await customer(world), { name: 'Matrix' });
  if (suspended) expect((await callAs(world, world.admin, 'POST', `/api/admin/servers/${id}/suspend`)).statusCode).toBe(200);
  return id;
}

/** a pending queue entry of a new customer */
async function freshEntry(world: ServersWorld): Promise<number> {
  const res = await callAs(world, await customer(world), 'POST', '/api/user/server/create', createBody(world, { name: 'Matrix' }));
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { entry: { id: number } }).entry.id;
}

/** catalogue rows written directly, linked to panel ids far from the stand-in's (edits keep the link) */
const catalogDb = (panel: TestPanel) => panel.services.database.db.withTables<CatalogTables>();
const catalogRow = () => ({ description: null, vip_only: 0, enabled: 0, image: null, created_at: new Date().toISOString(), updated_at: new Date().toISOString() });

async function freshLocation(panel: TestPanel): Promise<number> {
  const panelId = 500_000 + ++roleCounter;
  await catalogDb(panel)
    .insertInto('catalog_locations')
    .values({ ...catalogRow(), name: 'Matrix', panel_location_id: panelId, slots: 1, status: 'online' })
    .execute();
  return Number((await catalogDb(panel).selectFrom('catalog_locations').select('id').where('panel_location_id', '=', panelId).executeTakeFirstOrThrow()).id);
}

async function freshCategory(panel: TestPanel, panelNestId = 500_000 + ++roleCounter): Promise<number> {
  await catalogDb(panel)
    .insertInto('catalog_egg_categories')
    .values({ ...catalogRow(), name: 'Matrix', panel_nest_id: panelNestId })
    .execute();
  return Number((await catalogDb(panel).selectFrom('catalog_egg_categories').select('id').where('panel_nest_id', '=', panelNestId).executeTakeFirstOrThrow()).id);
}

async function freshEgg(panel: TestPanel): Promise<number> {
  const panelNestId = 500_000 + ++roleCounter;
  const categoryId = await freshCategory(panel, panelNestId);
  const panelEggId = 500_000 + ++roleCounter;
  await catalogDb(panel)
    .insertInto('catalog_eggs')
    .values({ ...catalogRow(), name: 'Matrix', category_id: categoryId, panel_nest_id: panelNestId, panel_egg_id: panelEggId })
    .execute();
  return Number((await catalogDb(panel).selectFrom('catalog_eggs').select('id').where('panel_egg_id', '=', panelEggId).executeTakeFirstOrThrow()).id);
}

/** An open review flag on `userId` (each call a new one, so every allowed clear answers 2xx). */
async function openFlag(panel: TestPanel, userId: number): Promise<number> {
  const db = panel.services.database.db.withTables<AbuseReviewTables>();
  const now = new Date().toISOString();
  const marker = `matrix_${++roleCounter}`;
  await db
    .insertInto('account_flags')
    .values({
      user_id: userId,
      kind: 'alt',
      reason: 'shared_ip',
      evidence: '[]',
      ip: null,
      detail: marker,
      open_key: null,
      created_at: now,
      updated_at: now,
      cleared_at: null,
      cleared_by: null,
      clear_note: null,
    })
    .execute();
  return (await db.selectFrom('account_flags').select('id').where('detail', '=', marker).executeTakeFirstOrThrow()).id;
}

/** A new redeem code (each call its own, so every allowed delete answers 2xx). */
async function freshRedeemCode(panel: TestPanel): Promise<number> {
  const codes = new RedeemCodes(pluginView(panel).withTables<RedeemTables>(), httpError);
  return (await codes.create({ code: `matrix-${++roleCounter}`, coins: 1, uses: 1, enabled: true, expires_at: null }, null)).id;
}

/** A new ticket department (each call its own, so every allowed delete answers 2xx). */
async function freshDepartment(panel: TestPanel): Promise<number> {
  const departments = new Departments(pluginView(panel).withTables<TicketTables>(), panel.services.database.dialect, httpError, () => new Date().toISOString());
  return (await departments.create({ name: `Matrix ${++roleCounter}`, description: '', enabled: true, role_ids: [] })).id;
}

/**
 * A new department with a webhook to a closed port of this host (the test route answers 200 with
 * ok: false at once), which the tickets_webhooks_allow_private setting lets through.
 */
async function freshWebhook(panel: TestPanel): Promise<number> {
  const department = await freshDepartment(panel);
  const now = new Date().toISOString();
  await pluginView(panel)
    .withTables<TicketTables>()
    .insertInto('ticket_department_webhooks')
    .values({
      department_id: department,
      url: new SecretBox(panel.services.config.secretKey).seal('http://127.0.0.1:9/hook'),
      kind: 'discord',
      secret: null,
      enabled: 0,
      events: '',
      last_status: null,
      last_at: null,
      last_error: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await panel.services.settings.set('tickets_webhooks_allow_private', true);
  return department;
}

/** A new open ticket of `customer` (the open-ticket limit is the route's rule, not this fixture's; creating assigns nobody). */
async function freshTicket(panel: TestPanel, customer: SignedInUser): Promise<number> {
  const desk = new Desk(
    pluginView(panel).withTables<TicketTables>(),
    panel.services.database.dialect,
    httpError,
    () => Date.now(),
    async () => null,
  );
  const input = { department_id: await freshDepartment(panel), subject: 'Matrix ticket', priority: 'low', message: 'Matrix' } as const;
  return desk.create(customer.id, input, { maxOpen: Number.MAX_SAFE_INTEGER, reopenDays: 7, autocloseDays: 7 });
}

/** A new ticket of `customer` whose first message has a file attached (kept in the panel's own file store). */
async function freshAttachment(panel: TestPanel, customer: SignedInUser): Promise<{ ticketId: number; key: string }> {
  const ticketId = await freshTicket(panel, customer);
  const config = panel.services.config.files;
  const files = new FileService(config.store === 's3' ? new S3FileStore(config) : new DiskFileStore(config.dir));
  const file = await files.store(Readable.from([Buffer.from('matrix')]), 'matrix.txt', { maxBytes: 100, types: ['text/plain'] });
  const db = pluginView(panel).withTables<TicketTables>();
  const message = await db.selectFrom('ticket_messages').select('id').where('ticket_id', '=', ticketId).executeTakeFirstOrThrow();
  await keepAttachments(db, ticketId, Number(message.id), [file], new Date().toISOString());
  return { ticketId, key: file.key };
}

/** a 1×1 PNG */
const MATRIX_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** A new announcement draft (each call its own, so every allowed delete answers 2xx). */
async function freshAnnouncement(panel: TestPanel): Promise<number> {
  const now = new Date().toISOString();
  const db = pluginView(panel).withTables<AnnouncementTables>();
  const row = {
    title: `Matrix ${++roleCounter}`,
    summary: '',
    body: 'Matrix',
    tags: '',
    severity: 'info',
    pinned: 0,
    audience: '',
    publish_at: null,
    expire_at: null,
    author_id: null,
    created_at: now,
    updated_at: now,
  } as const;
  await db.insertInto('announcements').values(row).execute();
  return Number((await db.selectFrom('announcements').select('id').where('title', '=', row.title).executeTakeFirstOrThrow()).id);
}

/** A new announcement with an image row (its key names no stored file: removing it deletes nothing more). */
async function freshAnnouncementImage(panel: TestPanel): Promise<{ id: number; key: string }> {
  const id = await freshAnnouncement(panel);
  const key = `matrixImage${String(++roleCounter).padStart(11, '0')}`;
  await pluginView(panel)
    .withTables<AnnouncementTables>()
    .insertInto('announcement_images')
    .values({ announcement_id: id, file_key: key, name: 'matrix.png', type: 'image/png', size: 1, created_at: new Date().toISOString() })
    .execute();
  return { id, key };
}

/** A new library image row (its key names no stored file: deleting it removes nothing more; nothing uses it). */
/** the matrix's own root session on each panel, to follow the backups plugin's jobs */
const backupWatchers = new WeakMap<TestPanel, SignedInUser>();
const sharedBackups = new WeakMap<TestPanel, string>();

async function backupWatcher(panel: TestPanel): Promise<SignedInUser> {
  let watcher = backupWatchers.get(panel);
  if (!watcher) {
    watcher = await userWithRole(panel, 8);
    backupWatchers.set(panel, watcher);
  }
  return watcher;
}

/** waits until no backups job runs (the plugin refuses a second one with 409) */
async function backupsIdle(panel: TestPanel): Promise<void> {
  const { cookie } = await backupWatcher(panel);
  for (let attempt = 0; attempt < 3000; attempt++) {
    const res = await panel.app.inject({ url: '/api/admin/backup-jobs/current', headers: { cookie } });
    if ((res.json() as { job: { state: string } | null }).job?.state !== 'running') return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('a backups job is still running after a minute');
}

/** a new archive of the panel, made by the core's engine (the plugin's routes take it by name) */
async function freshBackup(panel: TestPanel): Promise<string> {
  await backupsIdle(panel);
  return (await panel.services.panelBackup.create('manual')).name;
}

/** one archive for the routes that only read it */
async function sharedBackup(panel: TestPanel): Promise<string> {
  let name = sharedBackups.get(panel);
  if (!name) {
    name = await freshBackup(panel);
    sharedBackups.set(panel, name);
  }
  await backupsIdle(panel);
  return name;
}

/** the S3 server the off-site copies go to, one for every panel of the file (each in its own folder) */
let matrixS3: Promise<TestS3> | null = null;
afterAll(async () => {
  await (await matrixS3)?.close();
});

/** the off-site copies' connection form for `panel`, saved once so the routes that use the bucket answer 2xx */
const cloudForms = new WeakMap<TestPanel, Record<string, unknown>>();
async function cloudForm(panel: TestPanel): Promise<Record<string, unknown>> {
  let form = cloudForms.get(panel);
  if (!form) {
    matrixS3 ??= startTestS3('matrix-offsite');
    const s3 = await matrixS3;
    form = {
      endpoint: s3.env.FILES_S3_ENDPOINT,
      region: 'us-east-1',
      bucket: 'matrix-offsite',
      access_key_id: 'S3RVER',
      secret_access_key: 'S3RVER',
      prefix: `panel-${++roleCounter}-${Date.now().toString(36)}/`,
      force_path_style: true,
      auto_upload: false,
      keep: 1000,
    };
    const res = await panel.app.inject({ method: 'PUT', url: '/api/admin/cloud-backups/settings', payload: form, headers: { cookie: (await backupWatcher(panel)).cookie } });
    expect(res.statusCode, res.body).toBe(200);
    cloudForms.set(panel, form);
  }
  return form;
}

/** waits until no upload or download runs (the plugin refuses a second one with 409) */
async function cloudIdle(panel: TestPanel): Promise<void> {
  await cloudForm(panel);
  const { cookie } = await backupWatcher(panel);
  for (let attempt = 0; attempt < 3000; attempt++) {
    const res = await panel.app.inject({ url: '/api/admin/cloud-backups', headers: { cookie } });
    if ((res.json() as { transfer: { state: string } | null }).transfer?.state !== 'running') return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('an off-site transfer is still running after a minute');
}

/**
 * A new archive that is not off-site yet. The engine names archives by the second: one made in the
 * second of an archive that was uploaded and then removed here takes that name again, so such a
 * one is left here and another is made.
 */
async function localOnlyBackup(panel: TestPanel): Promise<string> {
  const res = await panel.app.inject({ url: '/api/admin/cloud-backups', headers: { cookie: (await backupWatcher(panel)).cookie } });
  const remote = new Set((res.json() as { remote: { data: { name: string }[] } }).remote.data.map((archive) => archive.name));
  for (;;) {
    const name = await freshBackup(panel);
    if (!remote.has(name)) return name;
  }
}

/** a new archive uploaded off-site (and still local), with the id of its upload */
async function offsiteArchive(panel: TestPanel): Promise<{ name: string; transfer: string }> {
  await cloudIdle(panel);
  const name = await localOnlyBackup(panel);
  const res = await panel.app.inject({ method: 'POST', url: '/api/admin/cloud-backups/uploads', payload: { name }, headers: { cookie: (await backupWatcher(panel)).cookie } });
  expect(res.statusCode, res.body).toBe(202);
  await cloudIdle(panel);
  return { name, transfer: (res.json() as { transfer: { id: string } }).transfer.id };
}

/** the id of a job the plugin knows (it makes an archive) */
async function backupJob(panel: TestPanel): Promise<string> {
  await backupsIdle(panel);
  const res = await panel.app.inject({ method: 'POST', url: '/api/admin/backups', headers: { cookie: (await backupWatcher(panel)).cookie } });
  expect(res.statusCode, res.body).toBe(202);
  return (res.json() as { job: { id: string } }).job.id;
}

async function freshLibraryImage(panel: TestPanel): Promise<number> {
  const name = `Matrix image ${++roleCounter}`;
  const db = pluginView(panel).withTables<ImageTables>();
  const row = {
    name,
    name_key: name.toLowerCase(),
    file_key: `matrixLib${String(roleCounter).padStart(13, '0')}`,
    type: 'image/png',
    size: 1,
    width: 1,
    height: 1,
    created_by: null,
    created_at: new Date().toISOString(),
  };
  await db.insertInto('image_library').values(row).execute();
  return Number((await db.selectFrom('image_library').select('id').where('name_key', '=', row.name_key).executeTakeFirstOrThrow()).id);
}

/** A Discord guild id no other call used. */
const matrixSnowflake = () => `8${String(Date.now()).slice(-9)}${String(++roleCounter).padStart(8, '0')}`;

/** A new join-for-rewards guild (each call its own, so every allowed delete answers 2xx). */
async function freshJ4rGuild(panel: TestPanel): Promise<number> {
  const { database } = panel.services;
  const guilds = new J4rGuilds(pluginView(panel).withTables<J4rTables>(), database.dialect, httpError);
  return (await guilds.create({ guild_id: matrixSnowflake(), name: 'Matrix', invite_url: 'https://discord.gg/matrix', icon_url: null, coins: 1, enabled: true })).id;
}

async function seededTemplateId(panel: TestPanel, name: string): Promise<number> {
  return (await panel.services.database.db.selectFrom('mail_templates').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
}

/** A pending report of a new hosted image of `owner` (its key names no stored file: resolving deletes only the row). */
async function freshImageReport(panel: TestPanel, owner: SignedInUser): Promise<number> {
  const db = pluginView(panel).withTables<ImageHostingTables>();
  const now = new Date().toISOString();
  const name = `mx${String(++roleCounter).padStart(14, '0')}`;
  await db
    .insertInto('image_hosting_images')
    .values({ user_id: owner.id, file_key: `matrixHosted${String(roleCounter).padStart(10, '0')}`, name, original_name: 'matrix.png', type: 'image/png', size: 1, created_at: now })
    .execute();
  const image = await db.selectFrom('image_hosting_images').select('id').where('name', '=', name).executeTakeFirstOrThrow();
  await db
    .insertInto('image_hosting_reports')
    .values({ image_id: image.id, image_name: name, reason: 'spam', details: '', reporter_ip: null, status: 'pending', handled_by: null, handled_at: null, created_at: now })
    .execute();
  return Number((await db.selectFrom('image_hosting_reports').select('id').where('image_name', '=', name).executeTakeFirstOrThrow()).id);
}

async function freshRedirectLink(panel: TestPanel): Promise<number> {
  const { database } = panel.services;
  return (
    await new RedirectLinkStore(pluginView(panel).withTables<RedirectLinkTables>(), database.dialect).create({
      name: `matrix_${++roleCounter}`,
      url: 'https://example.com',
      icon: null,
      order: 0,
    })
  ).id;
}

async function freshTemplate(panel: TestPanel): Promise<number> {
  const name = `matrix_del_${++roleCounter}`;
  const now = new Date().toISOString();
  await panel.services.database.db.insertInto('mail_templates').values({ name, subject: 's', html: 'h', text: '', created_at: now, updated_at: now }).execute();
  return seededTemplateId(panel, name);
}

/**
 * A websocket route is asked the way a browser asks it, by an upgrade on the listening panel: 101 when
 * the socket opened (its "2xx"), else the status and body the guards refused it with.
 */
async function upgrade(app: FastifyInstance, url: string, cookie: string | null): Promise<{ statusCode: number; body: string }> {
  if (!app.server.listening) await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return new Promise((resolve) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}${url}`, { headers: cookie ? { cookie } : {} });
    socket.on('error', (error) => resolve({ statusCode: 0, body: error.message }));
    socket.once('open', () => {
      socket.close();
      resolve({ statusCode: 101, body: '' });
    });
    socket.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ statusCode: response.statusCode ?? 0, body }));
    });
  });
}

/** The admin-type role the matrix grants and withholds permissions on (spec §9: 2–8 are admin-type). */
const ADMIN_TYPE_ROLE = 4;

describe.each(testDialects())('authz matrix on %s', (dialect) => {
  let panel: TestPanel;
  let plain: SignedInUser;
  let staff: SignedInUser;
  let root: SignedInUser;
  let target: SignedInUser;
  let adminRoutes: RegisteredRoute[];
  let world: ServersWorld;

  beforeAll(async () => {
    // the routes that ask the panel answer 2xx only with one configured (and a catalogue to build on)
    world = await startServersWorld(dialect);
    panel = world.panel;
    [plain, staff, root, target] = [await userWithRole(panel, 1), await userWithRole(panel, ADMIN_TYPE_ROLE), await userWithRole(panel, 8), await userWithRole(panel, 1)];
    adminRoutes = panel.services.routes.under(ADMIN_PREFIX).filter((r) => r.method !== 'HEAD');
  });
  afterAll(async () => {
    await world?.close();
  });

  const call = async (route: RegisteredRoute, cookie: string | null) => {
    const { url, payload, form, formFields, raw } = await FIXTURES[`${route.method} ${route.url}`](panel, { target, standIn: world.ptero, world });
    if (route.websocket) return upgrade(panel.app, url, cookie);
    // a form is built for each call: its body is read once
    const multipart = form ? await multipartForm(form, formFields ?? {}, 'files') : null;
    const body = raw
      ? { payload: raw.body, headers: { 'content-type': raw.type } }
      : multipart
        ? { payload: multipart.payload, headers: multipart.headers }
        : { payload, headers: {} };
    return panel.app.inject({ method: route.method as 'GET', url, payload: body.payload, headers: { ...body.headers, ...(cookie ? { cookie } : {}) } });
  };

  it('finds the admin routes in the registry', () => {
    expect(adminRoutes.length).toBeGreaterThanOrEqual(Object.keys(FIXTURES).length);
  });

  it('has a permission on every /api/admin route', () => {
    const unguarded = unguardedAdminRoutes(panel.services.routes.list());
    expect(unguarded, `admin routes without a permission: ${unguarded.join(', ')}`).toEqual([]);
  });

  it('has a fixture for every admin route, and a catalogued permission', () => {
    const missing = adminRoutes.map((r) => `${r.method} ${r.url}`).filter((key) => !FIXTURES[key]);
    expect(missing, `admin routes without a matrix fixture: ${missing.join(', ')}`).toEqual([]);
    // the core's permissions and every plugin's declared ones (earn-redeem's admin.redeem.codes.*)
    const catalogued = new Set(hostPermissionCatalogue(panel.services.plugins).map((p) => p.name));
    const uncatalogued = adminRoutes.filter((r) => !catalogued.has(r.permission ?? '')).map((r) => `${r.method} ${r.url} (${r.permission})`);
    expect(uncatalogued, `admin routes guarded by a permission missing from the catalogue: ${uncatalogued.join(', ')}`).toEqual([]);
  });

  it('answers every admin route by the matrix', async () => {
    const everyOther = (permission: string) =>
      hostPermissionCatalogue(panel.services.plugins)
        .map((p) => p.name)
        .filter((p) => p !== permission && p !== 'admin.root');
    const failures: string[] = [];
    const expectStatus = (route: RegisteredRoute, who: string, status: number, ok: (s: number) => boolean, body: string) => {
      if (!ok(status)) failures.push(`${route.method} ${route.url} as ${who}: ${status} ${body.slice(0, 200)}`);
    };
    for (const route of adminRoutes) {
      const permission = route.permission!;
      const allowed = (s: number) => (route.websocket ? s === 101 : s >= 200 && s < 300);
      let res = await call(route, null);
      expectStatus(route, 'anonymous', res.statusCode, (s) => s === 401, res.body);
      res = await call(route, plain.cookie);
      expectStatus(route, 'role 1', res.statusCode, (s) => s === 403, res.body);

      await setRolePermissions(panel, ADMIN_TYPE_ROLE, everyOther(permission));
      res = await call(route, staff.cookie);
      expectStatus(route, `role ${ADMIN_TYPE_ROLE} without ${permission}`, res.statusCode, (s) => s === 403, res.body);

      await setRolePermissions(panel, ADMIN_TYPE_ROLE, [permission]);
      res = await call(route, staff.cookie);
      expectStatus(route, `role ${ADMIN_TYPE_ROLE} with ${permission}`, res.statusCode, allowed, res.body);

      res = await call(route, root.cookie);
      expectStatus(route, 'role 8 (admin.root)', res.statusCode, allowed, res.body);
    }
    await setRolePermissions(panel, ADMIN_TYPE_ROLE, []);
    await panel.services.plugins.setEnabled('legal', true);
    expect(failures).toEqual([]);
    // five requests to every admin route, some installing a plugin: more than the default on a loaded machine
  }, 180_000);

  it('lets only admin.root change a root-only setting, core or plugin, whatever else a role holds', async () => {
    const rootOnly = panel.services.settings.declarations().filter(({ def }) => def.rootOnly === true);
    expect(rootOnly.map(({ def }) => def.key)).toEqual(expect.arrayContaining(['custom_js', 'app_url']));
    await setRolePermissions(
      panel,
      ADMIN_TYPE_ROLE,
      hostPermissionCatalogue(panel.services.plugins)
        .map((p) => p.name)
        .filter((p) => p !== 'admin.root'),
    );
    const failures: string[] = [];
    for (const { def, owner } of rootOnly) {
      // the settings screen holds the core's and the panel-wide ones; a plugin's others are on its config
      const url = onSettingsScreen(owner, def) ? '/api/admin/settings' : `/api/admin/plugins/${owner}/config`;
      // the stored value written back: the answer turns on who asks, not on what would change
      const payload = { values: { [def.key]: await panel.services.settings.get(def.key) } };
      const asStaff = await panel.app.inject({ method: 'PATCH', url, payload, headers: { cookie: staff.cookie } });
      const error = asStaff.statusCode === 403 ? (asStaff.json() as { error: { code: string; field?: string } }).error : null;
      if (error?.code !== 'ROOT_ONLY_SETTING' || error.field !== def.key)
        failures.push(`${def.key} as role ${ADMIN_TYPE_ROLE} without admin.root: ${asStaff.statusCode} ${asStaff.body.slice(0, 200)}`);
      const asRoot = await panel.app.inject({ method: 'PATCH', url, payload, headers: { cookie: root.cookie } });
      if (asRoot.statusCode !== 200) failures.push(`${def.key} as role 8 (admin.root): ${asRoot.statusCode} ${asRoot.body.slice(0, 200)}`);
    }
    await setRolePermissions(panel, ADMIN_TYPE_ROLE, []);
    expect(failures).toEqual([]);
  });
});
