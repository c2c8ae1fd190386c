/**
 * Sandbox latency: availability for a venue holding 10,000 stored bookings, and booking search over
 * 100,000 bookings (goals: p50 ≤ 2 ms and p50 ≤ 50 ms). Measured through `sandbox.fetch` with real
 * Requests, so routing, auth, rate limiting and JSON encoding are included.
 *
 * Run with `npm run bench` (shared runner) or directly: `node --import tsx test/bench/sandbox.bench.ts`.
 */
import { createSandbox, SANDBOX_APP, SEED_IDS, type Sandbox } from '../../sandbox/app.js';
import { addDays } from '../../sandbox/time.js';

const V1 = SEED_IDS.venues.quayside;
const TYPES = [SEED_IDS.types.table, SEED_IDS.types.expressLunch, SEED_IDS.types.bar];
const ALL_APP = { id: 'bench', key: 'bench-key' };
const TODAY = '2026-03-20';

/** Deterministic pseudo-random numbers, so every run measures the same data. */
function rng(seed: number) {
  return () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

/** Bulk-loads bookings straight into the store (the API path would dominate the set-up time). */
function load(sandbox: Sandbox, count: number, venues: string[], days: number) {
  const r = rng(42);
  const statuses = ['complete', 'complete', 'complete', 'new', 'in_progress', 'rejected', 'lost'] as const;
  for (let i = 0; i < count; i++) {
    const venue = venues[i % venues.length]!;
    const slot = Math.floor(r() * 38);
    sandbox.store.insert(
      sandbox.store.fromSeed({
        venue_id: venue,
        date: addDays(TODAY, Math.floor(r() * days) - 30),
        time: `${String(12 + Math.floor(slot / 4)).padStart(2, '0')}:${String((slot % 4) * 15).padStart(2, '0')}`,
        duration: 90,
        type: TYPES[i % TYPES.length]!,
        num_people: 1 + Math.floor(r() * 4),
        first_name: `First${i}`,
        last_name: `Last${i % 5000}`,
        email: `guest${i}@bench.example`,
        phone: `0770${String(i).padStart(7, '0')}`,
        status: statuses[i % statuses.length],
        created_date: Date.UTC(2026, 0, 1) + i * 60_000,
      }),
    );
  }
}

async function time(
  sandbox: Sandbox,
  urls: string[],
  headers: Record<string, string>,
  rounds: number,
  between?: (i: number) => void,
): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < rounds; i++) {
    between?.(i);
    const url = urls[i % urls.length]!;
    const t = performance.now();
    const res = await sandbox.fetch(new Request(url, { headers }));
    await res.text();
    out.push(performance.now() - t);
    if (res.status !== 200) throw new Error(`${url} → ${res.status}`);
  }
  return out;
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const fmt = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(2)} ms, p99 ${pct(xs, 99).toFixed(2)} ms (n=${xs.length})`;

/** Runs the sandbox benchmarks and returns one row per figure. */
export async function run(): Promise<{ name: string; value: string; goal?: string }[]> {
  const rows: { name: string; value: string; goal?: string }[] = [];
  const headers = { authorization: `${ALL_APP.id}:${ALL_APP.key}` };
  const widget = { authorization: `${SANDBOX_APP.id}:${SANDBOX_APP.key}` };

  // --- availability: 10,000 bookings at one venue over 120 days (~83 a day) ---
  {
    const sandbox = createSandbox({
      now: `${TODAY}T10:00:00Z`,
      rateLimit: 1e9,
      apps: [{ ...ALL_APP, capabilities: 'all' }],
    });
    load(sandbox, 10_000, [V1], 120);
    const urls = Array.from(
      { length: 60 },
      (_, d) =>
        `http://bench/v4/venues/${V1}/booking-availability?type=${TYPES[0]}&num_people=4&date=${addDays(TODAY, d + 1)}&time=19:00&duration=120`,
    );
    await time(sandbox, urls, widget, 300); // warm-up (JIT, per-day plans)
    rows.push({
      name: 'availability, every field, 10,000 bookings at the venue',
      value: fmt(await time(sandbox, urls, widget, 2000)),
      goal: 'p50 ≤ 2 ms',
    });
    const timeOnly = urls.map((u) => `${u}&fields=time`);
    rows.push({
      name: 'availability, fields=time, 10,000 bookings',
      value: fmt(await time(sandbox, timeOnly, widget, 2000)),
      goal: 'p50 ≤ 2 ms',
    });
    let n = 0;
    const write = (i: number) => {
      // A booking on the date about to be queried invalidates its cached occupancy.
      sandbox.store.insert(
        sandbox.store.fromSeed({
          venue_id: V1,
          date: addDays(TODAY, (i % 60) + 1),
          time: '13:00',
          duration: 90,
          type: TYPES[0]!,
          num_people: 2,
          first_name: 'W',
          last_name: `W${n++}`,
        }),
      );
    };
    rows.push({
      name: 'availability after a write to that day (cold occupancy)',
      value: fmt(await time(sandbox, urls, widget, 1000, write)),
      goal: 'p50 ≤ 2 ms',
    });
  }

  // --- search: 100,000 bookings over 3 venues and a year ---
  {
    const sandbox = createSandbox({
      now: `${TODAY}T10:00:00Z`,
      rateLimit: 1e9,
      apps: [{ ...ALL_APP, capabilities: 'all' }],
    });
    load(sandbox, 100_000, [SEED_IDS.venues.quayside, SEED_IDS.venues.cellar, SEED_IDS.venues.kitchen], 365);
    const base = 'http://bench/v4/bookings?';
    const cases: [string, string[]][] = [
      ['search by email', Array.from({ length: 50 }, (_, i) => `${base}email=guest${i * 1999}@bench.example`)],
      [
        'search date range + status + venue, date_asc page 1',
        Array.from(
          { length: 30 },
          (_, i) => `${base}date=${addDays(TODAY, i)} TO ${addDays(TODAY, i + 7)}&status=all&venue_id=${V1}`,
        ),
      ],
      ['search free text query', Array.from({ length: 30 }, (_, i) => `${base}query=last${i * 97}`)],
      ['search everything, created_date_desc page 1', [`${base}sort=created_date_desc&status=include_rejected`]],
      [
        'search num_people range + time range, page 10',
        [`${base}num_people=3 TO *&start_time=18:00 TO 20:00&start=270&limit=30`],
      ],
    ];
    for (const [name, urls] of cases) {
      await time(sandbox, urls, headers, 20);
      rows.push({
        name: `${name} (100,000 bookings)`,
        value: fmt(await time(sandbox, urls, headers, 200)),
        goal: 'p50 ≤ 50 ms',
      });
    }
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await run()) console.log(`${row.name}: ${row.value}${row.goal ? `  (goal ${row.goal})` : ''}`);
}
