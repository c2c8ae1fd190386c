/**
 * A fleet for the crash tests and the fault bench: proxy instances as real processes (the Node
 * entry, run from source through tsx) sharing one real redis-server, in front of a test upstream:
 * a small Node HTTP server wrapping the real sandbox's fetch handler, with hooks that
 *
 * - hold the answers of `POST /bookings` after the sandbox has booked, so that a `kill -9` of the
 *   instance waiting for it lands exactly between the upstream's answer and the store write;
 * - hold the next read that matches, so that an instance can be killed while it loads a read;
 * - fail the booking search (`GET /bookings`), as an upstream without it would;
 * - answer `POST /bookings` with a 503 without booking, as an upstream in trouble does.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { createSandbox, SANDBOX_APP, type Sandbox } from '../../sandbox/app.js';
import { freePort, until } from './redis.js';
import { withProof } from './bot-proof.js';

export const VENUE = '64a1f0c2e4b0a1b2c3d4e501';
export const TYPE = '64a1f0c2e4b0a1b2c3d4e601';
export const DATE = '2030-06-04';

/** The test upstream and its hooks. */
export interface TestUpstream {
  /** Base URL, ending in /v4. */
  url: string;
  sandbox: Sandbox;
  /** Hold every booking's answer (after the sandbox booked) until `release()`. */
  holdBookings: boolean;
  /** Hold the next read whose URL this matches (once) until `release()`. */
  holdNextRead: ((url: URL) => boolean) | null;
  /** Answer the booking search with a 503. */
  failSearch: boolean;
  /** Answer every `POST /bookings` with a 503, booking nothing. */
  failBookings: boolean;
  /** Booking searches received. */
  searches: number;
  /** Settles when a request is being held (at once if one is). */
  held(): Promise<void>;
  /** Lets every held answer go. */
  release(): void;
  close(): Promise<void>;
}

/** Starts the test upstream on a free loopback port. */
export async function startUpstream(): Promise<TestUpstream> {
  const sandbox = createSandbox({ now: '2030-05-01T10:00:00' });
  const holding: (() => void)[] = [];
  let onHeld: (() => void)[] = [];
  const hold = () =>
    new Promise<void>((resolve) => {
      holding.push(resolve);
      for (const notify of onHeld) notify();
      onHeld = [];
    });
  const upstream: TestUpstream = {
    url: '',
    sandbox,
    holdBookings: false,
    holdNextRead: null,
    failSearch: false,
    failBookings: false,
    searches: 0,
    held: () => (holding.length ? Promise.resolve() : new Promise((resolve) => onHeld.push(resolve))),
    release: () => holding.splice(0).forEach((resolve) => resolve()),
    close: async () => {
      upstream.release();
      server.close();
      (server as { closeAllConnections?: () => void }).closeAllConnections?.();
    },
  };
  const fetch = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const booking = url.pathname === '/v4/bookings';
    if (booking && request.method === 'GET') {
      upstream.searches++;
      if (upstream.failSearch)
        return Response.json({ payload: { message: 'Search unavailable', errors: [] }, status: 503 }, { status: 503 });
    }
    if (booking && request.method === 'POST' && upstream.failBookings)
      return Response.json({ payload: { message: 'Service unavailable', errors: [] }, status: 503 }, { status: 503 });
    const holdRead = request.method === 'GET' && !booking && upstream.holdNextRead?.(url);
    if (holdRead) upstream.holdNextRead = null;
    const response = await sandbox.fetch(request);
    if (holdRead || (booking && request.method === 'POST' && upstream.holdBookings)) await hold();
    return response;
  };
  const server = await new Promise<ServerType>((resolve) => {
    const started: ServerType = serve({ fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
  });
  upstream.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v4`;
  return upstream;
}

/** One proxy process. */
export interface Instance {
  base: string;
  child: ChildProcess;
  /** What it printed (its JSON log lines), for a failing test's message. */
  output(): string;
  /** The store's health as its `/healthz` says it (null: no answer). */
  store(): Promise<string | null>;
  /** Ends the process with `signal` (SIGKILL: as a crash) and waits for its exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

const entry = fileURLToPath(new URL('../../proxy/node/main.ts', import.meta.url));

/**
 * Starts a proxy process on the test upstream and Redis (credentials of the sandbox's app, client
 * addresses from X-Forwarded-For so a test can be many guests), and waits until it shares the store.
 */
export async function startInstance(
  upstream: string,
  redisUrl: string,
  prefix: string,
  env: Record<string, string> = {},
): Promise<Instance> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      VENUE_BOOKING_APP_ID: SANDBOX_APP.id,
      VENUE_BOOKING_API_KEY: SANDBOX_APP.key,
      VENUE_BOOKING_UPSTREAM: upstream,
      VENUE_BOOKING_VENUES: VENUE,
      VENUE_BOOKING_BOOKING_SITE: 'http://127.0.0.1/book',
      VENUE_BOOKING_CLIENT_IP_HEADER: 'x-forwarded-for',
      // The bot check on, as guests get it, with little work per proof (`postBooking` solves one each).
      VENUE_BOOKING_BOT_WORK: '1000',
      VENUE_BOOKING_REDIS_URL: redisUrl,
      VENUE_BOOKING_REDIS_PREFIX: prefix,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const base = `http://127.0.0.1:${port}`;
  const instance: Instance = {
    base,
    child,
    output: () => output,
    async store() {
      try {
        const response = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(1_000) });
        return ((await response.json()) as { store?: string }).store ?? null;
      } catch {
        return null;
      }
    },
    async kill(signal = 'SIGKILL') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      await once(child, 'exit');
    },
  };
  try {
    await until(async () => (await instance.store()) === 'ok', `instance on ${port} shares Redis`, 30_000);
  } catch (error) {
    await instance.kill();
    throw new Error(`${(error as Error).message}\n${output}`, { cause: error });
  }
  return instance;
}

/** A booking's body for the sandbox's venue; `guest` makes its details unique. */
export function bookingBody(time: string, guest: string, extra: Record<string, unknown> = {}) {
  return {
    venue_id: VENUE,
    type: TYPE,
    date: DATE,
    time,
    num_people: 2,
    first_name: guest,
    last_name: 'Hopper',
    email: `${guest.toLowerCase()}@example.com`,
    ...extra,
  };
}

/** A booking request's answer. */
export interface Booked {
  status: number;
  replayed: boolean;
  payload: Record<string, any>;
  retryAfter: string | null;
}

/** Posts a booking to an instance as the client `client`, with an Idempotency-Key. */
export async function postBooking(
  instance: Pick<Instance, 'base'>,
  body: unknown,
  key: string,
  client: string,
  timeoutMs = 20_000,
): Promise<Booked> {
  const url = `${instance.base}/api/bookings`;
  // Each attempt with a proof of work of its own, solved for this client, as the widget's.
  const init = await withProof(fetch, url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': key, 'x-forwarded-for': client },
    body: JSON.stringify(body),
  });
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  const envelope = (await response.json()) as { payload: Record<string, any> };
  return {
    status: response.status,
    replayed: response.headers.get('idempotent-replayed') === 'true',
    payload: envelope.payload,
    retryAfter: response.headers.get('retry-after'),
  };
}

/** The path of an availability read of the sandbox's venue. */
export const availabilityPath = (query: string) =>
  `/api/venues/${VENUE}/booking-availability?type=${TYPE}&date=${DATE}&${query}`;

/** Times the sandbox will book at its venue on `DATE` for two. */
export async function bookableTimes(instance: Pick<Instance, 'base'>): Promise<string[]> {
  const response = await fetch(`${instance.base}${availabilityPath('num_people=2')}`);
  const { payload } = (await response.json()) as { payload: any };
  const times = payload.validation.time.suggestedValues as { value?: string; time?: string; valid: boolean }[];
  return times.filter((item) => item.valid).map((item) => item.time ?? item.value!);
}

/** The sandbox's bookings made by the guest named `guest` (bookingBody's first name). */
export const bookingsOf = (upstream: TestUpstream, guest: string) =>
  upstream.sandbox.store.bookings.filter((booking) => booking.first_name === guest);
