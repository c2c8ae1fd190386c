/**
 * Demo harness, loaded before the widget on every gallery page.
 *
 * `?api=/path/to/api` points every `<venue-booking>` of the page at another proxy, and is kept
 * for the tab (sessionStorage) so that the return page of the web hand-off, reached without the
 * query, still talks to the same proxy. The browser tests use it to give each page a fresh,
 * isolated stack; a developer can use it to try the gallery against their own proxy.
 *
 * Only same-origin paths are accepted: a shared link must not send a guest's details elsewhere.
 */
const KEY = 'venue-booking-demo-api';

function sameOriginPath(value: string | null): string | null {
  return value && value.startsWith('/') && !value.startsWith('//') ? value : null;
}

const fromQuery = sameOriginPath(new URLSearchParams(location.search).get('api'));
if (fromQuery) sessionStorage.setItem(KEY, fromQuery);
const api = fromQuery ?? sameOriginPath(sessionStorage.getItem(KEY));

// Module scripts run after parsing, so every element of the page is here, not yet upgraded:
// the widget's first request already goes to the chosen proxy.
if (api) for (const element of document.querySelectorAll('venue-booking')) element.setAttribute('api', api);

export {};
