/**
 * In-process cost of the fast path's answer to a remembered cached read (no socket): µs per call,
 * with the bin's metrics (prom-client) and logging (batched JSON lines, here to /dev/null), and for
 * a client that accepts gzip (every browser) beside one that asks for no encoding (`wrk`).
 * `node --import tsx test/bench/fast-micro.ts [calls]`.
 */
import { Metrics } from '../../proxy/core/metrics.js';
import { prometheusBackend } from '../../proxy/node/prometheus.js';
import { silentLogger } from '../../proxy/core/log.js';
import { nodeListener } from '../../proxy/node/listener.js';
import { createStack } from '../../proxy/stack.js';
import { binLogger } from './bin-logger.js';
import { UNLIMITED } from './unlimited.js';

const calls = Number(process.argv[2] ?? 200_000);
const url =
  'http://127.0.0.1/api/venues/64a1f0c2e4b0a1b2c3d4e501/booking-availability?type=64a1f0c2e4b0a1b2c3d4e601&num_people=2';
for (const [name, logger, encoding] of [
  ['silent log', silentLogger, null],
  ['batched log', binLogger(), null],
  ['batched log, gzip accepted', binLogger(), 'gzip, deflate, br'],
] as const) {
  const stack = createStack({
    origin: 'http://127.0.0.1',
    proxy: { logger, ...UNLIMITED, cacheTtlMs: 600_000, metrics: new Metrics(prometheusBackend()) },
  });
  nodeListener({ fetch: stack.fetch, fast: stack.proxy.fast });
  await (await stack.fetch(new Request(url))).arrayBuffer();
  const headers = new Map([
    ['host', '127.0.0.1'],
    ['user-agent', 'wrk'],
    ['origin', 'http://127.0.0.1'],
    ...(encoding ? [['accept-encoding', encoding] as [string, string]] : []),
  ]);
  // As the Node listener hands it over: the Host and target found plain, so split, not parsed.
  const target = url.slice('http://127.0.0.1'.length);
  const plain = { scheme: 'http', host: '127.0.0.1', target };
  const view = { url, header: (h: string) => headers.get(h) ?? null, env: {}, plain };
  // The app answers the second read too, and the fast path remembers it.
  void (await stack.proxy.fast.answer(view));
  await (await stack.fetch(new Request(url))).arrayBuffer();
  for (let round = 0; round < 3; round++) {
    let answered = 0;
    const started = performance.now();
    for (let i = 0; i < calls; i++) if (await stack.proxy.fast.answer(view)) answered++;
    const us = ((performance.now() - started) * 1000) / calls;
    console.log(`${name}: ${us.toFixed(2)} µs per answer (${answered} of ${calls} answered)`);
  }
}
process.exit(0);
