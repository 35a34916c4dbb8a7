// `npm run bench`: every benchmark, each a ratio against a baseline measured in the same run or a
// budget — never a timed test. Needs the build (npm run bench builds first when dist/ is stale).
import { run as afkSockets } from './afk-sockets.mjs';
import { run as bundleBudget } from './bundle-budget.mjs';
import { run as cluster } from './cluster.mjs';
import { run as firstPaint } from './firstpaint.mjs';
import { run as sessionThroughput } from './session-throughput.mjs';
import { run as walletTransfers } from './wallet-transfers.mjs';

const only = process.argv[2];
const benches = { session: sessionThroughput, bundle: bundleBudget, firstpaint: firstPaint, afk: afkSockets, wallet: walletTransfers, cluster };
for (const [name, bench] of Object.entries(benches)) {
  if (only && only !== name) continue;
  console.log(`\n## ${name}`);
  await bench();
}
