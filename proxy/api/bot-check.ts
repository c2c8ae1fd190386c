/**
 * The bot check on bookings (`VENUE_BOOKING_BOT_CHECK`, on by default). Every visitor of every
 * venue shares one App ID and its quota, and a bot that books fills the venue's book with names
 * nobody will honour, so a booking must show that a browser did some work for it, invisibly:
 *
 * - a honeypot field (`HONEYPOT`) the widget's form hides from sight, from the accessibility tree
 *   and from autofill: people leave it empty, form-filling scripts do not;
 * - a proof of work (altcha-lib's, `GET /api/venues/:venue/challenge`): a challenge signed with a
 *   key the instances share, bound to the venue and to the client, expiring, that the widget
 *   solves in a Web Worker while the guest types; each solution books once across every instance
 *   (a claim in the shared state); a client whose proofs keep failing gets harder ones.
 *
 * A request judged a bot (honeypot filled, proof missing, forged or used before) gets a decoy: an
 * answer shaped like a booking, with a reference that reaches nothing, and nothing reaches the
 * upstream (counted in `venue_booking_bot_checks_total` and as a `decoy` booking outcome, never in
 * the venue's counts). A proof that merely went stale (expired, or fetched from another address:
 * a phone that left its Wi-Fi) is refused plainly instead, so the widget fetches a fresh one and
 * the guest never sees a false confirmation. Web Crypto only: the same code runs on Workers.
 * Cloudflare Turnstile, when set, is one layer more, checked last (api/turnstile.ts).
 */
import { createChallenge, randomInt, verifySolution, type Challenge, type Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/sha';
import type { Context } from 'hono';
import { envelopeText, ProxyError } from '../core/envelope.js';
import { urlOf } from '../core/url.js';
import type { ProxyContext } from '../context.js';
import { allowedVenue } from './input.js';
import { sealedBytes } from './manage-token.js';
import { base64url } from './secret-keys.js';
import { pathOf, PATHS } from '../paths.js';
import { judgeTurnstile, TURNSTILE, turnstileOffer, type TurnstileVerdict } from './turnstile.js';

/** The body field of the honeypot: a name form fillers fill, which the widget's form never shows a person. */
export const HONEYPOT = 'website';
/** The body field that carries the solved challenge (`{ challenge, solution }`). */
export const PROOF = 'proof';

/** How long a challenge may be solved and used: a guest may take their time over the details. */
export const CHALLENGE_TTL_S = 2 * 3600;
/** Used solutions are remembered past their challenge's expiry. */
const USED_TTL_MS = (CHALLENGE_TTL_S + 600) * 1000;
/** The shared signing secret lives for a year in the store; read again at most once a minute. */
const SECRET_TTL_MS = 365 * 24 * 3_600_000;
const SECRET_REREAD_MS = 60_000;
/** Failed proofs from one client within `FAIL_WINDOW_MS` after which its challenges are `RAISE` times harder. */
const FAILS_TO_RAISE = 3;
const FAIL_WINDOW_MS = 3_600_000;
export const RAISE = 8;
/** Clients whose failures one instance remembers (the oldest go first). */
const MAX_FAILING = 10_000;

/** What the check made of a booking request. */
export type BotVerdict = 'passed' | 'honeypot' | 'missing' | 'invalid' | 'replayed' | 'stale';

const encoder = new TextEncoder();
const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');
const randomHex = (bytes: number) => hex(crypto.getRandomValues(new Uint8Array(bytes)).buffer);

/** The signing secret and the failing clients of one proxy. */
class BotState {
  private readonly local = randomHex(32);
  private shared: string | null = null;
  private readAt = -Infinity;
  private reading: Promise<void> = Promise.resolve();
  /** Failed proofs by client tag: their count and when the first of the window was. */
  readonly failing = new Map<string, { count: number; since: number }>();

  constructor(private readonly ctx: ProxyContext) {}

  /**
   * The secret to sign with: derived from `VENUE_BOOKING_RETURN_SECRET` when set, else one agreed
   * through the shared state (every instance verifies what another issued), else this process's.
   */
  async secret(): Promise<string> {
    const configured = this.ctx.config.returnSecret;
    if (configured) return `bot-check:${configured}`;
    const now = this.ctx.config.now();
    if (now - this.readAt >= SECRET_REREAD_MS) {
      this.readAt = now;
      this.reading = this.ctx.state
        .claim('bot-check-secret', randomHex(32), SECRET_TTL_MS)
        .then((secret) => void (secret !== null && (this.shared = secret)))
        .catch(() => {});
    }
    await this.reading;
    return this.shared ?? this.local;
  }

  /** Every secret a challenge still valid may have been signed with. */
  async accepted(): Promise<string[]> {
    const current = await this.secret();
    return current === this.local ? [current] : [current, this.local];
  }

  /** Whether `client` failed often enough lately to be given harder work. */
  raised(client: string): boolean {
    const entry = this.failing.get(client);
    return !!entry && entry.count >= FAILS_TO_RAISE && this.ctx.config.now() - entry.since < FAIL_WINDOW_MS;
  }

  /** Counts a failed proof of `client`. */
  failed(client: string): void {
    const now = this.ctx.config.now();
    const entry = this.failing.get(client);
    if (entry && now - entry.since < FAIL_WINDOW_MS) entry.count += 1;
    else this.failing.set(client, { count: 1, since: now });
    if (this.failing.size > MAX_FAILING) this.failing.delete(this.failing.keys().next().value!);
  }
}

const stateOf = new WeakMap<ProxyContext, BotState>();
const botState = (ctx: ProxyContext) => {
  let found = stateOf.get(ctx);
  if (!found) stateOf.set(ctx, (found = new BotState(ctx)));
  return found;
};

/** A client's tag in a challenge: a hash of its key (never the address itself). */
async function clientTag(client: string): Promise<string> {
  return hex(await crypto.subtle.digest('SHA-256', encoder.encode(`bot-check\n${client}`))).slice(0, 32);
}

/**
 * A new challenge for `client` booking at `venue`: the solver tries counters from 0 until the
 * derived key's prefix matches, about half of `botWork` hashes on average (`RAISE` times more for a
 * client that keeps failing). The key signature lets the check verify with one HMAC.
 */
export async function issueChallenge(ctx: ProxyContext, venue: string, client: string): Promise<Challenge> {
  const state = botState(ctx);
  const tag = await clientTag(client);
  const secret = await state.secret();
  const max = ctx.config.botWork * (state.raised(tag) ? RAISE : 1);
  return createChallenge({
    algorithm: 'SHA-256',
    cost: 1,
    counter: randomInt(max),
    deriveKey,
    // Signed with the rest: `work` (how long a solver may take; a test reads it) and `expires`
    // (epoch seconds), kept here rather than in altcha's `expiresAt`, which only the wall clock
    // checks, so the proxy's own clock decides.
    data: { venue, client: tag, work: max, expires: Math.floor(ctx.config.now() / 1000) + CHALLENGE_TTL_S },
    hmacSignatureSecret: secret,
    hmacKeySignatureSecret: `${secret}:key`,
  });
}

const objectOr = (value: unknown): Record<string, unknown> | null =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

/** The challenge and solution a proof carries, or null when it is not shaped like one. */
function proofOf(raw: unknown): { challenge: Challenge; solution: Solution } | null {
  const proof = objectOr(raw);
  const challenge = objectOr(proof?.challenge);
  const parameters = objectOr(challenge?.parameters);
  const solution = objectOr(proof?.solution);
  if (!parameters || !solution || typeof challenge?.signature !== 'string') return null;
  if (typeof parameters.nonce !== 'string' || typeof parameters.salt !== 'string') return null;
  if (typeof parameters.keyPrefix !== 'string' || typeof parameters.algorithm !== 'string') return null;
  if (parameters.algorithm !== 'SHA-256' || parameters.cost !== 1) return null;
  return { challenge: challenge as unknown as Challenge, solution: solution as unknown as Solution };
}

/**
 * What the check makes of a booking's `input` (its raw body) from `client`. With `claimFor` (the
 * Idempotency-Key, or any token of this one request), a valid proof is also spent: a second
 * request with it is `replayed`, unless it is the same key's retry, which the key's replay answers.
 * A store that cannot tell lets a valid proof through (the signature still proves the work).
 */
export async function judgeBooking(
  ctx: ProxyContext,
  input: Record<string, unknown>,
  client: string,
  claimFor?: string,
): Promise<BotVerdict> {
  const honeypot = input[HONEYPOT];
  if (honeypot !== undefined && honeypot !== null && honeypot !== '') return 'honeypot';
  if (input[PROOF] === undefined || input[PROOF] === null) return 'missing';
  const proof = proofOf(input[PROOF]);
  if (!proof) return 'invalid';
  const data = proof.challenge.parameters.data ?? {};
  if (data.venue !== input.venue_id) return 'invalid';
  const state = botState(ctx);
  let verdict: BotVerdict = 'invalid';
  for (const secret of await state.accepted()) {
    const result = await verifySolution({
      ...proof,
      deriveKey,
      hmacSignatureSecret: secret,
      hmacKeySignatureSecret: `${secret}:key`,
    }).catch(() => null);
    if (result?.verified) verdict = 'passed';
    if (verdict !== 'invalid') break;
  }
  const expired = !(typeof data.expires === 'number' && data.expires > ctx.config.now() / 1000);
  if (verdict === 'passed' && (expired || data.client !== (await clientTag(client)))) verdict = 'stale';
  if (verdict !== 'passed' || claimFor === undefined) return verdict;
  const holder = await ctx.state
    .claim(`bot-proof:${proof.challenge.signature}`, claimFor, USED_TTL_MS)
    .catch(() => null);
  return holder === null || holder === claimFor ? 'passed' : 'replayed';
}

/**
 * Judges a booking about to be made, sent from `page` (its Origin), counting the verdict: the decoy
 * answer for a bot, a throw for a stale proof or a Turnstile that could not be asked, or null to go
 * on and book. A failed proof raises the client's next challenges. `origin`: the request's, where a
 * made booking's manage link would point without a public URL.
 */
export async function botAnswer(
  ctx: ProxyContext,
  path: string,
  input: Record<string, unknown>,
  client: string,
  claimFor: string,
  page: string | null,
  origin: string,
): Promise<{ status: number; text: string } | null> {
  if (!ctx.config.botCheck) return null;
  let verdict: BotVerdict | TurnstileVerdict = await judgeBooking(ctx, input, client, claimFor);
  // Turnstile last: its siteverify is a network call a bot caught locally never costs.
  if (verdict === 'passed') verdict = await judgeTurnstile(ctx, input[TURNSTILE], page, client, claimFor);
  ctx.config.metrics.count('bot_checks_total', { outcome: verdict });
  if (verdict === 'passed') return null;
  if (verdict === 'turnstile_unavailable') {
    throw new ProxyError(503, 'The booking could not be checked just now: please send it again in a moment', {
      stored: false,
      errors: [{ code: 'bot_check_unavailable', message: 'Try again in a moment', fields: [TURNSTILE] }],
    });
  }
  botState(ctx).failed(await clientTag(client));
  if (verdict === 'stale') {
    throw new ProxyError(403, 'The booking check has expired: fetch a new one and send the booking again', {
      stored: false,
      errors: [{ code: 'bot_check_stale', message: 'Fetch a new challenge and send again', fields: [PROOF] }],
    });
  }
  ctx.config.metrics.booking('decoy');
  ctx.logger.log({ level: 'info', msg: 'bot answered with a decoy', verdict });
  const answer = decoyAnswer(input, ctx.config.publicBase ?? origin);
  return { status: 200, text: envelopeText(path, 'POST', 200, answer) };
}

/**
 * A decoy: what a made booking's answer looks like (api/booking-answer.ts), with a reference in the
 * service's form that names no booking anywhere, and a manage link (`base` its origin) as long as a
 * real one (a sealed token's nonce, claims and tag: api/manage-token.ts) that opens nothing, so the
 * answer's shape does not tell a bot it was caught, and following it costs no upstream call.
 */
function decoyAnswer(input: Record<string, unknown>, base: string): Record<string, unknown> {
  const digits = Array.from(crypto.getRandomValues(new Uint8Array(11)), (byte) => byte % 10).join('');
  const reference = `DMN-${digits}`;
  const booking: Record<string, unknown> = { reference, status: 'complete' };
  for (const key of ['date', 'time'] as const) if (typeof input[key] === 'string') booking[key] = input[key];
  const people = Number(input.num_people);
  if (Number.isInteger(people)) booking.num_people = people;
  // A real token's claims: these and the venue's and type's names (here a common length for them).
  const claims = { venue: input.venue_id, id: 'f'.repeat(24), ...booking, type: input.type, names: 'x'.repeat(40) };
  const token = base64url(crypto.getRandomValues(new Uint8Array(sealedBytes(JSON.stringify(claims).length))));
  return {
    booking,
    bookingStatus: 'confirmed',
    venue: {},
    manage_url: `${base}${pathOf(PATHS.managePage, { token })}`,
  };
}

/**
 * `GET /api/venues/:venue/challenge`: a challenge for this client and venue, never cached (the
 * widget asks when the details step opens), with Turnstile's site key and script when set. With
 * the check off it says so: the widget sends none.
 */
export async function challengeRead(ctx: ProxyContext, c: Context): Promise<Response> {
  const venue = await allowedVenue(ctx, c);
  const payload = ctx.config.botCheck
    ? { challenge: await issueChallenge(ctx, venue, ctx.clientOf(c)), turnstile: turnstileOffer(ctx) }
    : { challenge: null, turnstile: null };
  const path = urlOf(c.req.raw).pathname;
  return ctx.send(c, { status: 200, text: envelopeText(path, 'GET', 200, payload) }, { 'Cache-Control': 'no-store' });
}
