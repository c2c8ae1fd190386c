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

/** How long a guest may stay on the booking site (a deposit, a pre-order) and still come back counted. */
export const HANDOFF_TTL_S = 6 * 3600;
/** How long a generated shared secret lives in the store; each instance reads it again every minute. */
const SECRET_TTL_MS = 365 * 24 * 3_600_000;
const SECRET_REREAD_MS = 60_000;
/** Claims of used ids outlive the ids themselves. */
const USED_TTL_MS = (HANDOFF_TTL_S + 3600) * 1000;

const ID_RE = /^([0-9a-z]{1,10})\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{43})$/;

const encoder = new TextEncoder();
const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
const fromBase64url = (text: string) =>
  Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (char) => char.charCodeAt(0));
const randomText = (bytes: number) => base64url(crypto.getRandomValues(new Uint8Array(bytes)));
const hmacKey = (secret: string) =>
  crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);

/** What a return's hand-off id proves: a first return, the same return again, or nothing. */
export type HandoffCheck = 'first' | 'repeat' | 'invalid';

/** The signing keys of one proxy: the one it signs with, and every one it still accepts. */
class HandoffKeys {
  private readonly local = hmacKey(randomText(32));
  private shared: { key: Promise<CryptoKey>; secret: string } | null = null;
  private previous: Promise<CryptoKey> | null = null;
  private readAt = -Infinity;
  private configuredKey: Promise<CryptoKey> | undefined;
  private reading: Promise<void> = Promise.resolve();

  constructor(private readonly ctx: ProxyContext) {}

  /** The key to sign with now: the configured one, else the shared one, else this process's. */
  async current(): Promise<CryptoKey> {
    const configured = this.ctx.config.returnSecret;
    if (configured) return (this.configuredKey ??= hmacKey(configured));
    await this.refresh();
    return this.shared?.key ?? this.local;
  }

  /** Every key a valid id may have been signed with. */
  async accepted(): Promise<CryptoKey[]> {
    const keys = [await this.current()];
    if (!this.ctx.config.returnSecret) {
      if (this.previous) keys.push(await this.previous);
      keys.push(await this.local);
    }
    return keys;
  }

  /** Agrees on a secret with the other instances through the state, once a minute at most (callers share the read). */
  private refresh(): Promise<void> {
    const now = this.ctx.config.now();
    if (now - this.readAt >= SECRET_REREAD_MS) {
      this.readAt = now;
      this.reading = this.read();
    }
    return this.reading;
  }

  /** Takes the shared secret, keeping the one before it for the ids already given out. */
  private async read(): Promise<void> {
    const secret = await this.ctx.state.claim('return-secret', randomText(32), SECRET_TTL_MS).catch(() => null);
    if (secret === null || secret === this.shared?.secret) return;
    if (this.shared) this.previous = this.shared.key;
    this.shared = { secret, key: hmacKey(secret) };
  }
}

const keysOf = new WeakMap<ProxyContext, HandoffKeys>();
const keys = (ctx: ProxyContext) => {
  let found = keysOf.get(ctx);
  if (!found) keysOf.set(ctx, (found = new HandoffKeys(ctx)));
  return found;
};

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
