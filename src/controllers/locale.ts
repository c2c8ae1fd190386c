/**
 * The widget's words, as a reactive controller: English is built in; another `locale` loads on
 * demand, and if its module cannot be loaded (say, the bundle served without it) English stays and
 * the element is told, to fire `vb-error` with `kind: 'locale'`. Dates, times and durations follow
 * the locale whose strings are shown.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { enGB, type Strings } from '../i18n/en-GB.js';
import { loadStrings } from '../i18n/index.js';

/** The element as this controller sees it. */
export interface LocaleHost extends ReactiveControllerHost {
  readonly locale: string;
}

/** The strings of the element's `locale`. */
export class Locale implements ReactiveController {
  /** The strings shown now. */
  strings: Strings = enGB;
  /** The locale last asked for. */
  private _asked: string | undefined;

  constructor(
    private readonly _host: LocaleHost,
    private readonly _failed: () => void,
  ) {
    _host.addController(this);
  }

  /** The `Intl` locale of dates, times and durations: English's while English is shown. */
  get tag(): string {
    return this.strings === enGB ? 'en-GB' : this._host.locale;
  }

  hostUpdate(): void {
    const locale = this._host.locale;
    if (locale === this._asked) return;
    this._asked = locale;
    loadStrings(locale || 'en-GB').then(
      (strings) => {
        if (this._host.locale === locale) this._show(strings);
      },
      () => {
        if (this._host.locale !== locale) return;
        this._show(enGB);
        this._failed();
      },
    );
  }

  private _show(strings: Strings): void {
    if (strings === this.strings) return;
    this.strings = strings;
    this._host.requestUpdate();
  }
}
