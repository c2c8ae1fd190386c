/**
 * Encodings the proxy's layers share: the digests that Subresource Integrity and CSP hash sources
 * take, and gzip with the `Accept-Encoding` test that decides it. Web APIs only (`crypto.subtle`,
 * `CompressionStream`), so they run the same in Node and an edge runtime.
 */
/** The base64 digest of `bytes`, the form Subresource Integrity and CSP hash sources take. */
export async function base64Digest(algorithm: 'SHA-256' | 'SHA-384', bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest(algorithm, bytes));
  let binary = '';
  for (const byte of digest) binary += String.fromCharCode(byte);
  return btoa(binary);
}

// Each file's integrity, hashed once: the widget's bundle is one array for the process's life, and
// every page that embeds it (the booking page, the studio, /site-check, the plugin) names its hash.
const integrities = new WeakMap<Uint8Array<ArrayBuffer>, Promise<string>>();

/**
 * The `sha384-…` Subresource Integrity value of a file, computed once per array (the bytes of a
 * served file are never changed in place).
 */
export function integrityOf(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  let integrity = integrities.get(bytes);
  if (!integrity) {
    integrity = base64Digest('SHA-384', bytes).then((digest) => `sha384-${digest}`);
    integrities.set(bytes, integrity);
  }
  return integrity;
}

/** `bytes` gzipped. */
export async function gzip(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Whether an `Accept-Encoding` header accepts gzip (named, or `*`, with a quality above 0). */
export function acceptsGzip(header: string | undefined): boolean {
  for (const entry of (header ?? '').split(',')) {
    const [coding, ...params] = entry.split(';').map((part) => part.trim().toLowerCase());
    if (coding !== 'gzip' && coding !== '*') continue;
    const quality = params.find((param) => param.startsWith('q='));
    return !quality || Number(quality.slice(2)) > 0;
  }
  return false;
}

/** A body to send: as it is, or gzipped once (a remembered answer keeps its gzipped body for every later client). */
export interface Encodable {
  body: Uint8Array;
  /** The body gzipped, made when a client first accepts it, and kept once made. */
  gzipping?: Promise<Uint8Array>;
  gzipped?: Uint8Array;
}

/**
 * The body as the app's compression middleware sends it: gzipped for a client whose
 * `Accept-Encoding` takes gzip (made once per `Encodable`, then at once); `Content-Encoding` and
 * `Content-Length` added to `out` (header names and values in turn) for the bytes sent.
 */
export function encoded(
  out: string[],
  target: Encodable,
  acceptEncoding: string | null,
  compress: boolean,
): Uint8Array | Promise<Uint8Array> {
  if (!compress || !acceptsGzip(acceptEncoding ?? undefined)) {
    out.push('content-length', String(target.body.byteLength));
    return target.body;
  }
  const sent = (body: Uint8Array) => {
    out.push('content-encoding', 'gzip', 'content-length', String(body.byteLength));
    return body;
  };
  if (target.gzipped) return sent(target.gzipped);
  target.gzipping ??= gzip(target.body as Uint8Array<ArrayBuffer>).then((made) => (target.gzipped = made));
  return target.gzipping.then(sent);
}
