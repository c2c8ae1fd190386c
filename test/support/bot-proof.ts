/**
 * What the widget does for the bot check, done by a test: fetch the venue's challenge and solve it
 * with altcha-lib (api/bot-check.ts), so a test's booking carries a proof as a guest's does.
 */
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/sha';

/** A solved proof for `venue`, fetched as a client sending `headers` (null: the check is off). */
export async function solvedProof(
  fetcher: (url: string, init?: RequestInit) => Promise<Response>,
  base: string,
  venue: string,
  headers: Record<string, string> = {},
): Promise<{ challenge: Challenge; solution: unknown } | null> {
  const response = await fetcher(`${base}/api/venues/${venue}/challenge`, {
    headers,
    signal: AbortSignal.timeout(10_000),
  });
  if (response.status !== 200) throw new Error(`challenge: ${response.status} ${await response.text()}`);
  const challenge = ((await response.json()) as { payload: { challenge: Challenge | null } }).payload.challenge;
  if (!challenge) return null;
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('the challenge was not solved');
  return { challenge, solution };
}

/** `proxy.fetch` of `url` with `init`; a booking carries a proof, as the widget's does (`withProof`). */
export async function fetchWithProof(
  proxy: { fetch: (request: Request) => Response | Promise<Response> },
  url: string,
  init: RequestInit,
): Promise<Response> {
  const origin = new URL(url).origin;
  const fetcher = async (path: string, given?: RequestInit) =>
    proxy.fetch(new Request(path.startsWith('http') ? path : `${origin}${path}`, given));
  return fetcher(url, await withProof(fetcher, url, init));
}

/**
 * `init` of a booking POST with the bot check's proof added, solved as the widget solves it (the
 * challenge asked with the booking's own headers, so for the same client); anything else as it is.
 * A body that is no JSON object, or that already has a `proof`, is sent as the test wrote it.
 */
export async function withProof(
  fetcher: (path: string, init?: RequestInit) => Promise<Response>,
  path: string,
  init: RequestInit,
): Promise<RequestInit> {
  if (init.method !== 'POST' || !path.endsWith('/api/bookings') || typeof init.body !== 'string') return init;
  let body: unknown;
  try {
    body = JSON.parse(init.body);
  } catch {
    return init;
  }
  if (!body || typeof body !== 'object' || Array.isArray(body) || 'proof' in body) return init;
  const venue = (body as { venue_id?: unknown }).venue_id;
  if (typeof venue !== 'string' || !/^[\w-]+$/.test(venue)) return init;
  const headers = new Headers(init.headers);
  headers.delete('content-type');
  headers.delete('idempotency-key');
  // The challenge is asked where the booking goes (under the same prefix): `<base>/api/venues/…`.
  const base = path.slice(0, -'/api/bookings'.length);
  const proof = await solvedProof(fetcher, base, venue, Object.fromEntries(headers)).catch(() => null);
  return proof ? { ...init, body: JSON.stringify({ ...body, proof }) } : init;
}
