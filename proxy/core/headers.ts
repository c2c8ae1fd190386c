/**
 * The headers every answer carries besides its own: security headers, CORS and rate-limit counts.
 *
 * Each middleware records its headers for the request (a layer) before the route runs, and after
 * `next()` writes them onto whatever answer came back, exactly as `hono/secure-headers` and
 * `hono/cors` do. Answers built with `answer()` (every relayed read and booking answer) already
 * hold every recorded layer in one plain header object, which Node's adapter writes as it is; the
 * middleware leave those alone. Setting a dozen headers one by one on a `Headers` object, then
 * converting it back for Node, used to cost a cached read about a tenth of its time.
 */
import type { Context } from 'hono';

/** Headers one middleware adds to an answer. */
export interface Layer {
  /** `fill`: only where the answer has no such header (a route may set its own); `set`: replaces. */
  mode: 'fill' | 'set';
  headers: Record<string, string>;
  /** Appended to the answer's `Vary`. */
  vary?: string;
  /** Headers the answer must not carry. */
  drop?: readonly string[];
}

// Keyed by the request's Hono context: the raw Request may be replaced on the way (`bodyLimit`).
const layersOf = new WeakMap<Context, Layer[]>();
const built = new WeakMap<Response, Record<string, string>>();

/**
 * The security headers of every answer: what `hono/secure-headers` sets by default, with a strict
 * CSP (an API answers JSON only); a route may set its own (the widget script's CORP). It also
 * drops `X-Powered-By`, as that middleware does.
 */
export const SECURITY_LAYER: Layer = Object.freeze({
  mode: 'fill',
  drop: ['X-Powered-By'],
  headers: Object.freeze({
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Origin-Agent-Cluster': '?1',
    'Referrer-Policy': 'no-referrer',
    'Strict-Transport-Security': 'max-age=15552000; includeSubDomains',
    'X-Content-Type-Options': 'nosniff',
    'X-DNS-Prefetch-Control': 'off',
    'X-Download-Options': 'noopen',
    'X-Frame-Options': 'SAMEORIGIN',
    'X-Permitted-Cross-Domain-Policies': 'none',
    'X-XSS-Protection': '0',
    'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  }),
});

/** `Vary` with `token` added, unless it names it already (in any case): a route may vary on it itself. */
function withVary(current: string | undefined, token: string): string | undefined {
  if (!current) return token;
  const named = current.split(',').some((part) => part.trim().toLowerCase() === token.toLowerCase());
  return named ? current : `${current}, ${token}`;
}

/** Records `layer` for the answer of the request `c`; call it before `next()`. */
export function addLayer(c: Context, layer: Layer): void {
  const layers = layersOf.get(c);
  if (layers) layers.push(layer);
  else layersOf.set(c, [layer]);
}

/** Writes `layer` onto `response` after `next()`, unless the response was built with it. */
export function applyLayer(response: Response, layer: Layer): void {
  if (built.has(response)) return;
  const { headers } = response;
  for (const name in layer.headers) {
    if (layer.mode === 'set' || !headers.has(name)) headers.set(name, layer.headers[name]!);
  }
  if (layer.vary) {
    const vary = withVary(headers.get('Vary') ?? undefined, layer.vary);
    if (vary !== undefined) headers.set('Vary', vary);
  }
  for (const name of layer.drop ?? []) headers.delete(name);
}

/**
 * `own` headers with `layers` on top, in one plain object (lower-case names), combined as the
 * middleware would: innermost layer last in the list, applied first, so an outer `set` wins. The
 * Hono app (`answer`) and the Node entry's sequence (pipeline/sequence.ts) build every answer's headers here.
 */
export function combined(own: Record<string, string>, layers: readonly Layer[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name in own) headers[name.toLowerCase()] = own[name]!;
  for (let i = layers.length - 1; i >= 0; i--) {
    const layer = layers[i]!;
    for (const name in layer.headers) {
      const key = name.toLowerCase();
      if (layer.mode === 'set' || !(key in headers)) headers[key] = layer.headers[name]!;
    }
    if (layer.vary) headers.vary = withVary(headers.vary, layer.vary)!;
    for (const name of layer.drop ?? []) delete headers[name.toLowerCase()];
  }
  return headers;
}

/** A response with `own` headers plus every layer recorded for the request `c` (`combined`). */
export function answer(c: Context, body: BodyInit | null, status: number, own: Record<string, string>): Response {
  const headers = combined(own, layersOf.get(c) ?? []);
  const response = new Response(body, { status, headers });
  built.set(response, headers);
  return noteBodySize(response, body);
}

/** One header of an answer; reads an `answer()`'s plain headers without converting them. */
export function headerOf(response: Response, name: string): string | undefined {
  const plain = built.get(response);
  return (plain ? plain[name.toLowerCase()] : response.headers.get(name)) ?? undefined;
}

/** The body sizes of answers built from a string or bytes (`answer()`, `envelopeResponse`). */
const bodySizes = new WeakMap<Response, number>();

/** UTF-8 length of a string, without encoding it. */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x800) bytes += code >= 0xd800 && code <= 0xdbff ? 1 : 2;
    else if (code >= 0x80) bytes += 1;
  }
  return bytes;
}

/** Notes the size of `body` as the body of `response` (the response size metric reads it). */
export function noteBodySize(response: Response, body: BodyInit | null): Response {
  if (typeof body === 'string') bodySizes.set(response, utf8Length(body));
  else if (body instanceof Uint8Array) bodySizes.set(response, body.byteLength);
  return response;
}

/** The body size of an answer: its Content-Length, or the size noted when it was built; undefined for a stream. */
export function bodySizeOf(response: Response): number | undefined {
  const length = headerOf(response, 'content-length');
  if (length !== undefined) return Number(length) || 0;
  return response.body === null ? 0 : bodySizes.get(response);
}
