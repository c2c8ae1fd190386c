/**
 * A proxy's key for one purpose (signing hand-off ids, sealing manage links), agreed by every
 * instance: the configured secret when set (every instance and restart agrees), else a random one
 * agreed through the shared state (Redis, a Durable Object: the first instance's claim wins, read
 * again every minute), else this process's own (the memory state: what it signed dies with a
 * restart). A key replaced in the store is still accepted, so what was signed under it stays valid.
 */
import type { ProxyContext } from '../context.js';

const SECRET_REREAD_MS = 60_000;

/** Bytes as base64url, unpadded. */
export const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
/** Bytes from base64url text. */
export const fromBase64url = (text: string) =>
  Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (char) => char.charCodeAt(0));
/** Random text of `bytes` bytes, base64url. */
export const randomText = (bytes: number) => base64url(crypto.getRandomValues(new Uint8Array(bytes)));

/** What makes a purpose's keys: its configured secret, its claim's name and lifetime, and the key of a secret. */
export interface KeyPurpose {
  configured: () => string | null | undefined;
  claim: string;
  ttlMs: number;
  keyOf: (secret: string) => Promise<CryptoKey>;
}

/** The keys of one purpose in one proxy: the one to use now, and every one still accepted. */
export class SecretKeys {
  private readonly local: Promise<CryptoKey>;
  private shared: { key: Promise<CryptoKey>; secret: string } | null = null;
  private previous: Promise<CryptoKey> | null = null;
  private readAt = -Infinity;
  private configuredKey: Promise<CryptoKey> | undefined;
  private reading: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: ProxyContext,
    private readonly purpose: KeyPurpose,
  ) {
    this.local = purpose.keyOf(randomText(32));
  }

  /** The key to use now: the configured one, else the shared one, else this process's. */
  async current(): Promise<CryptoKey> {
    const configured = this.purpose.configured();
    if (configured) return (this.configuredKey ??= this.purpose.keyOf(configured));
    await this.refresh();
    return this.shared?.key ?? this.local;
  }

  /** Every key a valid value may have been made with. */
  async accepted(): Promise<CryptoKey[]> {
    const keys = [await this.current()];
    if (!this.purpose.configured()) {
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

  /** Takes the shared secret, keeping the one before it for what was made under it. */
  private async read(): Promise<void> {
    const { claim, ttlMs, keyOf } = this.purpose;
    const secret = await this.ctx.state.claim(claim, randomText(32), ttlMs).catch(() => null);
    if (secret === null || secret === this.shared?.secret) return;
    if (this.shared) this.previous = this.shared.key;
    this.shared = { secret, key: keyOf(secret) };
  }
}

/** The keys of `purpose` for each proxy, made once per route context. */
export function keysFor(purpose: (ctx: ProxyContext) => KeyPurpose): (ctx: ProxyContext) => SecretKeys {
  const made = new WeakMap<ProxyContext, SecretKeys>();
  return (ctx) => {
    let found = made.get(ctx);
    if (!found) made.set(ctx, (found = new SecretKeys(ctx, purpose(ctx))));
    return found;
  };
}
