/**
 * The QR code of a booking page's link, as SVG (sharp at any print size), drawn by `uqr` (UnJS, no
 * dependencies, runs in any runtime; bundled into the server build). Four modules of quiet zone,
 * as the QR standard asks, and error correction M (15 %): a menu card may get a stain.
 */
import { renderSVG } from 'uqr';
import { escapeHtml } from './page.js';

/** The SVG of `link`'s QR code, named for assistive technology. */
export function qrSvg(link: string, label = `QR code of ${link}`): string {
  return renderSVG(link, { ecc: 'M', border: 4, pixelSize: 1 }).replace(
    '<svg ',
    `<svg role="img" aria-label="${escapeHtml(label)}" `,
  );
}
