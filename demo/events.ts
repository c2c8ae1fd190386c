/**
 * The events log panel: every `vb-*` event the widget fires, newest first, with its detail. It
 * shows a venue's developer what they can hook analytics or their own UI to, and that no event
 * carries personal data. Listens on `document`: the events bubble and are composed.
 */
import './main.js';

const EVENTS = ['vb-step', 'vb-change', 'vb-submit', 'vb-complete', 'vb-redirect', 'vb-error'] as const;

const log = document.querySelector<HTMLOListElement>('#event-log')!;
const clear = document.querySelector<HTMLButtonElement>('#clear-log')!;
const hold = document.querySelector<HTMLInputElement>('#hold-redirect')!;

function time(): string {
  return new Date().toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

for (const name of EVENTS) {
  document.addEventListener(name, (event) => {
    // Holding the redirect lets the reader see vb-redirect's detail instead of leaving the page.
    if (name === 'vb-redirect' && hold.checked) event.preventDefault();
    const item = document.createElement('li');
    const title = document.createElement('strong');
    title.textContent = name;
    const stamp = document.createElement('span');
    stamp.className = 'time';
    stamp.textContent = time();
    const detail = document.createElement('pre');
    detail.textContent = JSON.stringify((event as CustomEvent).detail, null, 2) ?? 'no detail';
    item.append(title, ' ', stamp, detail);
    log.prepend(item);
  });
}

clear.addEventListener('click', () => log.replaceChildren());
