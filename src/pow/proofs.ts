/**
 * The widget's half of the proxy's bot check (proxy/api/bot-check.ts): while the guest types their
 * details, fetch the venue's challenge and solve it off the main thread, so the booking carries a
 * proof of work and the guest never meets a puzzle. Travels in the later steps chunk, which imports
 * nothing at run time (altcha-lib's solver is bundled into it).
 *
 * The solver runs in a Web Worker made of this very chunk (`import.meta.url`: a file of the same
 * origin as the widget's chunks, so a strict CSP's `script-src 'self'` allows it where the page
 * and the proxy share an origin), else of a `blob:` copy of it (a widget served from the proxy's
 * own origin onto another site's page, which a worker may not load across origins). Where neither
 * can start (a CSP without `blob:`, an old browser without module workers), it solves on the main
 * thread: each hash is an awaited Web Crypto call, so the page keeps answering between them.
 */
import { solveChallenge, type Challenge, type Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/sha';
import { Turnstile, type TurnstileOffer } from './turnstile.js';

/** What a booking carries: the challenge as the proxy signed it and its solution. */
export interface Proof {
  challenge: Challenge;
  solution: Solution;
}

/** A proof whose challenge expires within this many seconds is not sent; a fresh one is solved. */
const FRESH_S = 300;

const solveHere = async (challenge: Challenge) => {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('unsolved');
  return solution;
};

// In a worker started by `solveOffThread` (this chunk again): solve each challenge the page sends.
if (typeof document === 'undefined' && typeof postMessage === 'function')
  onmessage = (event: MessageEvent<Challenge>) => void solveHere(event.data).then(postMessage);

/** A worker that has not answered by then is given up, and the page solves the challenge itself. */
const WORKER_TIMEOUT_MS = 30_000;

/** Solves in a worker made of `url`; rejects when the worker cannot start, fails or never answers. */
function inWorker(url: string, challenge: Challenge): Promise<Solution> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(url, { type: 'module' });
    const end = () => {
      clearTimeout(timer);
      worker.terminate();
    };
    const timer = setTimeout(() => {
      end();
      reject(new Error('worker timeout'));
    }, WORKER_TIMEOUT_MS);
    worker.onmessage = (event: MessageEvent<Solution>) => {
      end();
      resolve(event.data);
    };
    worker.onerror = (event) => {
      end();
      event.preventDefault();
      reject(new Error('worker'));
    };
    worker.postMessage(challenge);
  });
}

/** Solves off the main thread where the page lets a worker start, else here. */
async function solve(challenge: Challenge): Promise<Solution> {
  const own = import.meta.url;
  try {
    if (new URL(own).origin === location.origin) return await inWorker(own, challenge);
    const code = await (await fetch(own, { signal: AbortSignal.timeout(10_000) })).blob();
    const url = URL.createObjectURL(new Blob([code], { type: 'text/javascript' }));
    return await inWorker(url, challenge).finally(() => URL.revokeObjectURL(url));
  } catch {
    return solveHere(challenge);
  }
}

/** The proofs of one details form: one solved ahead while the guest types, a fresh one per attempt. */
export class Proofs {
  private _next: Promise<Proof | null> | null = null;
  private _for = '';
  /** Cloudflare Turnstile, where the challenge answer offers it (`pow/turnstile.ts`). */
  turnstile: Turnstile | null = null;

  /** `offered`: Turnstile came with a challenge answer, so the form renders its place. */
  constructor(private readonly _offered: () => void = () => {}) {}

  /** Starts on a proof for bookings at `venue` through the proxy at `api` (once per pair). */
  prepare(api: string, venue: string): void {
    const key = `${api} ${venue}`;
    if (this._next && key === this._for) return;
    this._for = key;
    this._next = this._solve(api, venue);
    this._next.catch(() => (this._next = null));
  }

  /**
   * The proof for one booking attempt (`{}` where the proxy asks none), each attempt its own: the
   * proxy takes a proof once, and a retry under the same Idempotency-Key may bring a new one.
   * Rejects when no challenge can be had, so the booking fails as a request would, never as a bot.
   */
  async take(api: string, venue: string): Promise<{ proof?: Proof; turnstile?: string }> {
    this.prepare(api, venue);
    const next = this._next!;
    this._next = null;
    let proof = await next.catch(() => this._solve(api, venue));
    const expires = proof?.challenge.parameters.data?.expires;
    if (typeof expires === 'number' && expires - FRESH_S < Date.now() / 1000) proof = await this._solve(api, venue);
    const turnstile = this.turnstile ? await this.turnstile.take() : undefined;
    return { ...(proof ? { proof } : {}), ...(turnstile ? { turnstile } : {}) };
  }

  /** Fetches the venue's challenge (null: the proxy asks none) and solves it; notes a Turnstile offered. */
  private async _solve(api: string, venue: string): Promise<Proof | null> {
    const base = new URL(api.replace(/\/?$/, '/'), location.href);
    const response = await fetch(new URL(`venues/${encodeURIComponent(venue)}/challenge`, base), {
      signal: AbortSignal.timeout(15_000),
    });
    if (!response.ok) throw new Error(`challenge ${response.status}`);
    const payload = (
      (await response.json()) as { payload?: { challenge?: Challenge | null; turnstile?: TurnstileOffer } }
    ).payload;
    const offer = payload?.turnstile;
    if (offer && offer.siteKey !== this.turnstile?.offer.siteKey) {
      this.turnstile = new Turnstile(offer);
      this._offered();
    }
    const challenge = payload?.challenge;
    return challenge ? { challenge, solution: await solve(challenge) } : null;
  }
}
