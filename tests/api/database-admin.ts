// Acting on a test panel's database from outside, as its operator would: a session of the server's own
// administrator, and the connections of the panel ended as a restart or a failover ends them.
import mysql from 'mysql2/promise';
import pg from 'pg';
import type { TestPanel } from './harness';

/** Runs `work` on an administrator's connection to the panel's database server (PostgreSQL or MariaDB). */
export async function onDatabaseAdmin<T>(panel: TestPanel, work: (query: (text: string, values?: unknown[]) => Promise<unknown[]>) => Promise<T>): Promise<T> {
  const url = new URL(panel.database.url);
  url.pathname = panel.services.database.dialect === 'postgres' ? '/postgres' : '/test';
  if (panel.services.database.dialect === 'postgres') {
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      return await work(async (text, values) => (await client.query(text, values)).rows);
    } finally {
      await client.end();
    }
  }
  const connection = await mysql.createConnection(url.toString());
  try {
    return await work(async (text, values) => (await connection.query(text, values))[0] as unknown[]);
  } finally {
    await connection.end();
  }
}

/** Ends every connection the panel holds to its database, as a restart or a failover would. */
export async function cutConnections(panel: TestPanel): Promise<number> {
  const name = new URL(panel.database.url).pathname.slice(1);
  return onDatabaseAdmin(panel, async (query) => {
    if (panel.services.database.dialect === 'postgres') {
      const rows = await query('select pg_terminate_backend(pid) as ended from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
      return rows.length;
    }
    const rows = (await query('select id from information_schema.processlist where db = ? and id <> connection_id()', [name])) as { id: number }[];
    for (const row of rows) await query(`kill ${Number(row.id)}`).catch(() => undefined);
    return rows.length;
  });
}
