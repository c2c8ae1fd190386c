/** The `venue-booking-sandbox` command: flags, listening, and refusing bad flags. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { networkInterfaces } from 'node:os';
import { fileURLToPath } from 'node:url';

/** The bin's source, run through tsx; test/package/pack.test.ts runs the compiled bin. */
const BIN = fileURLToPath(new URL('../../sandbox/cli.ts', import.meta.url));

function start(args: string[]): Promise<{ port: number; stop: () => void; output: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`no listening line: ${out}`));
    }, 15_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /listening on http:\/\/(?:localhost|[\d.]+|\[[\da-f:]+\]):(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ port: Number(m[1]), stop: () => child.kill(), output: () => out });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code}: ${out}`));
    });
  });
}

function exitOf(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

describe('venue-booking-sandbox CLI', () => {
  it('on a port in use says so in one line and exits non-zero, with no stack trace', async () => {
    const taken = await start(['--port', '0']);
    try {
      const { code, out } = await exitOf(['--port', String(taken.port)]);
      assert.ok(code !== null && code !== 0, `exit code ${code}`);
      assert.deepEqual(out.trim().split('\n'), [
        `venue-booking-sandbox: port ${taken.port} is already in use: stop what listens there, or choose another port with --port.`,
      ]);
    } finally {
      taken.stop();
    }
  });

  it('serves the API with --now, --app, --rate-limit and --dialect', async () => {
    const server = await start([
      '--port',
      '0',
      '--now',
      '2026-03-20T10:00:00Z',
      '--app',
      'cli-app:cli-key',
      '--rate-limit',
      '7',
      '--dialect',
      'live',
    ]);
    try {
      assert.match(server.output(), /live dialect/);
      const res = await fetch(
        `http://localhost:${server.port}/v4/venues/64a1f0c2e4b0a1b2c3d4e501/booking-availability?type=64a1f0c2e4b0a1b2c3d4e601&fields=time`,
        {
          headers: { authorization: 'cli-app:cli-key' },
        },
      );
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('x-ratelimit-limit'), '7');
      const body = await res.json();
      assert.equal(body.requestTime, '2026-03-20T10:00:00');
      assert.ok('time' in body.payload.validation.time.suggestedValues[0], 'live shapes');
      const users = await fetch(`http://localhost:${server.port}/v4/users?search=smith`, {
        headers: { authorization: 'cli-app:cli-key' },
      });
      assert.equal(users.status, 200, '--app apps have full access');
    } finally {
      server.stop();
    }
  });

  it('says where the OpenAPI document and the journal are, and serves both (controls on); --scenario applies', async () => {
    const server = await start(['--port', '0', '--now', '2026-03-20T10:00:00Z', '--scenario', 'enquiry-only']);
    try {
      const base = `http://localhost:${server.port}`;
      // The listening line comes first; the rest of the banner follows at once.
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.match(server.output(), new RegExp(`OpenAPI document: ${base}/v4/openapi\\.json`));
      assert.match(server.output(), new RegExp(`Request journal: +${base}/__sandbox/requests`));
      const auth = { authorization: 'sandbox-widget:sandbox-widget-key' };
      const avail = await fetch(
        `${base}/v4/venues/64a1f0c2e4b0a1b2c3d4e501/booking-availability?type=64a1f0c2e4b0a1b2c3d4e601&num_people=2&date=2026-03-23&time=19:00&duration=2`,
        { headers: auth },
      );
      assert.equal((await avail.json()).payload.action, 'enquire', 'the enquiry-only scenario of every request');
      assert.equal(avail.headers.get('preference-applied'), 'scenario=enquiry-only');
      const doc = await (await fetch(`${base}/v4/openapi.json`)).json();
      assert.equal(doc.openapi, '3.1.0');
      const journal = await (await fetch(`${base}/__sandbox/requests?method=GET&path=/v4/venues/*`)).json();
      assert.equal(journal.payload.requests.length, 1);
      assert.equal(journal.payload.requests[0].app, 'sandbox-widget');
    } finally {
      server.stop();
    }
  });

  it('listens on loopback by default; --host opens other interfaces (issue 24, finding 4)', async () => {
    const outward = Object.values(networkInterfaces())
      .flat()
      .find((address) => address && !address.internal && address.family === 'IPv4')?.address;
    assert.ok(outward, 'this machine has a non-loopback IPv4 address to try');
    const reaches = (host: string, port: number) =>
      fetch(`http://${host}:${port}/v4/openapi.json`, { signal: AbortSignal.timeout(5_000) }).then(
        (response) => response.status,
        () => null,
      );
    const local = await start(['--port', '0']);
    try {
      assert.equal(await reaches('127.0.0.1', local.port), 200);
      assert.equal(await reaches(outward, local.port), null, `not listening on ${outward}`);
    } finally {
      local.stop();
    }
    const everywhere = await start(['--port', '0', '--host', '0.0.0.0']);
    try {
      assert.equal(await reaches(outward, everywhere.port), 200);
      // Reached from another interface, the controls still answer only a localhost Host.
      const controls = await fetch(`http://${outward}:${everywhere.port}/__sandbox/requests`);
      assert.equal(controls.status, 403);
    } finally {
      everywhere.stop();
    }
    const { out } = await exitOf(['--help']);
    assert.match(out, /--host ADDRESS +address to listen on \(default 127\.0\.0\.1/);
  });

  it('controls refuse a rebinding Host and a cross-site form; JSON or X-Sandbox-Control moves the clock', async () => {
    const server = await start(['--port', '0', '--now', '2026-03-20T10:00:00Z']);
    /** A raw request, with a Host header of our choosing (fetch would not send one). */
    const raw = (method: string, path: string, headers: Record<string, string>, body = '') =>
      new Promise<{ status: number; text: string }>((resolve, reject) => {
        const sent = httpRequest({ host: '127.0.0.1', port: server.port, method, path, headers }, (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () => resolve({ status: response.statusCode!, text }));
        });
        sent.on('error', reject);
        sent.end(body);
      });
    try {
      await fetch(`http://127.0.0.1:${server.port}/v4/venues`, {
        headers: { authorization: 'sandbox-widget:sandbox-widget-key' },
      });
      const rebound = await raw('GET', '/__sandbox/requests', { host: `evil.example:${server.port}` });
      assert.equal(rebound.status, 403);
      assert.ok(!rebound.text.includes('/v4/venues'), 'the journal is not read');
      const local = await raw('GET', '/__sandbox/requests', { host: `localhost:${server.port}` });
      assert.equal(local.status, 200);
      assert.match(local.text, /\/v4\/venues/);

      const clock = async () =>
        JSON.parse((await raw('GET', '/__sandbox/clock', { host: '127.0.0.1' })).text).payload.now;
      const before = await clock();
      const form = {
        host: '127.0.0.1',
        origin: 'https://evil.example',
        'content-type': 'application/x-www-form-urlencoded',
      };
      assert.equal((await raw('POST', '/__sandbox/clock', form, 'advance=P1D')).status, 415);
      assert.equal((await raw('POST', '/__sandbox/reset', form)).status, 415);
      const plain = { host: '127.0.0.1', 'content-type': 'text/plain' };
      assert.equal((await raw('POST', '/__sandbox/clock', plain, '{"advance":"P1D"}')).status, 415);
      assert.equal(await clock(), before, 'the clock did not move');
      const json = { host: '127.0.0.1', 'content-type': 'application/json' };
      assert.equal((await raw('POST', '/__sandbox/clock', json, '{"advance":"P1D"}')).status, 200);
      const header = { host: '127.0.0.1', 'x-sandbox-control': '1' };
      assert.equal((await raw('POST', '/__sandbox/reset', header)).status, 200);
    } finally {
      server.stop();
    }
  });

  it('--print-openapi prints the document and exits', async () => {
    const { code, out } = await exitOf(['--print-openapi', '--public-url', 'https://sandbox.example']);
    assert.equal(code, 0, out);
    const doc = JSON.parse(out);
    assert.equal(doc.openapi, '3.1.0');
    assert.deepEqual(doc.servers, [{ url: 'https://sandbox.example/v4' }]);
  });

  it('refuses bad flags with usage and exit code 2', async () => {
    for (const args of [
      ['--dialect', 'yaml'],
      ['--port', 'abc'],
      ['--app', 'nokey'],
      ['--rate-limit', '0'],
      ['--now', 'someday'],
      ['--seed', '/nonexistent.json'],
      ['--scenario', 'on-fire'],
      ['--latency', 'soon'],
      ['--bogus'],
    ]) {
      const { code, out } = await exitOf(args);
      assert.equal(code, 2, args.join(' '));
      assert.match(out, /Usage: venue-booking-sandbox/);
    }
  });
});
