/**
 * The relayed read alone, for a profiler: the proxy's Node entry with its cache off in front of a
 * trivial loopback upstream answering the bench's 2 KB envelope (as `npm run bench proxy` measures it), asked `n` sequential reads
 * (default 20 000), then the same reads sent straight to the upstream; prints both p50s and the
 * difference. `node --cpu-prof --import tsx test/bench/relay-latency.ts [n]`.
 */
import { createServer, request as httpRequest, Agent, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProxy } from '../../proxy/app.js';
import { Metrics } from '../../proxy/core/metrics.js';
import { prometheusBackend } from '../../proxy/node/prometheus.js';
import { nodeListener } from '../../proxy/node/listener.js';
import { nodeTransport } from '../../proxy/node/transport.js';
import { binLogger } from './bin-logger.js';
import { PAYLOAD, VENUE } from './proxy.bench.js';
import { UNLIMITED } from './unlimited.js';

const n = Number(process.argv[2] ?? 20_000);
const listen = (server: Server) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
const agent = new Agent({ keepAlive: true, maxSockets: 4 });
const get = (port: number, path: string) =>
  new Promise<number>((resolve, reject) => {
    const started = performance.now();
    const req = httpRequest({ host: '127.0.0.1', port, path, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(performance.now() - started));
    });
    req.on('error', reject);
    req.end();
  });
const upstream = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(PAYLOAD);
});
const upPort = await listen(upstream);
const proxy = createProxy({
  upstream: `http://127.0.0.1:${upPort}/v4`,
  appId: 'bench',
  apiKey: 'bench-key',
  venues: [VENUE],
  cacheTtlMs: 0,
  browseTtlMs: 0,
  staleMs: 0,
  logger: binLogger(),
  metrics: new Metrics(prometheusBackend()),
  ...UNLIMITED,
  transport: nodeTransport(),
});
const port = await listen(createServer(nodeListener(proxy)));
const p50 = async (target: number, prefix: string) => {
  const times: number[] = [];
  for (let i = 0; i < n; i++)
    times.push(await get(target, `${prefix}/venues/${VENUE}/booking-availability?num_people=${(i % 8) + 1}`));
  return times.sort((a, b) => a - b)[n >> 1]!;
};
await p50(port, '/api');
const cpu = process.cpuUsage();
const proxied = await p50(port, '/api');
const used = process.cpuUsage(cpu);
const direct = await p50(upPort, '/v4');
console.log(
  `proxied p50 ${proxied.toFixed(3)} ms, direct ${direct.toFixed(3)} ms, added ${(proxied - direct).toFixed(3)} ms; ` +
    `${((used.user + used.system) / n).toFixed(1)} µs CPU per proxied read (${(used.user / n).toFixed(1)} user, ${(used.system / n).toFixed(1)} system; client and upstream included)`,
);
process.exit(0);
