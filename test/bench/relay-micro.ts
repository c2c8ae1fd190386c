/**
 * In-process cost of a relayed read on the fast path, with no socket: the proxy's own work from a
 * request to its upstream call and back, µs per read, with the bin's metrics and logging and the
 * cache off (`relayingConfig`), over a transport that answers the bench's 2 KB envelope at once.
 * Prints the median and the least of the rounds after two warm-up rounds: on a shared machine
 * the least is the steadiest figure for an A/B.
 * `node --import tsx test/bench/relay-micro.ts [reads per round]`.
 */
import { PAYLOAD, relayingConfig, VENUE } from './proxy.bench.js';
import * as sources from './relaying-parts.js';

const reads = Number(process.argv[2] ?? 20_000);
const proxy = sources.createProxy(
  relayingConfig(sources, 'http://127.0.0.1:9/v4', async () => ({ status: 200, header: () => null, text: PAYLOAD })),
);
sources.nodeListener(proxy);
const headers = new Map([
  ['host', '127.0.0.1'],
  ['user-agent', 'bench'],
]);
/** The i-th read as the Node listener hands it over (eight queries in turn). */
const view = (i: number) => {
  const target = `/api/venues/${VENUE}/booking-availability?num_people=${(i % 8) + 1}`;
  return {
    url: `http://127.0.0.1${target}`,
    header: (name: string) => headers.get(name) ?? null,
    env: {},
    plain: { scheme: 'http', host: '127.0.0.1', target },
  };
};
// The fast path keeps nothing until a host asks it; then the app answers once, so it has the
// app's headers to send with the reads it runs itself.
await proxy.fast.answer(view(0));
await (await proxy.fetch(new Request(view(0).url))).arrayBuffer();
const rounds: number[] = [];
for (let round = 0; round < 9; round++) {
  const started = performance.now();
  for (let i = 0; i < reads; i++)
    if ((await proxy.fast.answer(view(i)))?.status !== 200) throw new Error(`read ${i} was not relayed`);
  rounds.push(((performance.now() - started) * 1000) / reads);
}
const kept = rounds.slice(2).sort((a, b) => a - b);
console.log(
  `relayed read: median ${kept[kept.length >> 1]!.toFixed(1)} µs, least ${kept[0]!.toFixed(1)} µs ` +
    `(rounds ${rounds.map((us) => us.toFixed(0)).join(' ')})`,
);
process.exit(0);
