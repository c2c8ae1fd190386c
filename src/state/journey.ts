/**
 * A journey's life across reloads and the trip to the booking site: a plain class the element
 * drives (`follow` at the start of each update, as a framework may set properties after the
 * element is attached). Once the venue is set it keys the journey, reads the guest's return (and
 * cleans the address bar) and the saved booking; it saves the booking as it changes, keeps the
 * Idempotency-Key of a booking being sent, and sends the guest to the booking site with the right
 * return address. `session.ts` holds the storage rules.
 */
import type { clearPendingBookingKey, pendingBookingKey } from './pending-booking.js';
import {
  loadBooking,
  pendingStore,
  readReturn,
  returnUrlFor,
  saveBooking,
  withoutReturn,
  type Restored,
  type SavedBooking,
} from './session.js';

/** The pending key's code, from the later steps chunk (`pending-booking.ts`). */
export interface PendingKeys {
  pendingBookingKey: typeof pendingBookingKey;
  clearPendingBookingKey: typeof clearPendingBookingKey;
}

/** The element as the journey sees it. */
export interface JourneyHost {
  readonly id: string;
  readonly api: string;
  readonly venue: string;
  readonly venueGroup: string;
  readonly returnUrl: string;
  readonly returnMethod: 'post' | 'get';
  readonly locale: string;
}

/**
 * The booking's life across reloads and the booking site, keyed per widget on the page. Its private
 * members are `#` names, which the minifier shortens (the build's short private names cover only
 * the element and its controllers).
 */
export class Journey {
  readonly #host: JourneyHost;
  readonly #restore: (restored: Restored) => void;
  /** This widget's name on the page and in the return URL: its id, else its venue or group (`~2`… past the first). */
  #returnKey = '';
  /** The proxy, venue and group of the journey ('' until a venue or group is set), and the id it was keyed with. */
  #journey = '';
  #id = '';
  /** The booking saved last, marked as away by `leave`. */
  #saved: SavedBooking | null = null;

  constructor(host: JourneyHost, restore: (restored: Restored) => void) {
    this.#host = host;
    this.#restore = restore;
  }

  /** A widget's key without its place: widgets before this one are upgraded (document order), their properties set. */
  #keyOf(element: Partial<JourneyHost>): string | undefined {
    return element.id || element.venueGroup || element.venue;
  }

  /** The key its state is saved under: per proxy too, as ids mean nothing to another service. */
  get #key(): string {
    return `${this.#host.api}|${this.#returnKey}`;
  }

  /**
   * Follows the element's `api`, `venue`, `venue-group` and `id` at the start of an update:
   * `first` when they settle (a venue or group is set for the first time: the journey is keyed,
   * and the guest's return or saved booking restored), `new` when the host changed the proxy, venue
   * or group after that (a new journey, under its own key), else null.
   */
  follow(): 'first' | 'new' | null {
    const host = this.#host;
    if (typeof location === 'undefined' || !(host.venue || host.venueGroup)) return null;
    const journey = JSON.stringify([host.api, host.venue, host.venueGroup]);
    if (journey === this.#journey && host.id === this.#id) return null;
    const first = !this.#journey;
    const changed = journey !== this.#journey;
    this.#journey = journey;
    this.#id = host.id;
    const key = this.#keyOf(host)!;
    // An id is unique: it keys the one widget that has it, and widgets without one keep apart.
    const place = [...document.querySelectorAll<HTMLElement>('venue-booking')]
      .filter((element) => this.#keyOf(element as Partial<JourneyHost>) === key)
      .indexOf(host as unknown as HTMLElement);
    this.#returnKey = place > 0 ? `${key}~${place + 1}` : key;
    if (first) this.#restoreSaved();
    return first ? 'first' : changed ? 'new' : null;
  }

  /** Reads the guest's return from the booking site (cleaning the address bar) and the saved booking. */
  #restoreSaved(): void {
    const saved = loadBooking(this.#key);
    const back = readReturn(location.href, this.#returnKey, Boolean(saved?.redirected));
    if (back) {
      history.replaceState(history.state, '', withoutReturn(location.href));
      this.save({
        ...saved,
        venue: saved?.venue ?? null,
        choices: saved?.choices ?? {},
        offer: saved?.offer ?? null,
        redirected: false,
        confirmation: back,
      });
    }
    this.#restore({ back, saved });
  }

  /** Saves (or, with null, forgets) the booking in progress. */
  save(value: SavedBooking | null): void {
    this.#saved = value;
    saveBooking(this.#key, value);
  }

  /**
   * The Idempotency-Key of a booking with these details (the same across a retry and a reload),
   * through the later steps chunk's `keys`, loaded whenever the guest can submit.
   */
  pendingKey(keys: PendingKeys, details: string): Promise<string> {
    return keys.pendingBookingKey(pendingStore(this.#key), details);
  }

  /** Forgets that key once the booking's answer arrived. */
  sent(keys: PendingKeys): void {
    keys.clearPendingBookingKey(pendingStore(this.#key));
  }

  /**
   * Where the booking site sends the guest back: through the proxy's bridge (POST) when it offers
   * one, else to the page itself with the details in its URL (`venue`: the venue booked, for the
   * bridge; `bridge`: the proxy's hand-off id when it offers its bridge, else false).
   */
  returnTo(venue: string, bridge: string | false): { returnUrl: string; returnMethod?: 'post' } {
    const page = returnUrlFor(this.#host.returnUrl, location.href, this.#returnKey);
    // A `return-url` on another origin always goes through the bridge when there is one (whatever
    // `return-method` says): a GET return would take the guest's name, email and reference straight
    // there, while the bridge lands only on origins the proxy serves and otherwise tells the guest.
    const post = bridge !== false && (this.#host.returnMethod !== 'get' || offPage(page));
    return post
      ? { returnUrl: bridgeUrl(this.#host.api, venue, page, this.#host.locale, bridge), returnMethod: 'post' }
      : { returnUrl: page };
  }

  /** Sends the guest to the booking site, the booking saved last marked as away so the return is read. */
  leave(url: string): void {
    if (this.#saved) this.save({ ...this.#saved, redirected: true });
    location.assign(url);
  }
}

/** Whether a `return-url` (relative: this page's) is on another origin than this page: its return must take the bridge. */
export const offPage = (returnUrl: string) => new URL(returnUrl, location.href).origin !== location.origin;

/**
 * The proxy's return bridge for a venue: the page to send the guest back to, and the language of its
 * own page. A relative `api` is this page's, not the return page's (which may be on another origin).
 */
function bridgeUrl(api: string, venue: string, page: string, lang: string, handoff: string): string {
  const url = new URL(`${(api || '/api').replace(/\/+$/, '')}/return`, location.href);
  url.searchParams.set('venue', venue);
  url.searchParams.set('page', page);
  url.searchParams.set('lang', lang);
  if (handoff) url.searchParams.set('handoff', handoff);
  return url.href;
}
