// Riding through database outages (issue 17): connections the server ends (pg_terminate_backend,
// KILL on MariaDB, a restart) never end the process; while the database refuses connections the
// requests that need it answer 503 STORE_UNAVAILABLE within seconds and /readyz says not ready; when
// it is back everything works again by itself. SQLite has no connection to cut: it runs in-process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpError } from '../../sdk/server';
import { isStoreUnavailable } from '../../server/db/connect';
import { classifyError } from '../../server/http/errors';
import { cutConnections, onDatabaseAdmin } from './database-admin';
import { register, startPanel, testDialects, type TestPanel } from './harness';

const servers = testDialects().filter((d) => d !== 'sqlite');

describe('store errors', () => {
  it('answers a lost or refused database 503 STORE_UNAVAILABLE, and nothing else', () => {
    const unreachable = [
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      new Error('timeout exceeded when trying to connect'),
      new Error('Connection terminated unexpectedly'),
      new Error('Client has encountered a connection error and is not queryable'),
      new Error('Client was closed and is not queryable'),
      Object.assign(new Error('Connection lost: The server closed the connection.'), { code: 'PROTOCOL_CONNECTION_LOST' }),
      Object.assign(new Error('Connection was killed'), { errno: 1927, code: 'ER_CONNECTION_KILLED' }),
    ];
    for (const error of unreachable) {
      expect(isStoreUnavailable(error)).toBe(true);
      expect(classifyError(error)).toEqual({ status: 503, body: { error: { code: 'STORE_UNAVAILABLE', message: expect.any(String) } } });
    }
    const others = [
      Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' }),
      Object.assign(new Error('deadlock detected'), { code: '40P01' }),
      new Error('something else'),
      httpError(409, 'CONFLICT', 'Taken.'),
    ];
    for (const error of others) expect(isStoreUnavailable(error)).toBe(false);
    expect(classifyError(others[2]).status).toBe(500);
  });
});

for (const dialect of servers) {
  describe(`database outages (${dialect})`, () => {
    let panel: TestPanel;
    let cookie: string;
    beforeAll(async () => {
      panel = await startPanel(dialect);
      cookie = (await register(panel.app)).cookie;
    });
    afterAll(async () => {
      if (dialect === 'postgres') {
        const name = new URL(panel.database.url).pathname.slice(1);
        await onDatabaseAdmin(panel, (query) => query(`alter database "${name}" allow_connections true`)).catch(() => undefined);
      }
      await panel?.close();
    });

    const session = () => panel.app.inject({ url: '/api/user/session', headers: { cookie } });

    it('connections cut by the server: the process stays up and the next request succeeds', async () => {
      // every pooled connection has been used at least once: they sit idle when they are cut
      await Promise.all(Array.from({ length: 5 }, () => session()));
      expect(await cutConnections(panel)).toBeGreaterThan(0);
      // the idle connections' errors arrive now; without a listener they would end this process
      await new Promise((resolve) => setTimeout(resolve, 300));
      const answers = await Promise.all(Array.from({ length: 5 }, () => session()));
      // a request that caught a dying connection may answer 503; the one after it works
      for (const answer of answers) expect([200, 503]).toContain(answer.statusCode);
      expect((await session()).statusCode).toBe(200);
      expect((await panel.app.inject({ url: '/readyz' })).statusCode).toBe(200);
    });

    it.runIf(dialect === 'postgres')('a database that refuses connections: 503 STORE_UNAVAILABLE within seconds, not ready, then back by itself', async () => {
      const name = new URL(panel.database.url).pathname.slice(1);
      await onDatabaseAdmin(panel, (query) => query(`alter database "${name}" allow_connections false`));
      await cutConnections(panel);
      await new Promise((resolve) => setTimeout(resolve, 1_100));

      const started = Date.now();
      const refused = await session();
      expect(Date.now() - started).toBeLessThan(6_000);
      expect(refused.statusCode).toBe(503);
      expect(refused.json().error.code).toBe('STORE_UNAVAILABLE');
      expect(refused.headers['retry-after']).toBe('5');
      const notReady = await panel.app.inject({ url: '/readyz' });
      expect(notReady.statusCode).toBe(503);
      expect(notReady.json()).toMatchObject({ ready: false, database: false });
      // alive all the same: a process manager must not restart it for the database's sake
      expect((await panel.app.inject({ url: '/healthz' })).statusCode).toBe(200);

      await onDatabaseAdmin(panel, (query) => query(`alter database "${name}" allow_connections true`));
      expect((await session()).statusCode).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect((await panel.app.inject({ url: '/readyz' })).json()).toMatchObject({ ready: true, database: true });
    });
  });
}
