/**
 * A change's side of the widget, for a widget with `replaces` set (the proxy's change page embeds it
 * so, with the booking's values prefilled): the details step's "Cancel this booking instead" (a
 * confirm step, then `POST /api/manage/:token/cancel`, `vb-cancelled`), and `vb-changed` once the
 * new booking is stored and the proxy says it cancelled the old one. It travels in the later steps
 * chunk (`later-steps.ts`), which imports nothing at run time, so the bundle's `fire` comes in as an
 * argument; the `GuestForm` it belongs to creates it, so the first load carries none of it.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { fire as fireEvent, VenueBookingCompleteDetail } from '../state/element-types.js';

/** The element as this controller sees it. */
export interface ReplacingHost extends ReactiveControllerHost, HTMLElement {
  /** The proxy's API base. */
  readonly api: string;
  /** The manage token of the booking being changed ('' for a new booking). */
  readonly replaces: string;
  readonly analytics: boolean;
  readonly renderRoot: HTMLElement | DocumentFragment;
}

/**
 * Where the guest is in cancelling: not asked yet, asked to confirm, the POST on its way, cancelled
 * (`already`: it was before), or refused or failed (`message`, and the venue's `phone` to call).
 */
export type CancelStage = 'closed' | 'asking' | 'sending' | 'cancelled' | 'refused';

/** A manage call's bound: the proxy asks the service, which can take a second or two. */
const TIMEOUT_MS = 15_000;

/** The cancel step of a change, and the change's event. */
export class Replacing implements ReactiveController {
  stage: CancelStage = 'closed';
  /** The booking's reference, once the proxy named it (the manage read, or the cancel's answer). */
  reference = '';
  /** The cancel found the booking cancelled already (a second cancel, or a retry whose answer was lost). */
  already = false;
  /** Why the cancel did not happen, in the proxy's words (a refusal's envelope) or the widget's. */
  message = '';
  /** The venue's phone, from the manage read: a refusal is settled by calling the venue. */
  phone = '';
  /** A selector to focus once the next render is in (the confirm step, its outcome). */
  private _focus = '';
  /** The manage read of the confirm step, so a refusal shows the phone with its message. */
  private _read: Promise<void> = Promise.resolve();

  constructor(
    private readonly _host: ReplacingHost,
    private readonly _fire: typeof fireEvent,
  ) {
    _host.addController(this);
    // The proxy cancelled the old booking only once the new one was confirmed, and said so in the
    // booking's answer (`previous`); a confirmation brought back by a reload was told before.
    _host.addEventListener('vb-complete', (event) => {
      const { reference, previous, restored } = (event as CustomEvent<VenueBookingCompleteDetail>).detail;
      // After `vb-complete` has reached the page, as the change follows from the booking.
      if (previous && !restored) queueMicrotask(() => this._fire(_host, 'vb-changed', { reference, previous }));
    });
  }

  /** Whether the widget replaces a booking (`replaces` set): only then is there one to cancel. */
  get active(): boolean {
    return Boolean(this._host.replaces);
  }

  hostUpdated(): void {
    if (!this._focus) return;
    this._host.renderRoot.querySelector<HTMLElement>(this._focus)?.focus();
    this._focus = '';
  }

  /** The guest asks to cancel instead: the confirm step, and the manage read for the reference and phone. */
  ask(): void {
    this.message = '';
    this._set('asking', '[data-cancel-yes]');
    this._read = this._call('').then(({ body }) => {
      const payload = body as { booking?: { reference?: unknown }; phone?: unknown } | null;
      this.reference ||= String(payload?.booking?.reference ?? '');
      this.phone = typeof payload?.phone === 'string' ? payload.phone : '';
      this._host.requestUpdate();
    });
  }

  /** The guest keeps the booking: back to the offer to cancel. */
  keep(): void {
    this._set('closed', '[data-cancel-ask]');
  }

  /**
   * The guest confirmed: the proxy cancels the booking (again the venue's rules, on the write); a
   * refusal gives the proxy's message, with the venue's phone beside it.
   */
  async cancel(failed: string): Promise<void> {
    if (this.stage === 'sending') return;
    this._set('sending', '');
    const { ok, body } = await this._call('/cancel', failed);
    const answer = body as { reference?: unknown; already?: unknown; message?: unknown } | null;
    if (ok) {
      this.reference = String(answer?.reference ?? this.reference);
      this.already = answer?.already === true;
      this._fire(this._host, 'vb-cancelled', { reference: this.reference });
      this._set('cancelled', '[data-cancel-outcome]');
    } else {
      await this._read;
      this.message = typeof answer?.message === 'string' && answer.message ? answer.message : failed;
      this._set('refused', '[data-cancel-outcome]');
    }
  }

  private _set(stage: CancelStage, focus: string): void {
    this.stage = stage;
    this._focus = focus;
    this._host.requestUpdate();
  }

  /**
   * One manage call (`suffix`: '' reads, '/cancel' cancels), bounded by a timeout: whether it
   * succeeded, and its payload (the envelope's, or the body itself), or the error's payload (the
   * envelope's, or an `{ error }` body) when it was refused; `failed`'s words when no answer came.
   */
  private async _call(suffix: string, failed = ''): Promise<{ ok: boolean; body: unknown }> {
    const base = new URL(this._host.api.replace(/\/?$/, '/'), location.href);
    const url = new URL(`manage/${encodeURIComponent(this._host.replaces)}${suffix}`, base);
    try {
      const response = await fetch(url, {
        method: suffix ? 'POST' : 'GET',
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      const data = (await response.json().catch(() => null)) as { payload?: unknown; error?: unknown } | null;
      return { ok: response.ok, body: data?.payload ?? data?.error ?? data };
    } catch {
      return { ok: false, body: { message: failed } };
    }
  }
}
