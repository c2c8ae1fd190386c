/**
 * The languages page: a picker that switches the widget's `locale` attribute. en-GB is built in;
 * fr, de, es and nl are fetched on demand the first time they are chosen. `?locale=fr` opens the
 * page in that language, so each language has a link of its own.
 */
import './main.js';

const picker = document.querySelector<HTMLSelectElement>('#locale')!;
const widget = document.querySelector('venue-booking')!;

function apply(locale: string): void {
  widget.setAttribute('locale', locale);
  // Only the widget changes language; the page around it stays English, so only it says so.
  widget.setAttribute('lang', locale);
  const url = new URL(location.href);
  url.searchParams.set('locale', locale);
  history.replaceState(history.state, '', url);
}

const requested = new URLSearchParams(location.search).get('locale');
if (requested && [...picker.options].some((option) => option.value === requested)) {
  picker.value = requested;
  apply(requested);
}
picker.addEventListener('change', () => apply(picker.value));
