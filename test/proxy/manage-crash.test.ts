/**
 * A change is exactly once through a crash (issue 36), with real proxy processes on one real
 * redis-server in front of the real sandbox (test/support/proxy-fleet.ts): the instance holding a
 * change is `kill -9`ed once the new booking is made upstream and before the old one is cancelled;
 * the guest's retry on another instance finds the new booking (the booking search), cancels the
 * old one, and nothing is booked or cancelled twice. The manage link made on one instance opens on
 * the other (the key agreed through Redis).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  bookableTimes,
  bookingBody,
  bookingsOf,
  postBooking,
  startInstance,
  startUpstream,
  type Instance,
  type TestUpstream,
} from '../support/proxy-fleet.js';
import { startRedis, type RedisServer } from '../support/redis.js';

describe('a change through a crash, two instances on Redis', { timeout: 240_000 }, () => {
  let redis: RedisServer;
  let upstream: TestUpstream;
  const started: Instance[] = [];
  before(async () => {
    redis = await startRedis();
    upstream = await startUpstream();
  });
  after(async () => {
    await Promise.all(started.map((instance) => instance.kill()));
    await redis.kill();
    await upstream.close();
  });

  test('the holder killed after booking the new one: the retry elsewhere cancels the old one, once', async () => {
    const prefix = `manage-crash-${process.pid}:`;
    const [a, b] = await Promise.all([
      startInstance(upstream.url, redis.url, prefix),
      startInstance(upstream.url, redis.url, prefix),
    ]);
    started.push(a, b);
    const times = await bookableTimes(a);
    const client = '198.51.100.36';

    const first = await postBooking(a, bookingBody(times[0]!, 'Changer'), `old-${Date.now()}`, client);
    assert.equal(first.status, 200, JSON.stringify(first.payload));
    const token = new URL(first.payload.manage_url as string).pathname.split('/').pop()!;
    const old = upstream.sandbox.store.bookings.find(
      (booking) => booking.reference === first.payload.booking.reference,
    )!;
    // The link made on one instance opens on the other.
    const view = await fetch(`${b.base}/api/manage/${token}`, { headers: { 'x-forwarded-for': client } });
    assert.equal(view.status, 200, await view.clone().text());

    // The change: A books the new booking upstream and is killed before it answers or cancels.
    const body = bookingBody(times[1]!, 'Changer', { replaces: token });
    const key = `change-${Date.now()}`;
    upstream.holdBookings = true;
    const sent = postBooking(a, body, key, client).catch(() => null);
    await upstream.held();
    await a.kill('SIGKILL');
    upstream.holdBookings = false;
    upstream.release();
    assert.equal(await sent, null, 'the holder never answered');
    assert.equal(bookingsOf(upstream, 'Changer').length, 2, 'the new booking was made');
    assert.equal(old.status, 'complete', 'the old one not cancelled yet');

    // The guest retries on B: the new booking found, the old one cancelled.
    const retry = await postBooking(b, body, key, client);
    assert.equal(retry.status, 200, JSON.stringify(retry.payload));
    assert.deepEqual(retry.payload.replaced, { reference: old.reference });
    const made = bookingsOf(upstream, 'Changer').filter((booking) => booking.reference !== old.reference);
    assert.equal(made.length, 1);
    assert.equal(retry.payload.booking.reference, made[0]!.reference, 'the booking A made, not another');
    assert.equal(old.status, 'rejected');
    assert.equal(made[0]!.status, 'complete');

    // Again: replayed, nothing more booked or cancelled.
    const again = await postBooking(b, body, key, client);
    assert.equal(again.payload.booking.reference, made[0]!.reference);
    assert.deepEqual(again.payload.replaced, { reference: old.reference });
    assert.equal(bookingsOf(upstream, 'Changer').length, 2);
    assert.ok(!b.output().includes(token), 'no token in a log line');
    assert.ok(!b.output().includes(old._id), 'no _id in a log line');
  });
});
