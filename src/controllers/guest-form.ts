/**
 * The guest's details, as a reactive controller: what the guest typed (a `guest` prefill fills only
 * the fields the guest has not typed in, so a host page that re-renders and sets `guest` again
 * never overwrites "Grace" with "Ada"), and the inline errors, checked with the proxy's own rules
 * (`checkGuest`) when a field is left, while a flagged field is retyped, and on submit. Only the
 * details form uses it, so it travels in the later steps chunk (`later-steps.ts`), which imports
 * nothing: the element creates it once that chunk is here, and hands it the bundle's `checkGuest`
 * (the proxy's rules, `api/rules.ts`, stay in the bundle, which needs their party size too).
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { checkGuest, GuestDetails, GuestError } from '../state/booking-flow.js';
import type { GuestPrefill } from '../state/element-types.js';
import { Proofs, type Proof } from '../pow/proofs.js';
import { togglePhrase } from '../state/requests.js';
import { countConversion, markBridged, takeBridged, type Conversion } from '../state/conversions.js';
import { Replacing, type ReplacingHost } from './replacing.js';
import type { fire } from '../state/element-types.js';

/** The element as this controller sees it. */
export interface GuestHost extends ReactiveControllerHost, ReplacingHost {
  readonly guest: GuestPrefill | null;
  readonly askDob: 'required' | 'optional' | '';
  /** The proxy's API base (the bot check's challenge is fetched there). */
  readonly api: string;
  /** Where the form renders (Turnstile's place is found there). */
  readonly renderRoot: HTMLElement | DocumentFragment;
  /** The element's switches of the ad platforms' events (`state/conversions.ts`). */
  readonly analytics: boolean;
  readonly metaPixel?: boolean;
  /** The element's own events: a hand-off through the proxy's bridge is heard in its `vb-redirect`. */
  addEventListener(type: string, listener: (event: Event) => void): void;
}

/** The details form's values and errors. */
export class GuestForm implements ReactiveController {
  details: GuestDetails = {
    first_name: '',
    last_name: '',
    email: '',
    phone: '',
    dob: '',
    notes: '',
    marketing_preferences: [],
  };
  errors: Partial<Record<keyof GuestDetails, GuestError>> = {};
  /** Fields the guest has typed in. */
  private _touched = new Set<string>();
  /** The last `guest` prefill applied. */
  private _prefill: GuestPrefill | null = null;
  /** The bot check's proofs, solved while the guest types (`pow/proofs.ts`). */
  private _proofs = new Proofs(() => this._host.requestUpdate());
  /** This page sent a booking (its proof was taken) that no confirmation has counted yet. */
  private _sent = false;
  /** The reference of the confirmation last shown: each is weighed once, however often it renders. */
  private _weighed = '';
  /** A change's cancel step and event, with `replaces` set (`replacing.ts`): the details step offers it. */
  readonly replacing: Replacing;

  /**
   * `check`: the guest-detail rules; `today`: London's date (for the date of birth); `shown`: the
   * venue being booked while the form is in sight, else a falsy value; `fireEvent`: the bundle's
   * `fire`, for a change's events.
   */
  constructor(
    private readonly _host: GuestHost,
    private readonly _check: typeof checkGuest,
    private readonly _today: () => string,
    private readonly _shown: () => string | false | null,
    fireEvent: typeof fire,
  ) {
    _host.addController(this);
    // The form is created once the later steps are here, which the hand-off step needs too.
    _host.addEventListener('vb-redirect', (event) => markBridged((event as CustomEvent<{ url: string }>).detail.url));
    this.replacing = new Replacing(_host, fireEvent);
  }

  hostUpdate(): void {
    // The details are in sight: the proof the booking will carry is solved while the guest types.
    const venue = this._shown();
    if (venue) this._proofs.prepare(this._host.api, venue);
    const guest = this._host.guest;
    if (guest === this._prefill) return;
    this._prefill = guest;
    const fill = Object.entries(guest ?? {}).filter(
      ([name, value]) => typeof value === 'string' && !this._touched.has(name),
    );
    if (fill.length) this.details = { ...this.details, ...Object.fromEntries(fill) };
  }

  /** Cloudflare Turnstile, where the proxy offers it: the form renders its place (`[data-turnstile]`). */
  get turnstile(): boolean {
    return !!this._proofs.turnstile;
  }

  hostUpdated(): void {
    const place = this._shown() && this._host.renderRoot.querySelector<HTMLElement>('[data-turnstile]');
    if (place) this._proofs.turnstile?.mount(place);
  }

  /** A field's input: its value, and a new check of a field that was flagged. */
  input(event: Event): void {
    const input = event.target as HTMLInputElement;
    const name = input.name as keyof GuestDetails;
    if (name === 'marketing_preferences') {
      const chosen = new Set(this.details.marketing_preferences);
      if (input.checked) chosen.add(input.value);
      else chosen.delete(input.value);
      this._set({ ...this.details, marketing_preferences: [...chosen] });
      return;
    }
    this._touched.add(name);
    this._set({ ...this.details, [name]: input.value });
    // Once a field was flagged, re-check it as the guest types so the message goes away promptly;
    // the notes at every keystroke, so notes past the limit are said as they pass it, not on submit.
    if (this.errors[name] || name === 'notes') this._recheck(name);
  }

  /** A quick pick pressed: its phrase added to the notes, or taken out when they hold it (`togglePhrase`). */
  request(phrase: string): void {
    this._touched.add('notes');
    this._set({ ...this.details, notes: togglePhrase(this.details.notes ?? '', phrase) });
    this._recheck('notes');
  }

  /** A field left: checked when it holds something. */
  blur(event: Event): void {
    const input = event.target as HTMLInputElement;
    // A field blurs as the form leaves (say, for the confirmation): nothing to check then, and no
    // update to set off while the last one is being committed.
    if (this._shown() && input.value) this._recheck(input.name as keyof GuestDetails);
  }

  /** Checks every field (on submit): true when the details can be sent. */
  check(): boolean {
    this.errors = this._check(this.details, this._host.askDob, this._today());
    this._host.requestUpdate();
    return Object.keys(this.errors).length === 0;
  }

  /** The bot check's proof (and Turnstile's token) for one attempt to book at `venue` (`{}` where the proxy asks none). */
  proof(venue: string): Promise<{ proof?: Proof; turnstile?: string }> {
    this._sent = true;
    return this._proofs.take(this._host.api, venue);
  }

  /**
   * A confirmation shown (each render of it says so; it is weighed once): it counts for the ad
   * platforms (`countConversion`, once per booking) when this page sent the booking, or when the
   * guest came back through the proxy's bridge, which lands proven returns only. A confirmation
   * kept across a reload, or brought by a return that anyone could have sent, counts nothing. The
   * consent is the guest's marketing tick, known only for a booking sent from this page. A change
   * (`replaced`: the booking took the place of another) counts nothing: it brings no new booking,
   * and `vb-changed` tells the page.
   */
  confirmed(booking: Omit<Conversion, 'consent'>, replaced = false): void {
    if (booking.reference === this._weighed) return;
    this._weighed = booking.reference;
    const sent = this._sent;
    this._sent = false;
    if (!replaced && (sent || takeBridged()))
      countConversion(this._host, { ...booking, consent: sent && !!this.details.marketing_preferences?.length });
  }

  /** A new booking: the guest keeps their name and contact details, not the notes or consent. */
  reset(): void {
    this._set({ ...this.details, notes: '', marketing_preferences: [] });
  }

  private _set(details: GuestDetails): void {
    this.details = details;
    this._host.requestUpdate();
  }

  private _recheck(name: keyof GuestDetails): void {
    const errors = { ...this.errors };
    const code = this._check(this.details, this._host.askDob, this._today())[name];
    if (code) errors[name] = code;
    else delete errors[name];
    this.errors = errors;
    this._host.requestUpdate();
  }
}
