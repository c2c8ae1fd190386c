/**
 * How a shared store is doing, and the door every store call goes through: a timeout on each
 * call, the local fallback while the store is away, one log line per change of health, and one
 * health probe that alone decides when the store is back.
 *
 * Why one probe: when a store freezes (a stopped Redis keeps its TCP connection open, so every
 * command just times out), every call in flight fails at about the same moment. If each failure
 * pushed the next attempt further away, a five-second freeze would keep an instance off the shared
 * state for half a minute, and instances would rejoin at different times (a repeat reaching two of
 * them in that window is booked twice). So a failed call only marks the link `degraded`; from then
 * on calls go straight to the fallback, and a single probe at a time tries the store, backing off
 * 250 ms, 500 ms, then every second at most. In-flight failures never touch that back-off, so an
 * instance is back within about a second of the store answering again.
 *
 * With `probeEveryMs` (Node) a timer runs the probe, also while the store is `ok` (the shared
 * state uses it to notice a store that lost its data); without it (a Worker, where no timer may
 * outlive its request) the probe runs when a call finds one due.
 */
import type { Logger } from '../core/log.js';
import type { StoreHealth } from './types.js';

/** A store call that did not answer within the link's timeout. */
export class StoreTimeout extends Error {
  override readonly name = 'StoreTimeout';
}

/** Shortest and longest pause between probes of a store that is away. */
export const PROBE_MIN_MS = 250;
export const PROBE_MAX_MS = 1_000;

/** Options of a link. */
export interface StoreLinkOptions {
  name: string;
  /** Timeout of every store call, in ms. */
  timeoutMs: number;
  logger: Logger;
  now: () => number;
  /** The initial state: `down` for a store that connects in the background. */
  initial?: 'ok' | 'down';
  /** Probe by a timer, this often while the store is ok (and at most this far apart while not). */
  probeEveryMs?: number;
}

/** The link to one shared store. */
export class StoreLink {
  private state: Exclude<StoreHealth, 'memory'>;
  private pauseMs = PROBE_MIN_MS;
  private probeAt = 0;
  private probing: Promise<void> | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;
  /** Whether the store has been shared at all: its first `ok` is a connection, not a return. */
  private shared: boolean;
  /** What a probe runs: at least one store call; it throws when the store cannot be shared yet. */
  private check: () => Promise<void> = async () => {};

  constructor(private readonly options: StoreLinkOptions) {
    this.state = options.initial ?? 'ok';
    this.shared = this.state === 'ok';
    if (options.probeEveryMs) this.schedule(this.state === 'ok' ? options.probeEveryMs : 0);
  }

  /** Sets what the probe runs (the shared state's epoch check and catching up); see the header. */
  onProbe(check: () => Promise<void>): void {
    this.check = check;
  }

  health(): StoreHealth {
    return this.state;
  }

  /**
   * The connection went away (`false`), as the client reports it, or came up (`true`): then a
   * probe at once decides whether the store may be shared again.
   */
  connected(up: boolean): void {
    if (!up) {
      this.change('down');
      return;
    }
    this.probeAt = 0;
    void this.probe();
  }

  /**
   * Runs `op` on the store within the timeout, or `fallback` when the store cannot answer now.
   * With `patienceMs`, `op` is tried even while the store is `degraded` (not while `down`), and
   * given that long: for a booking's claim, which costs an upstream call anyway and which one slow
   * answer must not turn into a second booking.
   */
  async call<T>(op: () => Promise<T>, fallback: () => T | Promise<T>, patienceMs?: number): Promise<T> {
    if (this.state === 'down' || (this.state === 'degraded' && patienceMs === undefined)) {
      if (!this.options.probeEveryMs && this.options.now() >= this.probeAt) void this.probe();
      return fallback();
    }
    try {
      return await this.timed(op, Math.max(this.options.timeoutMs, patienceMs ?? 0));
    } catch (error) {
      this.failed(error);
      return fallback();
    }
  }

  /** Runs `op` within the timeout; throws `StoreTimeout` when it is late. For probes and catch-up work. */
  async timed<T>(op: () => Promise<T>, timeoutMs = this.options.timeoutMs): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      return await Promise.race([
        op(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new StoreTimeout()), timeoutMs);
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Probes the store now (one probe at a time: a caller during one gets that one). */
  probe(): Promise<void> {
    if (this.probing) return this.probing;
    this.probing = (async () => {
      try {
        await this.check();
        this.pauseMs = PROBE_MIN_MS;
        this.change('ok');
      } catch (error) {
        if (this.state === 'ok') this.failed(error);
        else {
          this.probeAt = this.options.now() + this.pauseMs;
          this.pauseMs = Math.min(this.pauseMs * 2, PROBE_MAX_MS);
        }
      } finally {
        this.probing = null;
        const every = this.options.probeEveryMs;
        if (every) this.schedule(this.state === 'ok' ? every : Math.max(0, this.probeAt - this.options.now()));
      }
    })();
    return this.probing;
  }

  /** Stops the probe timer (shutdown, tests). */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }

  /** A call failed: the first failure of an `ok` store marks it degraded; later ones change nothing. */
  private failed(error: unknown): void {
    if (this.state !== 'ok') return;
    this.change('degraded', error instanceof StoreTimeout ? 'timeout' : String(error).slice(0, 200));
    this.pauseMs = PROBE_MIN_MS;
    this.probeAt = this.options.now() + PROBE_MIN_MS;
    if (this.options.probeEveryMs && !this.probing) this.schedule(PROBE_MIN_MS);
  }

  private schedule(delayMs: number): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.probe(), delayMs);
    // A probe timer alone never keeps a process alive.
    (this.timer as { unref?: () => void }).unref?.();
  }

  private change(state: Exclude<StoreHealth, 'memory'>, reason?: string): void {
    if (state === this.state) return;
    this.state = state;
    const first = state === 'ok' && !this.shared;
    if (state === 'ok') this.shared = true;
    this.options.logger.log({
      level: state === 'ok' ? 'info' : 'warn',
      msg: first
        ? `shared state: connected to ${this.options.name}; sharing`
        : state === 'ok'
          ? `shared state: ${this.options.name} is back; sharing again`
          : `shared state: ${this.options.name} is ${state}; working on local state`,
      store: this.options.name,
      state,
      ...(reason ? { reason } : {}),
    });
  }
}
