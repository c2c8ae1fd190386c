/**
 * `/status` through the real bin (issue 35, "Done when"): bookings from two allowed sites, the
 * booking page and its QR code show apart, and still do after a restart with
 * `VENUE_BOOKING_DATA_FILE`; with Redis, a second instance shows what the first counted, and
 * keeps showing its last copy, saying so, when Redis goes away. The
 * embedded sandbox books for real (its own clock: today, London); the requests carry what a
 * browser's would (`Origin`, and the booking page's `Referer`, which it sends to its own origin).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { addDays, londonDate } from '../../proxy/state/day-counts.js';
import { withProof } from '../support/bot-proof.js';
import { startRedis, until, type RedisServer } from '../support/redis.js';
import { freePort, runBin } from './node-bin.js';
import { sourceRows } from './status-rows.js';
import { TYPE, VENUE } from './support.js';

const ONE = 'https://one.example';
const TWO = 'https://two.example';
/** The line the bin prints once it serves (the widget's, built or not). */
const STARTED = /(Add the widget|not built)[^\n]*\n/;

/** The bin on a free port with `env`; its own origin is `localhost` (the embedded stack's public URL). */
async function startBin(env: Record<string, string>) {
  const port = await freePort();
  const run = await runBin({ PORT: String(port), VENUE_BOOKING_ORIGINS: `${ONE},${TWO}`, ...env }, [], STARTED);
  assert.ok(run.code === null && STARTED.test(run.out), `the bin did not start: ${run.out}`);
  const base = `http://127.0.0.1:${port}`;
  const own = `http://localhost:${port}`;
  let minute = 0;
  /** A real booking a week ahead, sent as a page with `headers` sends it (each at its own time). */
  const book = async (headers: Record<string, string>) => {
    const time = `18:${String(15 * (minute++ % 4)).padStart(2, '0')}`;
    const url = `${base}/api/bookings`;
    // With its proof of work, solved as the widget on that page solves it.
    const init = await withProof(fetch, url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({
        venue_id: VENUE,
        type: TYPE,
        date: addDays(londonDate(Date.now()), 7),
        time,
        num_people: 2,
        duration: 2,
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: 'ada@example.com',
        phone: '07700 900123',
      }),
    });
    const response = await fetch(url, init);
    assert.equal(response.status, 200, await response.text());
  };
  const rows = async () => sourceRows(await (await fetch(`${base}/status`)).text());
  return { base, own, book, rows, stop: run.stop };
}

/** Bookings from both sites (two from the second), the booking page's link and its QR code. */
async function bookFromEverywhere(bin: Awaited<ReturnType<typeof startBin>>): Promise<void> {
  await bin.book({ origin: ONE });
  await bin.book({ origin: TWO });
  await bin.book({ origin: TWO });
  await bin.book({ origin: bin.own, referer: `${bin.own}/book/${VENUE}` });
  await bin.book({ origin: bin.own, referer: `${bin.own}/book/${VENUE}?theme=dark&via=qr` });
}

/** Each source's words for today, this week and this month, all three the same on a first day. */
const apart = (one: number, two: number, page: number, qr: number) =>
  (
    [
      [ONE, one],
      [TWO, two],
      ['Your booking page (its link)', page],
      ['Your booking page’s QR code', qr],
    ] as const
  ).map(([label, count]) => [
    label,
    ...Array(3).fill(`${count} booking${count === 1 ? '' : 's'}, 0 enquiries, 0 page views`),
  ]);

describe('/status through the real bin', { timeout: 240_000 }, () => {
  const stops: (() => void)[] = [];
  let redis: RedisServer | undefined;
  after(async () => {
    for (const stop of stops) stop();
    await redis?.kill();
  });

  test('shows bookings from two sites, the booking page and its QR code apart, and still after a restart (VENUE_BOOKING_DATA_FILE)', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'status-bin-')), 'records.json');
    const first = await startBin({ VENUE_BOOKING_DATA_FILE: file });
    stops.push(first.stop);
    await bookFromEverywhere(first);
    assert.deepEqual(await first.rows(), apart(1, 2, 1, 1));
    // The counts reach the file a moment after (a burst is one write); then the process ends.
    await until(
      () => existsSync(file) && readFileSync(file, 'utf8').includes('|qr|confirmed'),
      'the counts in the file',
    );
    first.stop();
    const second = await startBin({ VENUE_BOOKING_DATA_FILE: file });
    stops.push(second.stop);
    assert.deepEqual(await second.rows(), apart(1, 2, 1, 1), 'after the restart');
    await second.book({ origin: ONE });
    assert.deepEqual(await second.rows(), apart(2, 2, 1, 1), 'counting on from there');
  });

  test('with Redis, a second instance shows what the first counted', async () => {
    redis = await startRedis();
    const env = { VENUE_BOOKING_REDIS_URL: redis.url, VENUE_BOOKING_REDIS_PREFIX: `status-${process.pid}:` };
    const first = await startBin(env);
    stops.push(first.stop);
    const second = await startBin(env);
    stops.push(second.stop);
    await bookFromEverywhere(first);
    await second.book({ origin: ONE });
    let seen: string[][] = [];
    await until(async () => {
      seen = await second.rows();
      return JSON.stringify(seen) === JSON.stringify(apart(2, 2, 1, 1));
    }, 'both instances’ counts on the second');
    assert.deepEqual(await first.rows(), apart(2, 2, 1, 1));
    // Redis gone: the page says so, and what it shows is the instance's last copy, not zeros.
    await redis.kill();
    let html = '';
    await until(
      async () => {
        html = await (await fetch(`${second.base}/status`)).text();
        return html.includes('this server’s last copy');
      },
      'the status page saying the shared store does not answer',
      30_000,
    );
    assert.match(
      html,
      /Action needed: tell your web person that the shared memory between your servers is not reachable/,
    );
    assert.deepEqual(sourceRows(html), apart(2, 2, 1, 1));
  });
});
