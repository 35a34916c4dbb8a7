// `npm run bench cluster` (issue 17): a mixed customer workload — the session poll, the wallet's
// history, the public settings and coin gifts — through Debian's nginx configured as docs/deploy.md
// says, first with one instance behind it, then with two (PostgreSQL and Redis shared). Prints the
// requests/s of each and their ratio. On a 2-core machine two instances cannot be much faster than
// one; the point is that they are not slower and that nothing fails: every answer must be a 200.
import {
  clusterEnv,
  createPostgresDatabase,
  credit,
  giftSubmission,
  httpClient,
  nextClientAddress,
  registerUser,
  sendGift,
  setRole,
  startInstance,
  startNginx,
  walletBooks,
} from './cluster-lab.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const ACCOUNTS = 16;

/** Closed loop: `CONNECTIONS` customers, each sending its next request when the last answered. */
async function mixedLoad(client, base, accounts, seconds) {
  const statuses = {};
  let done = 0;
  let gifts = 0;
  const end = Date.now() + seconds * 1000;
  const customer = async (n) => {
    for (let i = n; Date.now() < end; i++) {
      const me = accounts[i % accounts.length];
      const headers = { cookie: me.cookie, 'x-forwarded-for': nextClientAddress() };
      let answer;
      switch (i % 4) {
        case 0:
          answer = await client.request(base, { path: '/api/user/session', headers });
          break;
        case 1:
          answer = await client.request(base, { path: '/api/user/wallet/transactions?page=1&per_page=10', headers });
          break;
        case 2:
          answer = await client.request(base, { path: '/api/system/settings', headers });
          break;
        default:
          gifts++;
          answer = await sendGift(client, base, giftSubmission(me, accounts[(i + 1) % accounts.length].uuid, 1));
      }
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      done++;
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, (_, n) => customer(n)));
  const rps = done / ((Date.now() - started) / 1000);
  const errors = done - (statuses[200] ?? 0);
  return { rps, requests: done, gifts, errors, statuses };
}

export async function run() {
  const database = await createPostgresDatabase();
  const env = clusterEnv({ databaseUrl: database.url, extra: { LOG_LEVEL: 'warn' } });
  const instances = [];
  const proxies = [];
  const client = httpClient({ maxSockets: CONNECTIONS * 2 });
  try {
    // both start on the empty database: one runs the migrations, the other waits for them
    instances.push(...(await Promise.all([startInstance('a', env), startInstance('b', env)])));
    const [a, b] = instances;
    const one = await startNginx([a.port]);
    proxies.push(one);
    const two = await startNginx([a.port, b.port]);
    proxies.push(two);

    const admin = await registerUser(client, two.url, 'root');
    await setRole(database.url, admin.uuid, 8);
    const root = admin.cookie;
    const accounts = [];
    for (let i = 0; i < ACCOUNTS; i++) accounts.push(await registerUser(client, two.url, `bench${i}`));
    for (const account of accounts) await credit(client, two.url, root, account.uuid, 1_000_000);

    // warm both paths, then measure them alternately so the machine's other work hits both alike
    await mixedLoad(client, one.url, accounts, 2);
    await mixedLoad(client, two.url, accounts, 2);
    const single = await mixedLoad(client, one.url, accounts, SECONDS);
    const double = await mixedLoad(client, two.url, accounts, SECONDS);
    const books = await walletBooks(database.url);

    const ratio = double.rps / single.rps;
    console.log(`mixed customer workload through nginx, ${CONNECTIONS} connections, ${SECONDS} s each (session, wallet history, settings, gifts)`);
    console.log(`one instance:  ${single.rps.toFixed(0)} req/s (${single.requests} requests, ${single.gifts} gifts), errors ${single.errors} ${JSON.stringify(single.statuses)}`);
    console.log(`two instances: ${double.rps.toFixed(0)} req/s (${double.requests} requests, ${double.gifts} gifts), errors ${double.errors} ${JSON.stringify(double.statuses)}`);
    console.log(`ratio two/one: ${ratio.toFixed(2)}x`);
    console.log(
      `wallet books: ${books.mismatched} accounts whose ledger does not add up, coins held ${books.held} = put in ${books.minted} - fees ${books.fees}: ${books.held === books.minted - books.fees ? 'OK' : 'NOT CONSERVED'}`,
    );
    if (single.errors + double.errors > 0) throw new Error('the cluster bench saw failed requests: errors must be 0');
    if (books.mismatched > 0 || books.held !== books.minted - books.fees) throw new Error('the wallet books do not balance after the cluster bench');
    return { single: single.rps, double: double.rps, ratio, errors: single.errors + double.errors };
  } finally {
    client.close();
    for (const proxy of proxies) await proxy.stop();
    await Promise.all(instances.map((instance) => instance.close()));
    await database.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
