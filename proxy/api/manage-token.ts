/**
 * The token of a guest's manage link (`/manage/<token>`): the booking the proxy made, sealed with
 * AES-GCM so the link is its own proof. It names the booking's `_id` (the upstream's key to cancel
 * it) only inside the sealed payload, so no one reading the link learns it or can point it at
 * another booking, and every write a manage route makes is bound to a booking this proxy made,
 * never to an id the browser sends. 96 random bits of nonce and a 128-bit tag: a token cannot be
 * guessed or altered.
 *
 * The key: `VENUE_BOOKING_MANAGE_SECRET` when set (every instance and restart agrees), else a random
 * one agreed through the shared state (Redis, a Durable Object), else this process's own (memory
 * state: links die with a restart; the Node entry warns). A token expires at the end of the day
 * after the booking's date (London), when there is nothing left to manage.
 */
import type { ProxyContext } from '../context.js';
import { base64url, fromBase64url, keysFor } from './secret-keys.js';

/** What a token holds: the booking as the proxy made it, with the upstream's `_id`. */
export interface ManageClaims {
  venue: string;
  /** The upstream's `_id` of the booking: never sent to a browser. */
  id: string;
  reference: string;
  date: string;
  time: string;
  type: string;
  people: number;
  duration?: number;
  /** The names the create answer gave, shown on the manage page without another read. */
  venueName?: string;
  typeName?: string;
}

/** How long a generated shared key lives in the store (each instance reads it again every minute). */
const SECRET_TTL_MS = 5 * 365 * 24 * 3_600_000;
/** What the sealed payload is bound to, so a token cannot be taken for another kind of sealed text. */
const PURPOSE = new TextEncoder().encode('venue-booking manage v1');
/**
 * The sealed claims are padded to a multiple of this many bytes, so a token's length says little of
 * the names inside it, and a decoy's link (api/bot-check.ts) is as long as a real one.
 */
const PAD_BYTES = 128;
/** The longest token accepted: a bound on work per request, above any token issued (names ≤ 100 characters). */
const TOKEN_MAX = 1600;
const TOKEN_RE = /^[A-Za-z0-9_-]{40,1600}$/;

/** The bytes of a sealed token for claims of `plain` bytes: nonce, claims padded, tag. */
export const sealedBytes = (plain: number) => 12 + Math.ceil(plain / PAD_BYTES) * PAD_BYTES + 16;

/** An AES-GCM key from a secret of any length (SHA-256 of it and the purpose). */
async function aesKey(secret: string): Promise<CryptoKey> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`manage:${secret}`));
  return crypto.subtle.importKey('raw', digest, 'AES-GCM', false, ['encrypt', 'decrypt']);
}

/** The sealing keys of each proxy (api/secret-keys.ts). */
const keys = keysFor((ctx) => ({
  configured: () => ctx.config.manageSecret,
  claim: 'manage-secret',
  ttlMs: SECRET_TTL_MS,
  keyOf: aesKey,
}));

/** The London date `days` after `date` (YYYY-MM-DD). */
function dayAfter(date: string, days: number): string {
  const next = new Date(`${date}T12:00:00Z`);
  next.setUTCDate(next.getUTCDate() + days);
  return next.toISOString().slice(0, 10);
}

/** Today's date in London. */
export function londonDate(now: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(now);
}

/** A new token for a booking the proxy has just made. */
export async function sealManage(ctx: ProxyContext, claims: ManageClaims): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const json = new TextEncoder().encode(JSON.stringify(claims));
  // Padded with spaces, which JSON.parse reads past.
  const plain = new Uint8Array(sealedBytes(json.length) - 28).fill(0x20);
  plain.set(json);
  const sealed = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: PURPOSE },
    await keys(ctx).current(),
    plain,
  );
  const bytes = new Uint8Array(12 + sealed.byteLength);
  bytes.set(iv);
  bytes.set(new Uint8Array(sealed), 12);
  return base64url(bytes);
}

const isText = (value: unknown, max = 100): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= max;

/**
 * The booking a token names, or null: malformed, altered, sealed with a key this proxy does not
 * hold, expired (past the day after the booking), or of a venue this proxy no longer serves. Every
 * one of these is the same null, so a guest (or a prober) learns nothing from which it was.
 */
export async function openManage(ctx: ProxyContext, token: string): Promise<ManageClaims | null> {
  if (token.length > TOKEN_MAX || !TOKEN_RE.test(token)) return null;
  const bytes = fromBase64url(token);
  const iv = bytes.slice(0, 12);
  const sealed = bytes.slice(12);
  for (const key of await keys(ctx).accepted()) {
    let plain: ArrayBuffer;
    try {
      plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv, additionalData: PURPOSE }, key, sealed);
    } catch {
      continue;
    }
    const claims = JSON.parse(new TextDecoder().decode(plain)) as Partial<ManageClaims>;
    if (
      !isText(claims.venue) ||
      !isText(claims.id) ||
      !isText(claims.reference) ||
      !isText(claims.date, 10) ||
      !isText(claims.time, 5) ||
      !isText(claims.type) ||
      typeof claims.people !== 'number'
    )
      return null;
    if (londonDate(ctx.config.now()) > dayAfter(claims.date, 1)) return null;
    if (!(await ctx.venueAllowed(claims.venue))) return null;
    return claims as ManageClaims;
  }
  return null;
}

/**
 * A short, one-way name of a token for the per-token limit and the state's claims: the token itself
 * is never kept, logged or counted by.
 */
export async function tokenName(token: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`manage-token:${token}`));
  return base64url(new Uint8Array(digest).slice(0, 16));
}
