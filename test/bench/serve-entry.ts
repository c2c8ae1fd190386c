/**
 * The Node entry as the bin runs it (metrics in prom-client's registry, the batched JSON log line
 * per request), on the embedded sandbox, for a profiler or a load generator from outside:
 * `node --cpu-prof --import tsx test/bench/serve-entry.ts [seconds] [--bare]` prints the URL of a
 * cached availability read, serves it for that long (default 15 s), then prints the CPU time it
 * spent per request served and exits (writing the profile). `--bare` serves the very same bytes
 * and headers from a bare `node:http` server instead: the ceiling. CPU time per request is what a
 * busy machine disturbs least (wall-clock throughput swings with the neighbours); the README's
 * benchmark notes say what the profiles showed.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Metrics } from '../../proxy/core/metrics.js';
import { nodeListener } from '../../proxy/node/listener.js';
import { prometheusBackend } from '../../proxy/node/prometheus.js';
import { createStack } from '../../proxy/stack.js';
import { binLogger } from './bin-logger.js';
import { UNLIMITED } from './unlimited.js';

const seconds = Number(process.argv[2] ?? 15);
const bare = process.argv.includes('--bare');
const stack = createStack({
  origin: 'http://127.0.0.1',
  proxy: {
    logger: binLogger(),
    ...UNLIMITED,
    cacheTtlMs: 600_000,
    metrics: new Metrics(prometheusBackend()),
  },
});
const entry = nodeListener({ fetch: stack.fetch, fast: stack.proxy.fast });
const PATH = '/api/venues/64a1f0c2e4b0a1b2c3d4e501/booking-availability?type=64a1f0c2e4b0a1b2c3d4e601&num_people=2';

/** One answer of the entry, as a bare server replays it. */
async function sample(url: string): Promise<{ headers: [string, string][]; body: Buffer }> {
  const response = await fetch(url);
  const body = Buffer.from(await response.arrayBuffer());
  const headers = [...response.headers].filter(([name]) => !/^(date|connection|keep-alive|content-length)$/.test(name));
  return { headers, body };
}

let served = 0;
let listener: (req: IncomingMessage, res: ServerResponse) => void = entry;
const server = createServer((req, res) => {
  served++;
  listener(req, res);
});
server.listen(0, '127.0.0.1', async () => {
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}${PATH}`;
  // Twice through the app: cached, then remembered by the fast path.
  await sample(url);
  const answer = await sample(url);
  if (bare) {
    const headers = answer.headers.flat();
    listener = (_req, res) => {
      res.writeHead(200, headers);
      res.end(answer.body);
    };
  }
  console.log(url);
  served = 0;
  const cpu = process.cpuUsage();
  setTimeout(() => {
    const used = process.cpuUsage(cpu);
    console.log(
      `${bare ? 'bare' : 'entry'}: ${served} requests, ${((used.user + used.system) / served).toFixed(1)} µs CPU each (${(
        used.user / served
      ).toFixed(1)} user, ${(used.system / served).toFixed(1)} system)`,
    );
    server.closeAllConnections();
    server.close(() => process.exit(0));
  }, seconds * 1000);
});
