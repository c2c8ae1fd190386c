/**
 * The fault run (issue 19): three proxy processes on one redis-server (persistence off) in front
 * of the sandbox, all on loopback, under a steady mix of reads and bookings from many clients,
 * through five phases of about five seconds each:
 *
 * 1. steady;
 * 2. one instance `kill -9`ed, then started again;
 * 3. Redis killed and restarted empty;
 * 4. Redis frozen (SIGSTOP) for 5 s, then thawed;
 * 5. steady again.
 *
 * Each booking has its own Idempotency-Key and guest; a guest retries on a network error, a
 * timeout or a 5xx on the next instance with the same key (for up to 20 s), and every fifth
 * booking is sent to two instances at once on purpose. Reported: duplicate bookings (a key booked
 * more than once upstream), lost bookings (a guest told a reference the upstream does not hold
 * for them), keys left `unknown`, how long the instances took to share again after each store
 * fault, and p99 latency of reads and bookings per phase. About 35 s in all.
 */
import { spawnSync } from 'node:child_process';
import {
  availabilityPath,
  bookableTimes,
  bookingBody,
  bookingsOf,
  postBooking,
  startInstance,
  startUpstream,
  type Booked,
  type Instance,
} from '../support/proxy-fleet.js';
import { startRedis } from '../support/redis.js';
import type { BenchRow } from './run.js';

const PHASES = ['steady', 'instance killed', 'Redis restarted empty', 'Redis frozen 5 s', 'after'] as const;
type Phase = (typeof PHASES)[number];
const PHASE_MS = 5_000;
const WORKERS = 12;
/** Settings that keep the proxy's own limits out of the way: the run is about faults. */
const UNLIMITED_ENV = {
  VENUE_BOOKING_RATE_LIMIT: '1000000',
  VENUE_BOOKING_UPSTREAM_QUOTA: '1000000',
  VENUE_BOOKING_MISS_LIMIT: '1000000',
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const p99 = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]! : NaN;
};

/** Runs the fault run and returns the table rows. */
export async function run(): Promise<BenchRow[]> {
  if (spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).error)
    return [{ name: 'fault run', value: 'skipped: redis-server is not installed' }];
  const redis = await startRedis();
  const upstream = await startUpstream();
  const prefix = `faults-${Date.now()}:`;
  const start = () => startInstance(upstream.url, redis.url, prefix, UNLIMITED_ENV);
  const live: (Instance | null)[] = await Promise.all([start(), start(), start()]);
  const everyone = [...live] as Instance[];
  const times = await bookableTimes(live[0]!);

  let phase: Phase = 'steady';
  let running = true;
  const latency = new Map<Phase, { reads: number[]; bookings: number[] }>(
    PHASES.map((name) => [name, { reads: [], bookings: [] }]),
  );
  const told = new Map<string, Booked | null>();
  /** When each guest's booking was first sent and last answered. */
  const lifetime = new Map<string, { from: number; to: number }>();
  /** When the store was away: from the fault until every instance shared again. */
  const outages: { from: number; to: number }[] = [];
  let guests = 0;
  let clients = 0;
  const pick = (offset: number) => {
    const up = live.filter((one): one is Instance => one !== null);
    return up[offset % up.length]!;
  };

  /** A guest's booking: retried on the next instance with the same key, as the widget would. */
  async function book(worker: number) {
    const guest = `Fault${++guests}`;
    const sentAt = Date.now();
    const key = `fault-${prefix}${guests}`;
    const client = `10.${(++clients >> 16) & 255}.${(clients >> 8) & 255}.${clients & 255}`;
    const body = bookingBody(times[guests % times.length]!, guest);
    const deadline = Date.now() + 20_000;
    const attempt = async (offset: number): Promise<Booked | null> => {
      for (let tries = 0; Date.now() < deadline; tries++) {
        const startedAt = Date.now();
        const answer = await postBooking(pick(offset + tries), body, key, client, 8_000).catch(() => null);
        latency.get(phase)!.bookings.push(Date.now() - startedAt);
        if (answer && answer.status < 500) return answer;
        await sleep(answer?.payload.stored === 'unknown' ? 1_000 : 200);
      }
      return null;
    };
    // Every fifth booking is sent twice at once, on purpose, to two instances.
    const answers = await Promise.all(guests % 5 ? [attempt(worker)] : [attempt(worker), attempt(worker + 1)]);
    told.set(guest, answers.find((answer) => answer?.status === 200) ?? answers[0] ?? null);
    lifetime.set(guest, { from: sentAt, to: Date.now() });
  }

  async function worker(index: number) {
    for (let round = 0; running; round++) {
      if (round % 4 === 3) {
        await book(index + round);
        continue;
      }
      const instance = pick(index + round);
      const startedAt = Date.now();
      const people = 1 + ((index + round) % 6);
      await fetch(`${instance.base}${availabilityPath(`num_people=${people}`)}`, {
        headers: { 'x-forwarded-for': `10.200.${index}.${round & 255}` },
        signal: AbortSignal.timeout(8_000),
      })
        .then((response) => response.arrayBuffer())
        .catch(() => undefined);
      latency.get(phase)!.reads.push(Date.now() - startedAt);
      await sleep(10);
    }
  }

  /** Ms until every live instance says its store is ok again. */
  async function rejoin(from: number): Promise<number> {
    for (;;) {
      const stores = await Promise.all(live.filter((one) => one).map((one) => one!.store()));
      if (stores.every((store) => store === 'ok')) return Date.now() - from;
      if (Date.now() - from > 30_000) return NaN;
      await sleep(20);
    }
  }

  const load = Array.from({ length: WORKERS }, (_, index) => worker(index));
  const rejoined: Record<string, number> = {};
  try {
    await sleep(PHASE_MS);

    phase = 'instance killed';
    const victim = live[2]!;
    live[2] = null;
    await victim.kill('SIGKILL');
    live[2] = await start();
    everyone.push(live[2]);
    await sleep(PHASE_MS);

    phase = 'Redis restarted empty';
    const killedAt = Date.now();
    await redis.kill();
    await redis.restart();
    rejoined.restart = await rejoin(Date.now());
    outages.push({ from: killedAt, to: Date.now() });
    await sleep(PHASE_MS);

    phase = 'Redis frozen 5 s';
    const frozenAt = Date.now();
    redis.freeze();
    await sleep(5_000);
    redis.thaw();
    rejoined.freeze = await rejoin(Date.now());
    outages.push({ from: frozenAt, to: Date.now() });
    await sleep(Math.max(0, PHASE_MS - rejoined.freeze));

    phase = 'after';
    await sleep(PHASE_MS);
  } finally {
    running = false;
    await Promise.all(load);
    await Promise.all(everyone.map((one) => one.kill()));

    await redis.kill();
    await upstream.close();
  }

  const duplicates = { shared: 0, outage: 0 };
  /** Whether a booking was in flight (first sent to last answered) while the store was away. */
  const duringOutage = (booking: { from: number; to: number }) =>
    outages.some(({ from, to }) => booking.from <= to && booking.to >= from);
  let lost = 0;
  let unknown = 0;
  for (const [guest, answer] of told) {
    const made = bookingsOf(upstream, guest);
    if (made.length > 1) duplicates[duringOutage(lifetime.get(guest)!) ? 'outage' : 'shared']++;
    if (answer?.status === 200 && !made.some((booking) => booking.reference === answer.payload.booking?.reference))
      lost++;
    if (answer?.status !== 200) unknown++;
  }
  const setting = '3 proxy processes, 1 redis-server, sandbox upstream, 12 clients, loopback';
  return [
    {
      name: `fault run (${setting}): keys booked twice outside store outages / lost bookings / keys not answered 200`,
      value: `${duplicates.shared} / ${lost} / ${unknown} of ${told.size} keys`,
      goal: '0 / 0',
    },
    {
      name: 'fault run: keys booked twice while the store was away (in flight on two instances at once; fail-open)',
      value: `${duplicates.outage} of ${[...lifetime.values()].filter(duringOutage).length} keys in flight then`,
    },
    {
      name: 'fault run: every instance sharing again after Redis restarted empty / after a 5 s freeze',
      value: `${rejoined.restart} ms / ${rejoined.freeze} ms`,
      goal: '≤ 2 s',
    },
    ...PHASES.map((name) => {
      const { reads, bookings } = latency.get(name)!;
      return {
        name: `fault run: p99 read / booking (with retries' attempts), phase "${name}"`,
        value: `${p99(reads)} ms / ${p99(bookings)} ms (${reads.length} reads, ${bookings.length} booking attempts)`,
      };
    }),
  ];
}
