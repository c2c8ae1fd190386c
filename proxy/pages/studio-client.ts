/**
 * The embed studio's browser script, served at `/embed/studio.js` with the page's nonce. It only
 * improves the page, which works without it: it turns a colour picker on with its tick box, applies
 * the colours to the preview (the page's CSP allows styles set from script, not in markup), redraws
 * the preview, the code to paste, the warnings, the links (the QR code's and the plugin's
 * downloads) and the venue's choices as the form changes (by asking the page again, so every check
 * stays the server's; no reload, so focus stays in the form), keeps the sites' forms returning to
 * the choices made, and copies the code to paste. A venue's "Save" takes the studio's address as
 * it is now, to come back to.
 *
 * It is a TypeScript function, type-checked and linted with the rest, and served as its own
 * source (`studioScript()`): the proxy runs where there is no file system (an edge runtime), so the
 * script travels inside the server bundle. Hence the one rule of this file: `studioClient` uses
 * nothing but the browser's globals; it imports nothing, and nothing outside it is in scope.
 */

/** The studio's behaviour, run once in the browser. */
export function studioClient(): void {
  const form = document.getElementById('studio-form') as HTMLFormElement;
  const byId = (id: string) => document.getElementById(id);
  const paint = () => {
    for (const element of document.querySelectorAll<HTMLElement>('#preview venue-booking[data-vb-style]')) {
      const style = JSON.parse(element.dataset.vbStyle ?? '{}') as Record<string, string>;
      for (const [name, value] of Object.entries(style)) element.style.setProperty(name, value);
    }
  };
  const wireColours = () => {
    for (const box of form.querySelectorAll<HTMLInputElement>('input[data-colour]')) {
      const picker = form.elements.namedItem(box.dataset.colour ?? '') as HTMLInputElement | null;
      if (picker) picker.disabled = !box.checked;
    }
  };
  const wireCopy = () => {
    const copy = byId('copy') as HTMLButtonElement | null;
    const said = byId('copied');
    const snippet = byId('snippet') as HTMLTextAreaElement | null;
    if (!copy || !said || !snippet) return;
    copy.hidden = false;
    copy.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(snippet.value);
        said.textContent = 'Copied: paste it where the widget should appear.';
      } catch {
        snippet.focus();
        snippet.select();
        said.textContent = 'Selected: press Ctrl+C (or Cmd+C) to copy it.';
      }
    });
  };
  const replace = (next: Document, id: string) => {
    const fresh = next.getElementById(id);
    const current = byId(id);
    if (!fresh || !current || current.innerHTML === fresh.innerHTML) return;
    if (!current.contains(document.activeElement) || current.children.length !== fresh.children.length) {
      current.replaceWith(document.importNode(fresh, true));
      return;
    }
    // The control in use stays as it is (focus and what is typed); its neighbours are redrawn.
    [...current.children].forEach((child, index) => {
      const update = fresh.children[index]!;
      if (!child.contains(document.activeElement) && child.outerHTML !== update.outerHTML)
        child.replaceWith(document.importNode(update, true));
    });
  };
  // "Test your tracking": each push to `dataLayer` and each call to Meta's pixel, listed as it comes
  // (the studio has no pixel: its stand-in `fbq` only lists; pushes made before this ran are listed too).
  const wireTracking = () => {
    const list = byId('tracking-events');
    if (!list) return;
    // Shown with the first event (a first tap in the preview): until then it takes no room.
    const show = (line: string) => {
      byId('tracking')!.hidden = false;
      list.append(Object.assign(document.createElement('li'), { textContent: line }));
    };
    const page = window as unknown as { dataLayer?: unknown[]; fbq?: (...args: unknown[]) => void };
    const layer = (page.dataLayer ??= []);
    for (const item of layer) show(`dataLayer: ${JSON.stringify(item)}`);
    const push = layer.push.bind(layer);
    layer.push = (...items: unknown[]) => {
      for (const item of items) show(`dataLayer: ${JSON.stringify(item)}`);
      return push(...items);
    };
    page.fbq ??= (...args: unknown[]) => show(`Meta: ${JSON.stringify(args)}`);
  };
  // The preview as the page last gave it: redrawn only when that changes (a new widget starts over).
  let previewSource = document.querySelector('#preview venue-booking')?.outerHTML;
  let timer = 0;
  let inFlight: AbortController | null = null;
  const redraw = async () => {
    inFlight?.abort();
    inFlight = new AbortController();
    // What is left empty is left out of the address, as the page reads it as unset anyway.
    const filled = [...new FormData(form)].filter((entry): entry is [string, string] => entry[1] !== '');
    const query = new URLSearchParams(filled).toString();
    // The preview's journey is kept across redraws by its token (the page starts a new one at a load).
    const token = /^preview-([0-9a-f]+)-/.exec(document.querySelector('#preview venue-booking')?.id ?? '')?.[1];
    const response = await fetch(`${form.getAttribute('action')}?${query}${token ? `&preview=${token}` : ''}`, {
      signal: inFlight.signal,
    });
    if (!response.ok) return;
    const next = new DOMParser().parseFromString(await response.text(), 'text/html');
    for (const id of ['problems', 'contrast', 'snippet-section', 'links', 'google', 'steps', 'prefill'])
      replace(next, id);
    const element = next.querySelector('#preview venue-booking');
    const shown = document.querySelector('#preview venue-booking');
    if (element && shown && element.outerHTML !== previewSource) {
      previewSource = element.outerHTML;
      shown.replaceWith(document.importNode(element, true));
    }
    // "Your venue" follows the venues chosen, and only them: what is typed there stays otherwise.
    const profiles = next.getElementById('venue-profiles');
    const current = byId('venue-profiles');
    if (profiles && current && profiles.dataset.venues !== current.dataset.venues)
      current.replaceWith(document.importNode(profiles, true));
    history.replaceState(null, '', `?${query}`);
    // The sites' forms send the manager back to these choices.
    for (const back of document.querySelectorAll<HTMLInputElement>('.site-form input[name="back"]')) back.value = query;
    paint();
    wireCopy();
    document.body.dataset.drawn = query;
  };
  const later = () => {
    clearTimeout(timer);
    timer = window.setTimeout(() => redraw().catch(() => {}), 250);
  };
  form.addEventListener('change', (event) => {
    if ((event.target as HTMLElement).dataset.colour !== undefined) wireColours();
    later();
  });
  // Colour pickers and typed values report every step; the redraw waits for a pause.
  form.addEventListener('input', later);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    redraw().catch(() => form.submit());
  });
  document.addEventListener('submit', (event) => {
    const target = event.target as HTMLFormElement;
    const studio = target.classList.contains('venue-profile') ? target.elements.namedItem('studio') : null;
    if (studio instanceof HTMLInputElement) studio.value = location.search.slice(1);
  });
  document.documentElement.classList.add('scripted');
  wireTracking();
  paint();
  wireColours();
  wireCopy();
}

/**
 * The script as served: `studioClient`'s source, called. The shim stands for the helper that a
 * development build (tsx, esbuild's keepNames) writes into the function to keep its names.
 */
export function studioScript(): string {
  return `const __name = (target) => target;\n(${studioClient.toString()})();\n`;
}
