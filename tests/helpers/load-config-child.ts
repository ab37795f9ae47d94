// A server process starting, for the secrets race in tests/api/data-files.test.ts: once loaded it
// prints "ready", then for each DATA_DIR line on stdin runs loadConfig (what server/main.ts does
// first) and prints the secrets it ended up with. Reading stdin lets the test start every child
// at the same moment, after the slow part (loading the code) is over.
import { loadConfig } from '../../server/config';

let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  pending += chunk;
  for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n')) {
    const dataDir = pending.slice(0, nl);
    pending = pending.slice(nl + 1);
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir });
    process.stdout.write(`${JSON.stringify({ dataDir, jwt: config.jwtSecret, vapid: config.vapid })}\n`);
  }
});
process.stdout.write('ready\n');
