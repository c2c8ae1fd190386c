/**
 * The pages at the same door as the API, through the real bins (issue 34): every page counts
 * against a per-client limit and is refused with 429 in its own form (an HTML page in the guest's
 * language, the envelope for `/site-check`) with `Retry-After`; without `VENUE_BOOKING_PUBLIC_URL`
 * a page that renders the proxy's own address answers a foreign `Host` with 421, as the API does;
 * the operator port decides what it serves on the normalised path (dot segments resolved, `%2e`
 * decoded, an encoded slash refused), and its studio names the public address, never its own port.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { strFromU8, unzipSync } from 'fflate';
import { integrityOf } from '../../proxy/core/encoding.js';
import { freePort, runBin } from './node-bin.js';
import { GROUP, VENUE } from './support.js';

const LISTENING = /(Add the widget|not built)[^\n]*\n/;
const SANDBOX_BIN = fileURLToPath(new URL('../../sandbox/cli.ts', import.meta.url));

/**
 * A GET sent as written (no URL parser between: dot segments and escapes reach the server), with
 * the headers given (`host` included); resolves with the status, headers and body.
 */
function rawGet(
  port: number,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, path, headers, timeout: 10_000 }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.on('timeout', () => request.destroy(new Error(`no answer to ${path}`)));
    request.on('error', reject);
    request.end();
  });
}

/** Starts the sandbox's own bin on a free port with one app; resolves with its port and `stop`. */
function runSandbox(app: string): Promise<{ port: number; stop: () => void }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', SANDBOX_BIN, '--port', '0', '--app', app], {
      env: { PATH: process.env.PATH ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`the sandbox did not start: ${out}`));
    }, 20_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const port = /listening on http:\/\/[^:\s]+:(\d+)/.exec(out)?.[1];
      if (port) {
        clearTimeout(timer);
        resolve({ port: Number(port), stop: () => child.kill() });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
  });
}

describe('every page under a per-client limit, refused in its own form', { timeout: 60_000 }, () => {
  let port = 0;
  let stop = () => {};
  before(async () => {
    port = await freePort();
    const run = await runBin({ PORT: String(port), VENUE_BOOKING_RATE_LIMIT: '6' }, [], LISTENING);
    stop = run.stop;
  });
  after(() => stop());

  test('the booking page, its QR code, /site-check, the studio and the plugin: 429 with Retry-After; the API counts apart', async () => {
    let refused: Awaited<ReturnType<typeof rawGet>> | undefined;
    for (let i = 0; i < 20 && !refused; i++) {
      const page = await rawGet(port, `/book/${VENUE}?locale=fr`);
      if (page.status === 429) refused = page;
      else assert.equal(page.status, 200, `request ${i + 1}`);
    }
    assert.ok(refused, 'the client reached its page limit');
    assert.match(String(refused.headers['content-type']), /^text\/html/);
    assert.ok(Number(refused.headers['retry-after']) >= 1, 'Retry-After');
    assert.match(String(refused.headers['ratelimit-policy']), /^"pages";q=6;w=60$/);
    assert.match(refused.body, /<html lang="fr"/, 'in the language the link asked for');
    assert.match(refused.body, /<h1>[^<]+<\/h1>/);

    for (const path of [
      `/book/${VENUE}/qr.svg`,
      `/book/${VENUE}/qr.png`,
      '/embed',
      `/embed/wordpress-plugin.zip?venue=${VENUE}`,
    ]) {
      const page = await rawGet(port, path);
      assert.equal(page.status, 429, path);
      assert.match(String(page.headers['content-type']), /^text\/html/, path);
      assert.ok(Number(page.headers['retry-after']) >= 1, path);
    }
    const check = await rawGet(port, '/site-check?origin=https%3A%2F%2Fshop.example');
    assert.equal(check.status, 429);
    assert.match(String(check.headers['content-type']), /^application\/json/);
    const envelope = JSON.parse(check.body) as { status: number; payload: { errors: { code: string }[] } };
    assert.equal(envelope.status, 429);
    assert.ok(Number(check.headers['retry-after']) >= 1);
    // The widget's reads count against the API's limit, not the pages'.
    assert.equal((await rawGet(port, `/api/venues/${VENUE}/booking-availability?num_people=2`)).status, 200);
    // The probes are no pages.
    assert.equal((await rawGet(port, '/livez')).status, 200);
  });
});

describe('the Host rule on every page that names the proxy (no VENUE_BOOKING_PUBLIC_URL)', { timeout: 60_000 }, () => {
  let port = 0;
  const stops: (() => void)[] = [];
  before(async () => {
    const sandbox = await runSandbox('pages-app:pages-key');
    stops.push(sandbox.stop);
    port = await freePort();
    const run = await runBin(
      {
        PORT: String(port),
        VENUE_BOOKING_APP_ID: 'pages-app',
        VENUE_BOOKING_API_KEY: 'pages-key',
        VENUE_BOOKING_UPSTREAM: `http://127.0.0.1:${sandbox.port}/v4`,
        VENUE_BOOKING_VENUES: VENUE,
        VENUE_BOOKING_BOOKING_SITE: `http://127.0.0.1:${sandbox.port}/book`,
      },
      [],
      LISTENING,
    );
    stops.push(run.stop);
  });
  after(() => stops.forEach((stop) => stop()));

  test('a foreign Host gets 421 on the booking page, its QR codes and /site-check; a loopback one is served', async () => {
    const foreign = { host: 'rebound.example' };
    for (const path of [
      `/book/${VENUE}`,
      `/book/${VENUE}/qr.svg`,
      `/book/${VENUE}/qr.png`,
      '/site-check?origin=http%3A%2F%2Frebound.example',
    ]) {
      const answer = await rawGet(port, path, foreign);
      assert.equal(answer.status, 421, path);
      assert.ok(!answer.body.includes('rebound.example'), `${path} names no foreign address`);
    }
    // The page, asked at this machine's name, works as before.
    const page = await rawGet(port, `/book/${VENUE}`, { host: `127.0.0.1:${port}` });
    assert.equal(page.status, 200);
    // Probes are asked at whatever address the orchestrator uses: they name nothing and stay open.
    assert.equal((await rawGet(port, '/livez', foreign)).status, 200);
  });
});

describe(
  'the operator port: the normalised path decides, and its studio names the public address',
  { timeout: 60_000 },
  () => {
    let port = 0;
    let operatorPort = 0;
    let stop = () => {};
    before(async () => {
      [port, operatorPort] = [await freePort(), await freePort()];
      const run = await runBin(
        {
          PORT: String(port),
          VENUE_BOOKING_OPERATOR_PORT: String(operatorPort),
          VENUE_BOOKING_METRICS_TOKEN: 'op-token-0123456789abcdef',
        },
        [],
        /Operator port[^\n]*\n/,
      );
      stop = run.stop;
      // The operator port's line comes before the public listener may have answered.
      for (let i = 0; i < 50 && (await rawGet(port, '/livez').catch(() => null))?.status !== 200; i++)
        await new Promise((resolve) => setTimeout(resolve, 100));
    });
    after(() => stop());

    test('dot segments, %2e and encoded slashes never reach the API or the booking pages there', async () => {
      for (const path of [
        `/embed/../api/venues/${VENUE}`,
        `/embed/%2e%2e/api/venues/${VENUE}`,
        `/embed/%2E%2e/api/venues/${VENUE}/booking-availability?num_people=2`,
        `/status/../book/${VENUE}`,
        `/metrics/./../book/${VENUE}/qr.svg`,
      ])
        assert.equal((await rawGet(operatorPort, path)).status, 404, path);
      for (const path of [`/embed%2f..%2fapi/venues/${VENUE}`, `/embed/..%2Fapi/venues/${VENUE}`])
        assert.equal((await rawGet(operatorPort, path)).status, 400, path);
      // What resolves to an operator page is that page.
      assert.equal((await rawGet(operatorPort, '/book/../status')).status, 200);
      assert.equal((await rawGet(operatorPort, '/embed/%2e/')).status, 404, '/embed/ is no page');
      // The public port resolves alike: the API is served there, the pages still want the token.
      assert.equal((await rawGet(port, `/embed/%2e%2e/api/venues/${VENUE}`)).status, 200);
      assert.equal((await rawGet(port, '/api/../status')).status, 401);
    });

    test('the studio there gives guests the public listener, never the operator port; the plugin it hands out too', async () => {
      const studio = await rawGet(operatorPort, `/embed?venue=${VENUE}`, { host: `127.0.0.1:${operatorPort}` });
      assert.equal(studio.status, 200);
      const html = studio.body.replace(/&quot;/g, '"').replace(/&amp;/g, '&');
      const snippet = /<textarea id="snippet"[^>]*>([^<]*)<\/textarea>/.exec(html)![1]!;
      const publicBase = `http://localhost:${port}`;
      assert.ok(snippet.includes(`src="${publicBase}/venue-booking.js"`), snippet);
      assert.ok(snippet.includes(`api="${publicBase}/api"`), snippet);
      assert.ok(!snippet.includes(`:${operatorPort}`), snippet);
      for (const id of ['booking-link', 'qr-download', 'qr-download-png'])
        assert.match(html, new RegExp(`id="${id}" href="${publicBase}/`), id);
      assert.ok(html.includes(`aria-label="QR code of ${publicBase}/book/${VENUE}`), 'the QR code shown');
      // The download is the studio's own (an operator page, here); the plugin in it names the public address.
      const plugin = new URL(/id="wordpress-plugin" href="([^"]+)"/.exec(html)![1]!);
      assert.equal(plugin.port, String(operatorPort));
      const zip = await new Promise<Buffer>((resolve, reject) => {
        httpRequest(
          { host: '127.0.0.1', port: operatorPort, path: `${plugin.pathname}${plugin.search}` },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () => resolve(Buffer.concat(chunks)));
          },
        )
          .on('error', reject)
          .end();
      });
      const defaults = strFromU8(unzipSync(new Uint8Array(zip))['venue-booking/defaults.php']!);
      assert.ok(defaults.includes(`'${publicBase}'`), defaults);
      assert.ok(!defaults.includes(`:${operatorPort}`), defaults);
    });

    test('the studio asks for a group’s plugin by ?group=, and that download is served', async () => {
      const studio = await rawGet(operatorPort, `/embed?group=${GROUP}`);
      const plugin = /id="wordpress-plugin" href="([^"]+)"/.exec(studio.body)![1]!.replace(/&amp;/g, '&');
      const url = new URL(plugin);
      assert.equal(url.searchParams.get('group'), GROUP);
      assert.equal(url.searchParams.get('venue'), null);
      const zip = await rawGet(operatorPort, `${url.pathname}${url.search}`);
      assert.equal(zip.status, 200);
    });
  },
);

describe('a word table picked by a query', { timeout: 60_000 }, () => {
  test('locale=__proto__ and its kin fall back to English, never "undefined"', async () => {
    const port = await freePort();
    const run = await runBin({ PORT: String(port) }, [], LISTENING);
    try {
      for (const locale of ['__proto__', 'constructor', 'toString', 'hasOwnProperty'])
        for (const path of [`/book/64a1f0c2e4b0a1b2c3d4e599?locale=${locale}`, `/book/${VENUE}?locale=${locale}`]) {
          const page = await rawGet(port, path);
          assert.match(page.body, /<html lang="en-GB"/, path);
          assert.ok(!/undefined|\[object|function /.test(page.body), path);
        }
    } finally {
      run.stop();
    }
  });
});

describe("the widget bundle's integrity", () => {
  test('is computed once per bundle, not once per page', () => {
    const bundle = new TextEncoder().encode('customElements.define("x-y", class {});') as Uint8Array<ArrayBuffer>;
    assert.equal(integrityOf(bundle), integrityOf(bundle));
  });
});
