/**
 * The Idempotency-Key of a booking being sent, kept in the page's session storage so a retry, even
 * after a reload, cannot book twice. Only a submit needs it, and a submit needs the details form,
 * so it travels in the later steps chunk (`later-steps.ts`): it imports nothing at run time, and
 * the storage and the name to keep the key under come from `pendingStore` in `session.ts`.
 */
import type { pendingStore } from './session.js';

/** Where the key is kept: the page's storage (null where it refuses) and the name in it. */
export type PendingStore = ReturnType<typeof pendingStore>;

/** A booking being sent: its Idempotency-Key, and a SHA-256 of its details to tell a resend from a new booking. */
interface PendingBooking {
  key: string;
  details: string;
}

/** Pending bookings where storage refuses, so a retry without a reload still reuses its key. */
const unsaved = new Map<string, PendingBooking>();

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The Idempotency-Key to send `details` with: the key of the booking being sent with the same
 * details, even from before a reload (so the proxy replays its answer instead of booking twice),
 * else a new key, kept until {@link clearPendingBookingKey}.
 */
export async function pendingBookingKey({ store, name }: PendingStore, details: string): Promise<string> {
  const hash = await sha256(details);
  let pending = unsaved.get(name);
  try {
    const raw = store?.getItem(name);
    if (raw) pending = JSON.parse(raw) as PendingBooking;
  } catch {
    // Unreadable: a new key.
  }
  if (pending?.details === hash && typeof pending.key === 'string') return pending.key;
  pending = { key: crypto.randomUUID(), details: hash };
  unsaved.set(name, pending);
  try {
    store?.setItem(name, JSON.stringify(pending));
  } catch {
    // Storage full or blocked: the key lasts as long as the page.
  }
  return pending.key;
}

/** Forgets the pending booking once its answer arrived: the next booking gets a new key. */
export function clearPendingBookingKey({ store, name }: PendingStore): void {
  unsaved.delete(name);
  try {
    store?.removeItem(name);
  } catch {
    // Nothing kept.
  }
}
