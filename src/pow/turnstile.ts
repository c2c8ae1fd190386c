/**
 * The widget's half of Cloudflare Turnstile, the bot check's optional layer (proxy/api/turnstile.ts):
 * where the proxy's challenge answer names a site key, Cloudflare's script is loaded (only then,
 * and only in the later steps: a first screen never carries a third party) and its widget rendered
 * in the details form, explicitly, with the action the proxy checks. Managed or invisible as the
 * operator chose in Cloudflare's dashboard: either way Cloudflare's own iframe, which takes no
 * focus unless a person must act on it, so keyboard and screen-reader users move past it as past
 * any field. Each token is spent by one booking, then the widget is reset for the next attempt.
 */

/** What the proxy's challenge answer says of Turnstile. */
export interface TurnstileOffer {
  siteKey: string;
  script: string;
  action: string;
}

/** The part of Cloudflare's `window.turnstile` the widget calls. */
interface TurnstileApi {
  render(
    element: HTMLElement,
    options: {
      sitekey: string;
      action: string;
      callback: (token: string) => void;
      'expired-callback': () => void;
      'error-callback': () => void;
    },
  ): string | undefined;
  reset(id?: string): void;
}

/** How long a booking waits for Cloudflare's token before failing as a request would. */
const TOKEN_WAIT_MS = 30_000;

let loading: Promise<TurnstileApi> | null = null;

/** Cloudflare's script, added to the page once. */
function loadScript(src: string): Promise<TurnstileApi> {
  const api = () => (globalThis as { turnstile?: TurnstileApi }).turnstile;
  loading ??= new Promise<TurnstileApi>((resolve, reject) => {
    const found = api();
    if (found) return resolve(found);
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.onload = () => (api() ? resolve(api()!) : reject(new Error('turnstile')));
    script.onerror = () => reject(new Error('turnstile'));
    document.head.append(script);
  });
  loading.catch(() => (loading = null));
  return loading;
}

/** One details form's Turnstile widget: rendered once into its element, a token per booking. */
export class Turnstile {
  private _token: string | null = null;
  private _waiting: ((token: string | null) => void)[] = [];
  private _id: string | undefined;
  private _api: TurnstileApi | null = null;
  private _into: HTMLElement | null = null;

  constructor(readonly offer: TurnstileOffer) {}

  /** Renders into `element` (a new element after a re-render: rendered again there). */
  mount(element: HTMLElement): void {
    if (element === this._into) return;
    this._into = element;
    void loadScript(this.offer.script)
      .then((api) => {
        this._api = api;
        this._id = api.render(element, {
          sitekey: this.offer.siteKey,
          action: this.offer.action,
          callback: (token) => this._settle(token),
          'expired-callback': () => (this._token = null),
          'error-callback': () => this._settle(null),
        });
      })
      .catch(() => this._settle(null));
  }

  /** The token for one booking, the widget then reset for the next; rejects when none comes. */
  async take(): Promise<string> {
    const token =
      this._token ??
      (await new Promise<string | null>((resolve) => {
        this._waiting.push(resolve);
        setTimeout(() => resolve(null), TOKEN_WAIT_MS);
      }));
    this._token = null;
    if (this._api) this._api.reset(this._id);
    if (!token) throw new Error('turnstile');
    return token;
  }

  private _settle(token: string | null): void {
    this._token = token;
    for (const resolve of this._waiting.splice(0)) resolve(token);
  }
}
