/**
 * Pages opened in frames of the browser tests' own page, phone- or desktop-sized: the booking,
 * status, manage and studio pages the proxy serves, as a guest or an operator opens them. Each test
 * file calls `closeFrames` after each test.
 */

const open: HTMLIFrameElement[] = [];

/** What a frame shows: the page at a URL, or a document given as HTML. */
export type FrameSource = string | { srcdoc: string };

/** Loads `source` in a frame `width` × `height` CSS pixels; resolves once it has loaded. */
export async function openFrame(
  source: FrameSource,
  title: string,
  { width = 412, height = 900 }: { width?: number; height?: number } = {},
): Promise<HTMLIFrameElement> {
  const frame = document.createElement('iframe');
  frame.title = title;
  frame.style.cssText = `width: ${width}px; height: ${height}px; border: 0;`;
  const loaded = nextLoad(frame);
  if (typeof source === 'string') frame.src = source;
  else frame.srcdoc = source.srcdoc;
  document.body.append(frame);
  open.push(frame);
  await loaded;
  return frame;
}

/** Resolves on the frame's next document (a link followed, a form sent). */
export const nextLoad = (frame: HTMLIFrameElement): Promise<unknown> =>
  new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));

/** Removes every frame the test opened. */
export function closeFrames(): void {
  for (const frame of open.splice(0)) frame.remove();
}
