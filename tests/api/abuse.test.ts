// Anti-abuse (block_alts, block_vpn): sign-ins are flagged for review, never refused. Alts are linked
// by a shared browser (op_device cookie) or by one IP address within a window; VPN addresses come from
// a checker HTTP API (tests/fixtures/vpn-checker.ts stands in for it) and a checker that is down fails
// open with a vpn_unchecked flag. Bypass permissions, the trusted-proxy rule for the client IP, and
// the admin side: flags on the user list and page, clearing with admin.users.edit, audit entries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { AbuseReviewTables } from '../../server/security/abuse-review-tables';
import { isPublicAddress, VpnChecker } from '../../server/security/vpn-checker';
import { startVpnCheckerStandIn, type VpnCheckerStandIn } from '../fixtures/vpn-checker';
import { newAccount, PASSWORD, roleWith, setCookies, startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from './harness';

describe('isPublicAddress', () => {
  it('tells public addresses from loopback, private, link-local and carrier-NAT ones', () => {
    for (const ip of ['8.8.8.8', '203.0.113.7', '2001:4860:4860::8888', '::ffff:8.8.4.4']) expect(isPublicAddress(ip), ip).toBe(true);
    for (const ip of ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.0.5', '100.64.1.1', '::1', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', 'not-an-ip', '']) {
      expect(isPublicAddress(ip), ip).toBe(false);
    }
  });
});

describe('VpnChecker', () => {
  let standIn: VpnCheckerStandIn;
  beforeAll(async () => {
    standIn = await startVpnCheckerStandIn();
  });
  afterAll(async () => {
    await standIn?.close();
  });

  it('answers unchecked when the checker is slower than its timeout', async () => {
    standIn.setMode('slow', 1_500);
    const checker = new VpnChecker({ timeoutMs: 200 });
    const started = Date.now();
    expect(await checker.check('198.51.100.1', standIn.url, '')).toEqual({ result: 'unchecked', detail: 'checker timed out' });
    expect(Date.now() - started).toBeLessThan(1_400);
    standIn.setMode('normal');
  });

  it('asks about IPv6 addresses too, and never sends something that is not an address', async () => {
    const checker = new VpnChecker();
    standIn.markVpn('2001:db8:85a3::8a2e:370:7334', 'VPN');
    expect(await checker.check('2001:db8:85a3::8a2e:370:7334', standIn.url, '')).toEqual({ result: 'vpn', detail: 'VPN' });
    expect(standIn.calls.at(-1)).toMatchObject({ ip: '2001:db8:85a3::8a2e:370:7334', key: null, vpnFlag: '1' });
    const calls = standIn.calls.length;
    expect(await checker.check('../admin', standIn.url, '')).toEqual({ result: 'unchecked', detail: 'not an IP address' });
    expect(standIn.calls.length).toBe(calls);
  });

  it('caches definite verdicts per address for a while, and never an unchecked one', async () => {
    let now = 1_000_000;
    const checker = new VpnChecker({ cacheTtlMs: 60_000, now: () => now });
    standIn.markVpn('198.51.100.2', 'TOR');
    const before = standIn.calls.length;
    expect(await checker.check('198.51.100.2', standIn.url, 'k')).toEqual({ result: 'vpn', detail: 'TOR' });
    expect(await checker.check('198.51.100.2', standIn.url, 'k')).toEqual({ result: 'vpn', detail: 'TOR' });
    expect(standIn.calls.length - before).toBe(1);
    now += 61_000;
    await checker.check('198.51.100.2', standIn.url, 'k');
    expect(standIn.calls.length - before).toBe(2);

    standIn.setMode('http-500');
    expect((await checker.check('198.51.100.3', standIn.url, 'k')).result).toBe('unchecked');
    standIn.setMode('normal');
    expect(await checker.check('198.51.100.3', standIn.url, 'k')).toEqual({ result: 'clean' });
  });
});

interface Flag {
  id: number;
  kind: string;
  reason: string;
  status: 'open' | 'cleared';
  linked_accounts: { uuid: string; username: string }[];
  addresses: string[];
  ip: string | null;
  detail: string | null;
  cleared_by: { uuid: string; username: string } | null;
  clear_note: string | null;
}

describe.each(testDialects())('anti-abuse flags on %s', (dialect) => {
  let panel: TestPanel;
  let vpn: VpnCheckerStandIn;
  let root: SignedInUser;
  let viewer: SignedInUser;
  let ipCounter = 0;
  // TEST-NET-3 addresses (public as far as the panel can tell), a fresh one for each sign-in
  const freshIp = () => `203.0.113.${++ipCounter}`;

  beforeAll(async () => {
    // the panel stands behind a proxy at 127.0.0.1 (where inject's requests come from)
    panel = await startPanel(dialect, { jobs: false, env: { TRUST_PROXY: '127.0.0.1' } });
    vpn = await startVpnCheckerStandIn();
    await panel.services.settings.set('vpn_check_url', vpn.url);
    await panel.services.settings.set('vpn_check_api_key', 'test-key');
    root = await userWithRole(panel, 8);
    viewer = await userWithRole(panel, await roleWith(panel, ['admin.users.list']));
  });
  afterAll(async () => {
    await panel?.close();
    await vpn?.close();
  });

  const settings = () => panel.services.settings;
  const reviewDb = () => panel.services.database.db.withTables<AbuseReviewTables>();

  interface SignIn {
    response: LightMyRequestResponse;
    uuid: string;
    id: number;
    username: string;
    /** the Cookie header for the browser's device cookie after this sign-in */
    device: string;
  }

  const deviceOf = (response: LightMyRequestResponse, sent: string | undefined) => {
    const set = setCookies(response).op_device;
    return set ? `op_device=${set.value}` : (sent ?? '');
  };

  const userId = async (uuid: string) => (await panel.services.database.db.selectFrom('users').select('id').where('uuid', '=', uuid).executeTakeFirstOrThrow()).id;

  /** Registers from `ip` (as the trusted proxy reports it) in a browser holding `device`. */
  async function registerFrom(ip: string, device?: string): Promise<SignIn> {
    const account = newAccount();
    const response = await panel.app.inject({
      method: 'POST',
      url: '/api/user/auth/register',
      payload: account,
      headers: { 'x-forwarded-for': ip, ...(device ? { cookie: device } : {}) },
    });
    expect(response.statusCode, response.body).toBe(201);
    const uuid = (response.json() as { user: { uuid: string } }).user.uuid;
    return { response, uuid, id: await userId(uuid), username: account.username, device: deviceOf(response, device) };
  }

  async function loginFrom(username: string, ip: string, device?: string): Promise<LightMyRequestResponse> {
    const response = await panel.app.inject({
      method: 'POST',
      url: '/api/user/auth/login',
      payload: { login: username, password: PASSWORD },
      headers: { 'x-forwarded-for': ip, ...(device ? { cookie: device } : {}) },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response;
  }

  const flagsOf = async (id: number) => reviewDb().selectFrom('account_flags').selectAll().where('user_id', '=', id).orderBy('id').execute();
  const auditOf = async (id: number, action: string) =>
    panel.services.database.db.selectFrom('audit_log').selectAll().where('target_user_id', '=', id).where('action', '=', action).execute();
  const admin = (method: 'GET' | 'POST', url: string, who: SignedInUser, payload?: unknown) =>
    panel.app.inject({ method, url, headers: { cookie: who.cookie }, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
  const set = async (values: Record<string, boolean | number>) => {
    for (const [key, value] of Object.entries(values)) await settings().set(key, value);
  };

  it('does nothing while both settings are off (the defaults): no traces, no flags, no checker call', async () => {
    expect(await settings().get('block_alts')).toBe(false);
    expect(await settings().get('block_vpn')).toBe(false);
    const ip = freshIp();
    vpn.markVpn(ip);
    const first = await registerFrom(ip);
    // the browser is marked all the same: the login limit keeps its own budget (known-devices.ts)
    expect(setCookies(first.response).op_device.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const second = await registerFrom(ip, first.device);
    expect(await flagsOf(second.id)).toEqual([]);
    expect(await reviewDb().selectFrom('sign_in_traces').selectAll().execute()).toEqual([]);
    expect(vpn.calls).toHaveLength(0);
  });

  it('flags a second account made in the same browser (shared_device), pointing at the first; nobody is refused', async () => {
    await set({ block_alts: true, block_vpn: false });
    const first = await registerFrom(freshIp());
    const cookie = setCookies(first.response).op_device;
    expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cookie.attributes).toMatchObject({ httponly: true, samesite: 'Lax', path: '/' });
    const second = await registerFrom(freshIp(), first.device);
    // the same browser keeps its cookie: no new one is set
    expect(setCookies(second.response).op_device).toBeUndefined();

    const flags = await flagsOf(second.id);
    expect(flags).toHaveLength(1);
    expect(flags[0]).toMatchObject({ kind: 'alt', reason: 'shared_device', evidence: JSON.stringify([`user:${first.id}`]), cleared_at: null });
    expect(await flagsOf(first.id)).toEqual([]);
    const audit = await auditOf(second.id, 'security.flag_raised');
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0].details)).toMatchObject({ kind: 'alt', reason: 'shared_device', evidence: `user:${first.id}` });
    // the device cookie is stored only as a hash
    const traces = await reviewDb().selectFrom('sign_in_traces').selectAll().where('user_id', '=', second.id).execute();
    expect(traces[0].device_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(traces[0].device_hash).not.toContain(cookie.value);
  });

  it('links accounts by one IP address only within the window (shared_ip), and separate browsers on separate addresses not at all', async () => {
    await set({ block_alts: true, block_vpn: false, alt_ip_window_hours: 24 });
    const shared = freshIp();
    const first = await registerFrom(shared);
    const second = await registerFrom(shared);
    expect((await flagsOf(second.id)).map((f) => [f.reason, f.evidence])).toEqual([['shared_ip', JSON.stringify([`user:${first.id}`])]]);
    const elsewhere = await registerFrom(freshIp());
    expect(await flagsOf(elsewhere.id)).toEqual([]);

    // sign-ins older than the window do not link
    const old = freshIp();
    const early = await registerFrom(old);
    await reviewDb()
      .updateTable('sign_in_traces')
      .set({ created_at: new Date(Date.now() - 2 * 3_600_000).toISOString() })
      .where('user_id', '=', early.id)
      .execute();
    await set({ alt_ip_window_hours: 1 });
    const late = await registerFrom(old);
    expect(await flagsOf(late.id)).toEqual([]);
    await set({ alt_ip_window_hours: 24 });
  });

  it('checks logins too, keeping one open flag per reason that gains newly linked accounts', async () => {
    await set({ block_alts: true, block_vpn: false });
    const a = await registerFrom(freshIp());
    const b = await registerFrom(freshIp());
    const c = await registerFrom(freshIp());
    await loginFrom(c.username, freshIp(), a.device);
    await loginFrom(c.username, freshIp(), b.device);
    await loginFrom(c.username, freshIp(), a.device);
    const flags = await flagsOf(c.id);
    expect(flags).toHaveLength(1);
    expect(flags[0].reason).toBe('shared_device');
    expect(JSON.parse(flags[0].evidence)).toEqual([`user:${a.id}`, `user:${b.id}`]);
    // one entry when raised, one when it grew; a repeat adds none
    expect(await auditOf(c.id, 'security.flag_raised')).toHaveLength(1);
    expect(await auditOf(c.id, 'security.flag_extended')).toHaveLength(1);
  });

  it('never flags holders of user.permission.alt (or admin.root)', async () => {
    await set({ block_alts: true, block_vpn: false });
    const main = await registerFrom(freshIp());
    const bypassRole = await roleWith(panel, ['user.permission.alt']);
    for (const role of [bypassRole, 8]) {
      const other = await registerFrom(freshIp());
      await panel.services.database.db.updateTable('users').set({ role_id: role }).where('id', '=', other.id).execute();
      await panel.services.database.db.deleteFrom('audit_log').where('target_user_id', '=', other.id).execute();
      await reviewDb().deleteFrom('account_flags').where('user_id', '=', other.id).execute();
      await loginFrom(other.username, freshIp(), main.device);
      expect(await flagsOf(other.id), `role ${role}`).toEqual([]);
    }
  });

  it('takes the client IP from X-Forwarded-For only when the request comes from the trusted proxy', async () => {
    await set({ block_alts: true, block_vpn: false });
    const spoofed = freshIp();
    const account = newAccount();
    const direct = await panel.app.inject({
      method: 'POST',
      url: '/api/user/auth/register',
      payload: account,
      remoteAddress: '198.51.100.77',
      headers: { 'x-forwarded-for': spoofed },
    });
    expect(direct.statusCode).toBe(201);
    const id = await userId((direct.json() as { user: { uuid: string } }).user.uuid);
    const trace = await reviewDb().selectFrom('sign_in_traces').select('ip').where('user_id', '=', id).executeTakeFirstOrThrow();
    expect(trace.ip).toBe('198.51.100.77');
    // so a stranger cannot make themselves look like another account's address
    const proxied = await registerFrom(spoofed);
    expect((await flagsOf(proxied.id)).some((f) => f.reason === 'shared_ip')).toBe(false);
  });

  it('flags a sign-up from a VPN address (vpn_detected, with the checker word), asking the checker with the API key', async () => {
    await set({ block_alts: false, block_vpn: true });
    const vpnIp = freshIp();
    vpn.markVpn(vpnIp, 'VPN');
    const before = vpn.calls.length;
    const user = await registerFrom(vpnIp);
    expect(vpn.calls.slice(before)).toEqual([{ ip: vpnIp, key: 'test-key', vpnFlag: '1' }]);
    const flags = await flagsOf(user.id);
    expect(flags.map((f) => ({ kind: f.kind, reason: f.reason, detail: f.detail, ip: f.ip, evidence: f.evidence }))).toEqual([
      { kind: 'vpn', reason: 'vpn_detected', detail: 'VPN', ip: vpnIp, evidence: JSON.stringify([`ip:${vpnIp}`]) },
    ]);
    // a clean address raises nothing; an address already judged is not asked about again
    const clean = await registerFrom(freshIp());
    expect(await flagsOf(clean.id)).toEqual([]);
    const callsNow = vpn.calls.length;
    await loginFrom(user.username, vpnIp);
    expect(vpn.calls.length).toBe(callsNow);
  });

  it('fails open when the checker is down: the sign-up succeeds and the account is flagged vpn_unchecked', async () => {
    await set({ block_alts: false, block_vpn: true });
    for (const mode of ['http-500', 'denied', 'not-json'] as const) {
      vpn.setMode(mode);
      const user = await registerFrom(freshIp());
      const flags = await flagsOf(user.id);
      expect(
        flags.map((f) => f.reason),
        mode,
      ).toEqual(['vpn_unchecked']);
      expect(flags[0].detail, mode).toMatch(/checker/);
    }
    vpn.setMode('normal');
    await settings().set('vpn_check_url', 'http://127.0.0.1:1/v2');
    try {
      const user = await registerFrom(freshIp());
      expect((await flagsOf(user.id)).map((f) => [f.reason, f.detail])).toEqual([['vpn_unchecked', 'checker unreachable or unreadable']]);
      // a login goes through as well
      await loginFrom(user.username, freshIp());
    } finally {
      await settings().set('vpn_check_url', vpn.url);
    }
  });

  it('does not ask about loopback or private addresses, nor about holders of user.permission.vpn', async () => {
    await set({ block_alts: false, block_vpn: true });
    const before = vpn.calls.length;
    const local = await registerFrom('10.0.0.8');
    expect(await flagsOf(local.id)).toEqual([]);
    expect(vpn.calls.length).toBe(before);

    const bypass = await roleWith(panel, ['user.permission.vpn']);
    const user = await registerFrom(freshIp());
    await panel.services.database.db.updateTable('users').set({ role_id: bypass }).where('id', '=', user.id).execute();
    const vpnIp = freshIp();
    vpn.markVpn(vpnIp);
    const calls = vpn.calls.length;
    await loginFrom(user.username, vpnIp);
    expect(vpn.calls.length).toBe(calls);
    expect((await flagsOf(user.id)).filter((f) => f.kind === 'vpn' && f.ip === vpnIp)).toEqual([]);
  });

  describe('the admin side', () => {
    let first: SignIn;
    let alt: SignIn;

    beforeAll(async () => {
      await set({ block_alts: true, block_vpn: true });
      first = await registerFrom(freshIp());
      const vpnIp = freshIp();
      vpn.markVpn(vpnIp, 'VPN');
      alt = await registerFrom(vpnIp, first.device);
      await set({ block_alts: false, block_vpn: false });
    });

    const flagsApi = async (uuid: string, who: SignedInUser = root) => {
      const res = await admin('GET', `/api/admin/users/${uuid}/flags`, who);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { data: Flag[] }).data;
    };

    it('shows open flags on the user list and page, and filters the list to flagged accounts', async () => {
      const list = (await admin('GET', '/api/admin/users?per_page=100', root)).json() as { data: { uuid: string; review_flags: string[] }[] };
      expect(list.data.find((u) => u.uuid === alt.uuid)?.review_flags.sort()).toEqual(['shared_device', 'vpn_detected']);
      expect(list.data.find((u) => u.uuid === first.uuid)?.review_flags).toEqual([]);
      const flagged = (await admin('GET', '/api/admin/users?flagged=true&per_page=100', root)).json() as {
        data: { uuid: string; review_flags: string[] }[];
        meta: { total: number };
      };
      expect(flagged.data.map((u) => u.uuid)).toContain(alt.uuid);
      expect(flagged.data.every((u) => u.review_flags.length > 0)).toBe(true);
      expect(flagged.meta.total).toBe(flagged.data.length);
      expect((await admin('GET', `/api/admin/users/${alt.uuid}`, viewer)).json().user.review_flags.sort()).toEqual(['shared_device', 'vpn_detected']);
    });

    it('lists the flags with the linked accounts and addresses (admin.users.list is enough to read)', async () => {
      const flags = await flagsApi(alt.uuid, viewer);
      expect(flags.map((f) => f.reason).sort()).toEqual(['shared_device', 'vpn_detected']);
      const device = flags.find((f) => f.reason === 'shared_device')!;
      expect(device).toMatchObject({ kind: 'alt', status: 'open', linked_accounts: [{ uuid: first.uuid, username: first.username }], addresses: [], cleared_by: null });
      const vpnFlag = flags.find((f) => f.reason === 'vpn_detected')!;
      expect(vpnFlag).toMatchObject({ kind: 'vpn', status: 'open', linked_accounts: [], detail: 'VPN' });
      expect(vpnFlag.addresses).toEqual([vpnFlag.ip]);
    });

    it('clears a flag with admin.users.edit and a note, audited; the cleared evidence does not raise it again, new evidence does', async () => {
      const device = (await flagsApi(alt.uuid)).find((f) => f.reason === 'shared_device')!;
      const refused = await admin('POST', `/api/admin/users/${alt.uuid}/flags/${device.id}/clear`, viewer, {});
      expect(refused.statusCode).toBe(403);
      expect((await flagsApi(alt.uuid)).find((f) => f.id === device.id)?.status).toBe('open');

      const res = await admin('POST', `/api/admin/users/${alt.uuid}/flags/${device.id}/clear`, root, { note: '  Siblings on one PC  ' });
      expect(res.statusCode, res.body).toBe(200);
      const root_ = await panel.services.database.db.selectFrom('users').select('username').where('uuid', '=', root.uuid).executeTakeFirstOrThrow();
      expect(res.json().flag).toMatchObject({ id: device.id, status: 'cleared', clear_note: 'Siblings on one PC', cleared_by: { uuid: root.uuid, username: root_.username } });
      const audit = await auditOf(alt.id, 'admin.user.flag_clear');
      expect(JSON.parse(audit[0].details)).toMatchObject({ flag_id: device.id, reason: 'shared_device', note: 'Siblings on one PC' });
      expect(audit[0].actor_user_id).toBe(root.id);
      const list = (await admin('GET', `/api/admin/users/${alt.uuid}`, root)).json().user.review_flags;
      expect(list).toEqual(['vpn_detected']);

      // the same browser again: already reviewed, no new flag
      await set({ block_alts: true });
      await loginFrom(alt.username, freshIp(), first.device);
      expect((await flagsApi(alt.uuid)).filter((f) => f.reason === 'shared_device' && f.status === 'open')).toEqual([]);
      // a further account on that browser is new evidence: a new open flag naming only it
      const third = await registerFrom(freshIp(), first.device);
      await loginFrom(alt.username, freshIp(), first.device);
      const reopened = (await flagsApi(alt.uuid)).filter((f) => f.reason === 'shared_device' && f.status === 'open');
      expect(reopened.map((f) => f.linked_accounts.map((a) => a.uuid))).toEqual([[third.uuid]]);
      await set({ block_alts: false });
    });

    it('answers bad clears with 4xx and changes nothing', async () => {
      const [open] = (await flagsApi(alt.uuid)).filter((f) => f.status === 'open');
      const cleared = (await flagsApi(alt.uuid)).find((f) => f.status === 'cleared')!;
      const cases: [string, unknown, number, string][] = [
        [`/api/admin/users/${alt.uuid}/flags/999999/clear`, {}, 404, 'FLAG_NOT_FOUND'],
        // another account's flag is not found under this account
        [`/api/admin/users/${first.uuid}/flags/${open.id}/clear`, {}, 404, 'FLAG_NOT_FOUND'],
        [`/api/admin/users/${alt.uuid}/flags/${cleared.id}/clear`, {}, 409, 'FLAG_ALREADY_CLEARED'],
        [`/api/admin/users/${alt.uuid}/flags/abc/clear`, {}, 400, 'VALIDATION_ERROR'],
        [`/api/admin/users/${alt.uuid}/flags/0/clear`, {}, 400, 'VALIDATION_ERROR'],
        [`/api/admin/users/not-a-uuid/flags/${open.id}/clear`, {}, 400, 'VALIDATION_ERROR'],
        [`/api/admin/users/00000000-0000-4000-8000-000000000000/flags/${open.id}/clear`, {}, 404, 'USER_NOT_FOUND'],
        [`/api/admin/users/${alt.uuid}/flags/${open.id}/clear`, { note: 'x'.repeat(256) }, 400, 'VALIDATION_ERROR'],
        [`/api/admin/users/${alt.uuid}/flags/${open.id}/clear`, { note: { text: 'not text' } }, 400, 'VALIDATION_ERROR'],
      ];
      for (const [url, payload, status, code] of cases) {
        const res = await admin('POST', url, root, payload);
        expect(res.statusCode, `${url} ${JSON.stringify(payload)}`).toBe(status);
        expect(res.json().error.code, url).toBe(code);
      }
      expect((await flagsApi(alt.uuid)).find((f) => f.id === open.id)?.status).toBe('open');
      // a clear without a body is fine (the note is optional)
      const bare = await panel.app.inject({ method: 'POST', url: `/api/admin/users/${alt.uuid}/flags/${open.id}/clear`, headers: { cookie: root.cookie } });
      expect(bare.statusCode, bare.body).toBe(200);
      expect(bare.json().flag).toMatchObject({ status: 'cleared', clear_note: null });
    });

    it('drops flags and traces with the account', async () => {
      expect((await flagsOf(alt.id)).length).toBeGreaterThan(0);
      await panel.app.inject({ method: 'DELETE', url: `/api/admin/users/${alt.uuid}`, headers: { cookie: root.cookie } });
      expect(await flagsOf(alt.id)).toEqual([]);
      expect(await reviewDb().selectFrom('sign_in_traces').selectAll().where('user_id', '=', alt.id).execute()).toEqual([]);
    });
  });
});
