/**
 * A booking's conversion for the ad platforms (issue 37; the contract is docs/events.md): once a
 * booking counts, GA4's recommended event goes to `window.dataLayer` with `analytics` on (`purchase`
 * for a confirmed booking, the reference as `transaction_id`; `generate_lead` for an enquiry), and
 * Meta's standard event to `fbq` with `meta-pixel` on and the page's pixel present (`Purchase` or
 * `Lead`, the reference as `eventID`, so the pixel and a server-side feed de-duplicate). The widget
 * never loads Google's or Meta's scripts: it hands its events to what the page has.
 *
 * A booking is counted once per browser, however often its confirmation is shown (a reload shows
 * it again): the references counted are kept in localStorage, or, where that is unavailable, for
 * the page's life. Nothing here carries personal data: the reference, the booking type's id and
 * name, the party size and whether the guest ticked a marketing preference.
 *
 * Decision: the ad platforms' events live in the later steps chunk (the confirmation renders from
 * there), so a page that never books pays nothing for them; the funnel's `vb_*` events are pushed
 * by `fire` (`element-types.ts`) in the bundle, with the same `vb_version`.
 */

/** The contract's version, on every push (docs/events.md: a change of meaning is a new name). */
export const EVENTS_VERSION = 1;

/** The element as a conversion sees it: its switches. */
export interface ConversionHost {
  readonly analytics: boolean;
  readonly metaPixel?: boolean;
}

/** A booking that counts, without personal data. */
export interface Conversion {
  reference: string;
  status: 'confirmed' | 'enquiry';
  /** The booking type's id and display name, when known. */
  type?: string;
  typeName?: string;
  /** The party size, when known. */
  party?: number;
  /** Whether the guest ticked one of the venue's marketing preferences with this booking. */
  consent: boolean;
}

const COUNTED = 'venue-booking:counted';
/** How many references are remembered: enough for any guest's bookings, small enough for any storage. */
const KEPT = 50;
/** The references counted in this page's life (all of them where localStorage is unavailable). */
const countedHere = new Set<string>();

/** The references counted in this browser, or none where localStorage is unavailable or unreadable. */
function countedBefore(): string[] {
  try {
    const list: unknown = JSON.parse(globalThis.localStorage?.getItem(COUNTED) ?? '[]');
    return Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}

/** Remembers a counted reference, in localStorage where it can (quietly not, where it cannot). */
function remember(reference: string): void {
  countedHere.add(reference);
  try {
    globalThis.localStorage?.setItem(COUNTED, JSON.stringify([...countedBefore(), reference].slice(-KEPT)));
  } catch {
    // Storage blocked or full: counted for this page's life only.
  }
}

/** The page's Meta pixel, when it has one. */
type Fbq = (command: 'track', name: string, data: object, options: { eventID: string }) => void;

/**
 * Hands a booking that counts to the page's tags, once: GA4's event to `dataLayer` with
 * `analytics` on, Meta's to `fbq` with `metaPixel` on and `fbq` present. Nothing when neither is
 * on, or when this reference was counted before.
 */
export function countConversion(host: ConversionHost, booking: Conversion): void {
  const fbq = (globalThis as { fbq?: Fbq }).fbq;
  const meta = host.metaPixel && typeof fbq === 'function';
  const { reference } = booking;
  if ((!host.analytics && !meta) || !reference || countedHere.has(reference) || countedBefore().includes(reference))
    return;
  remember(reference);
  const purchase = booking.status === 'confirmed';
  const items = booking.type
    ? [{ item_id: booking.type, item_name: booking.typeName ?? booking.type, quantity: booking.party ?? 1 }]
    : [];
  if (host.analytics) {
    const layer = ((globalThis as { dataLayer?: unknown[] }).dataLayer ??= []);
    const common = { vb_version: EVENTS_VERSION, vb_reference: reference, marketing_consent: booking.consent };
    // GA4's advice: clear the last ecommerce object, so none of its fields carries over.
    if (purchase)
      layer.push(
        { ecommerce: null },
        { event: 'purchase', ...common, ecommerce: { transaction_id: reference, items } },
      );
    else layer.push({ event: 'generate_lead', ...common, items });
  }
  if (meta) {
    const data = { content_name: booking.typeName, content_ids: booking.type ? [booking.type] : [] };
    fbq(
      'track',
      purchase ? 'Purchase' : 'Lead',
      purchase
        ? {
            ...data,
            content_type: 'product',
            contents: items.map((item) => ({ id: item.item_id, quantity: item.quantity })),
            num_items: booking.party ?? 1,
          }
        : data,
      { eventID: reference },
    );
  }
}

/** Where a hand-off through the proxy's bridge is marked for the return (sessionStorage: this tab's). */
const BRIDGED = 'venue-booking:bridged';

/**
 * Marks that the guest leaves for the booking site with a return through the proxy's bridge (its
 * URL carries the proxy's signed hand-off id): the bridge lands only returns that prove themselves
 * (proxy/api/return-bridge.ts), so the confirmation they bring counts. A return to the page
 * without it could have been sent by anyone, and counts nothing.
 */
export function markBridged(url: string): void {
  try {
    const back = new URL(new URL(url).searchParams.get('return_url') ?? '');
    if (back.searchParams.get('handoff')) globalThis.sessionStorage?.setItem(BRIDGED, '1');
  } catch {
    // No return URL of the bridge's, or no storage: the return will not count.
  }
}

/** Whether the guest left through the proxy's bridge (`markBridged`): true once, the mark then taken. */
export function takeBridged(): boolean {
  try {
    const marked = globalThis.sessionStorage?.getItem(BRIDGED) === '1';
    globalThis.sessionStorage?.removeItem(BRIDGED);
    return marked;
  } catch {
    return false;
  }
}
