/**
 * The relayed read alone, for a profiler: the proxy's Node entry with its cache off in front of a
 * trivial loopback upstream answering the bench's 2 KB envelope, as `npm run bench proxy` sets
 * them up (`relayingEntry`), asked `n` sequential reads (default 20 000), then the same reads sent
 * straight to the upstream; prints both p50s and the difference. The proxy runs from the sources,
 * or with `--built` as `npm run bench proxy` runs it (built as the bin is).
 * `node --cpu-prof --import tsx test/bench/relay-latency.ts [n] [--built]`.
 */
import { Agent } from 'node:http';
import { builtRelayingParts, get, relayingEntry, VENUE } from './proxy.bench.js';

const n = Number(process.argv.find((arg) => /^\d+$/.test(arg)) ?? 20_000);
const agent = new Agent({ keepAlive: true, maxSockets: 4 });
const { upPort, port } = await relayingEntry(process.argv.includes('--built') ? await builtRelayingParts() : undefined);
const p50 = async (target: number, prefix: string) => {
  const times: number[] = [];
  for (let i = 0; i < n; i++)
    times.push(await get(agent, target, `${prefix}/venues/${VENUE}/booking-availability?num_people=${(i % 8) + 1}`));
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
