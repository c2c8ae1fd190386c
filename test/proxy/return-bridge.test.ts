/**
 * The return bridge's default target: the page the guest left from, on an origin the proxy serves,
 * with only the reference and status added (personal data posted to it never reaches a URL); the
 * probe that tells the widget a bridge exists costs no upstream call.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BASE, ORIGIN, OTHER_VENUE, recordingProxy, VENUE } from './support.js';

const RETURNED =
  'reference=DMN-12345678901&status=complete&first_name=Ada&last_name=Lovelace&email=ada%40example.com&phone=07700900123';
const post = (path: string, origin = 'https://book.example'): RequestInit & { path: string } => ({
  path,
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
  body: RETURNED,
});

describe('return bridge', () => {
  it('GET /api/return answers the methods on offer without calling the upstream', async () => {
    const { send, calls } = recordingProxy();
    const response = await send('/api/return', { headers: { origin: ORIGIN } });
    assert.equal(response.status, 200);
    const body = (await response.json()) as { payload: { methods: string[] } };
    assert.deepEqual(body.payload.methods, ['post', 'get']);
    assert.equal(response.headers.get('access-control-allow-origin'), ORIGIN);
    assert.equal(calls.length, 0);
  });

  for (const [name, page] of [
    ['a configured origin', `${ORIGIN}/book?table=1&vb_return=w1`],
    ['the proxy’s own origin', `${BASE}/venue?vb_return=w1`],
  ] as const) {
    it(`defaults to the page the guest left from, on ${name}, with only reference and status added`, async () => {
      const { send, calls, logger } = recordingProxy();
      // A stale return on the page the guest left from is replaced, never kept.
      const left = `${page}&email=old%40example.com&reference=OLD#step`;
      const { path, ...init } = post(`/api/return?venue=${OTHER_VENUE}&page=${encodeURIComponent(left)}`);
      const response = await send(path, init);
      assert.equal(response.status, 303);
      const location = new URL(response.headers.get('location')!);
      assert.equal(location.origin + location.pathname, new URL(page).origin + new URL(page).pathname);
      assert.equal(location.searchParams.get('vb_return'), 'w1');
      assert.equal(location.searchParams.get('reference'), 'DMN-12345678901');
      assert.equal(location.searchParams.get('status'), 'complete');
      assert.equal(location.hash, '');
      for (const secret of ['Ada', 'Lovelace', 'ada@', 'ada%40', '07700900123', 'old'])
        assert.ok(!location.href.includes(secret), `${secret} in ${location.href}`);
      assert.equal(response.headers.get('referrer-policy'), 'no-referrer');
      assert.equal(calls.length, 0);
      assert.ok(!JSON.stringify(logger.lines).includes('Lovelace'), 'no personal data in the logs');
    });
  }

  it('takes the POST from a no-referrer booking page (Origin: null), and that opaque origin nowhere else', async () => {
    const { send, calls } = recordingProxy();
    const { path, ...init } = post(
      `/api/return?venue=${OTHER_VENUE}&page=${encodeURIComponent(`${ORIGIN}/book?vb_return=w1`)}`,
      'null',
    );
    const response = await send(path, init);
    assert.equal(response.status, 303);
    assert.equal(new URL(response.headers.get('location')!).searchParams.get('reference'), 'DMN-12345678901');
    const read = await send(`/api/venues/${VENUE}/offers`, { headers: { origin: 'null' } });
    assert.equal(read.status, 403);
    assert.equal(calls.length, 0);
  });

  it('with the bridge off, the probe says 404 and only configured pages are targets', async () => {
    const { send } = recordingProxy({ returnBridge: false });
    assert.equal((await send('/api/return', { headers: { origin: ORIGIN } })).status, 404);
    const left = post(`/api/return?venue=${OTHER_VENUE}&page=${encodeURIComponent(`${ORIGIN}/book`)}`);
    assert.equal((await send(left.path, left)).status, 404);
    const configured = post(`/api/return?venue=${VENUE}`);
    assert.equal((await send(configured.path, configured)).status, 303);
  });

  it('a configured page still wins over the page the widget names', async () => {
    const { send } = recordingProxy();
    const { path, ...init } = post(`/api/return?venue=${VENUE}&page=${encodeURIComponent(`${ORIGIN}/elsewhere`)}`);
    const response = await send(path, init);
    assert.equal(response.status, 303);
    assert.match(response.headers.get('location')!, /^https:\/\/venue\.example\/thanks\?reference=/);
  });
});
