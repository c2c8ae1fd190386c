/**
 * Cloudflare Turnstile, an optional layer of the bot check (`VENUE_BOOKING_TURNSTILE_SITE_KEY` and
 * `VENUE_BOOKING_TURNSTILE_SECRET`), for operators whose venues draw bots that pay the proof of
 * work: the widget renders Turnstile's managed widget in the details step and sends its token
 * (`TURNSTILE` in the booking's body); the proxy verifies it at Cloudflare's siteverify before any
 * slot or upstream call, once: the token's hash is claimed in the shared state, and Cloudflare
 * refuses a token it has seen (`timeout-or-duplicate`).
 *
 * A token that fails (missing, refused, another page's host or another action, used before) is a
 * bot's: it gets the decoy like the other bot outcomes. A siteverify that cannot answer (down, slow,
 * not JSON, our own secret refused) says nothing about the guest, so the booking is refused plainly
 * (`503`, `bot_check_unavailable`, `stored: false`): failing closed, never a decoy a real guest
 * would take for a booking, never a booking nobody checked.
 */
import type { ProxyContext } from '../context.js';

/** The body field that carries Turnstile's token. */
export const TURNSTILE = 'turnstile';
/** The action the widget renders with, which siteverify must report back. */
export const TURNSTILE_ACTION = 'booking';
/** Cloudflare's verify endpoint (`ProxyConfig.turnstileVerifyUrl` points a test at a stand-in). */
export const SITEVERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify';
/** Turnstile's script, rendered explicitly by the widget (`ProxyConfig.turnstileScriptUrl` for tests). */
export const TURNSTILE_SCRIPT_URL = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit';
/** How long siteverify may take before the booking is refused: a guest is waiting. */
const VERIFY_TIMEOUT_MS = 4000;
/** A token lives 300 s at Cloudflare; its claim outlives it. */
const CLAIM_TTL_MS = 600_000;
/** Tokens are at most 2048 characters (Cloudflare's documented limit). */
const MAX_TOKEN = 2048;

/** What the Turnstile layer made of a booking. */
export type TurnstileVerdict =
  'passed' | 'turnstile_missing' | 'turnstile_failed' | 'turnstile_replayed' | 'turnstile_unavailable';

/** The widget's part of the challenge answer, when Turnstile is set: its site key and script. */
export function turnstileOffer(ctx: ProxyContext): { siteKey: string; script: string; action: string } | null {
  const { turnstileSiteKey, turnstileSecret, turnstileScriptUrl } = ctx.config;
  if (!turnstileSiteKey || !turnstileSecret) return null;
  return { siteKey: turnstileSiteKey, script: turnstileScriptUrl ?? TURNSTILE_SCRIPT_URL, action: TURNSTILE_ACTION };
}

const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');

/**
 * Judges the booking's token, sent from `page` (the request's Origin) by `client`, spent by
 * `claimFor` (the Idempotency-Key): the same key's retry of a booking already made is let through
 * without asking Cloudflare again (the key's replay answers it; the token is spent by then).
 */
export async function judgeTurnstile(
  ctx: ProxyContext,
  token: unknown,
  page: string | null,
  client: string,
  claimFor: string,
): Promise<TurnstileVerdict> {
  const secret = ctx.config.turnstileSecret;
  if (!secret || !ctx.config.turnstileSiteKey) return 'passed';
  if (typeof token !== 'string' || !token || token.length > MAX_TOKEN) return 'turnstile_missing';
  const name = `turnstile:${hex(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token)))}`;
  const holder = await ctx.state.claim(name, claimFor, CLAIM_TTL_MS).catch(() => null);
  if (holder !== null && holder !== claimFor) return 'turnstile_replayed';
  if (holder === claimFor && (await ctx.state.heldKey(claimFor).catch(() => null)) === true) return 'passed';
  let host: string | null = null;
  try {
    host = page ? new URL(page).hostname : null;
  } catch {
    // No page's host to match: siteverify's answer cannot pass.
  }
  const form = new URLSearchParams({ secret, response: token, idempotency_key: claimFor });
  // The client's key is its address behind a known hop or on a socket; anything else is not sent.
  if (/^[\d.:a-f]+$/i.test(client)) form.set('remoteip', client);
  let outcome: Record<string, unknown>;
  try {
    const response = await fetch(ctx.config.turnstileVerifyUrl ?? SITEVERIFY_URL, {
      method: 'POST',
      body: form,
      signal: AbortSignal.timeout(VERIFY_TIMEOUT_MS),
    });
    const parsed: unknown = await response.json();
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not a JSON object');
    outcome = parsed as Record<string, unknown>;
  } catch (error) {
    ctx.logger.log({ level: 'warn', msg: 'turnstile siteverify did not answer', error: (error as Error).name });
    return 'turnstile_unavailable';
  }
  const codes = Array.isArray(outcome['error-codes']) ? (outcome['error-codes'] as unknown[]) : [];
  if (outcome.success === true) {
    return host !== null && outcome.hostname === host && outcome.action === TURNSTILE_ACTION
      ? 'passed'
      : 'turnstile_failed';
  }
  if (codes.includes('timeout-or-duplicate')) return 'turnstile_replayed';
  // Our own secret refused, or Cloudflare's own failure: nothing said of the guest.
  const ours = codes.filter((code) => /secret|internal-error/.test(String(code)));
  if (ours.length) {
    ctx.logger.log({
      level: 'error',
      msg: 'turnstile siteverify refused the proxy',
      codes: ours.map(String).join(','),
    });
    return 'turnstile_unavailable';
  }
  return 'turnstile_failed';
}
