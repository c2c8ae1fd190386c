/**
 * Returns that prove themselves: the signed, expiring hand-off id the proxy gives a widget about to
 * send a guest to the booking site, which the widget puts in the return URL. Only a return that
 * carries a valid one counts as a booking and may say "confirmed" (return-bridge.ts); anything else
 * could be anyone's GET. The proxy issues an id only where the upstream's own answer hands the
 * guest off (`GET /api/venues/:venue/handoff`, return-bridge.ts), so an id proves "this proxy
 * sent a guest of this venue to the booking site", not merely "this id came from the proxy".
 *
 * An id is `<expiry>.<nonce>.<HMAC-SHA256 of both and the venue>`: it names nothing of the guest
 * (the venue is signed, not written: the return URL names it), proves a return for that venue
 * only, expires after `HANDOFF_TTL_S`, and counts once (a claim in the state binds its nonce to the
 * first reference returned with it; the same return again lands without counting, another
 * reference is refused).
 * The key is the proxy's, never sent anywhere: `VENUE_BOOKING_RETURN_SECRET` when set (every
 * instance and restart then agrees), else a random one agreed through the shared state (Redis, a
 * Durable Object), else a random one of this process (memory state: ids die with a restart).
 */
import type { ProxyContext } from '../context.js';
import { base64url, fromBase64url, keysFor, randomText } from './secret-keys.js';

/** How long a guest may stay on the booking site (a deposit, a pre-order) and still come back counted. */
export const HANDOFF_TTL_S = 6 * 3600;
/** How long a generated shared secret lives in the store; each instance reads it again every minute. */
const SECRET_TTL_MS = 365 * 24 * 3_600_000;
/** Claims of used ids outlive the ids themselves. */
const USED_TTL_MS = (HANDOFF_TTL_S + 3600) * 1000;

const ID_RE = /^([0-9a-z]{1,10})\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{43})$/;

const encoder = new TextEncoder();
const hmacKey = (secret: string) =>
  crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);

/** What a return's hand-off id proves: a first return, the same return again, or nothing. */
export type HandoffCheck = 'first' | 'repeat' | 'invalid';

/** The signing keys of each proxy (api/secret-keys.ts). */
const keys = keysFor((ctx) => ({
  configured: () => ctx.config.returnSecret,
  claim: 'return-secret',
  ttlMs: SECRET_TTL_MS,
  keyOf: hmacKey,
}));

/** What an id's signature covers: its expiry and nonce, and the venue it was issued for. */
const signedData = (expiry: string, nonce: string, venue: string) => encoder.encode(`${expiry}.${nonce}.${venue}`);

/** A new hand-off id for a guest of `venue`, valid for `HANDOFF_TTL_S`. */
export async function issueHandoff(ctx: ProxyContext, venue: string): Promise<string> {
  const expiry = Math.floor(ctx.config.now() / 1000 + HANDOFF_TTL_S).toString(36);
  const nonce = randomText(12);
  const mac = await crypto.subtle.sign('HMAC', await keys(ctx).current(), signedData(expiry, nonce, venue));
  return `${expiry}.${nonce}.${base64url(new Uint8Array(mac))}`;
}

/**
 * What a return's hand-off id proves for `reference` at `venue`: `first` (count it), `repeat` (the
 * same return again: land, do not count), or `invalid` (absent, forged, expired, issued for another
 * venue, or used for another reference).
 */
export async function checkHandoff(
  ctx: ProxyContext,
  id: string | null,
  venue: string | null,
  reference: string,
): Promise<HandoffCheck> {
  const parts = id === null ? null : ID_RE.exec(id);
  if (!parts || venue === null) return 'invalid';
  const [, expiry, nonce, mac] = parts as unknown as [string, string, string, string];
  const expiresS = parseInt(expiry, 36);
  const nowS = ctx.config.now() / 1000;
  if (!(expiresS > nowS && expiresS <= nowS + HANDOFF_TTL_S + 60)) return 'invalid';
  const signature = fromBase64url(mac);
  const data = signedData(expiry, nonce, venue);
  let valid = false;
  for (const key of await keys(ctx).accepted())
    if (await crypto.subtle.verify('HMAC', key, signature, data)) valid = true;
  if (!valid) return 'invalid';
  // Once: the first reference returned with this id holds it. A store that cannot answer lets the
  // return land and count (the signature proves the hand-off; only a repeat may be counted twice).
  const mine = `${reference} ${randomText(9)}`;
  const holder = await ctx.state.claim(`handoff:${nonce}`, mine, USED_TTL_MS).catch(() => null);
  if (holder === null || holder === mine) return 'first';
  return holder.startsWith(`${reference} `) ? 'repeat' : 'invalid';
}
