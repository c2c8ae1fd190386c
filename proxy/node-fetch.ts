/**
 * The Node entry's way to the upstream: node:http(s) over kept-alive connections, in place of the
 * global `fetch` (undici), whose WHATWG streams and per-request machinery cost a relayed read
 * more than the rest of the proxy's work. It is a `Transport` (upstream.ts): plain values in
 * (method, URL, headers, a small body, an abort signal), plain values out (status, headers, the
 * whole body as text), with no `Request`, `Headers` or `Response` built on the way. Redirects are
 * never followed.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { PlainResponse, Transport } from './upstream.js';

/** Options of `nodeTransport`. */
export interface NodeTransportOptions {
  /** How long an idle kept-alive connection lives, in ms (default 4 000). */
  idleMs?: number;
  /** Certificate authorities to trust for an https upstream besides Node's own (tests, private CAs). */
  ca?: string | Buffer | (string | Buffer)[];
}

const decoder = new TextDecoder();

/** A transport over node:http(s) with kept-alive connections. */
export function nodeTransport({ idleMs = 4_000, ca }: NodeTransportOptions = {}): Transport {
  const options = { keepAlive: true, maxSockets: 64, maxFreeSockets: 16, timeout: idleMs };
  const http = new HttpAgent(options);
  const https = new HttpsAgent(ca === undefined ? options : { ...options, ca });
  return (request) => {
    const url = new URL(request.url);
    const secure = url.protocol === 'https:';
    if (!secure && url.protocol !== 'http:')
      return Promise.reject(new TypeError(`Unsupported protocol ${url.protocol}`));
    const { body } = request;
    const headers =
      body === undefined ? request.headers : { ...request.headers, 'content-length': String(Buffer.byteLength(body)) };
    return new Promise<PlainResponse>((resolve, reject) => {
      const send = secure ? httpsRequest : httpRequest;
      const outgoing = send(
        url,
        { method: request.method, headers, agent: secure ? https : http, signal: request.signal },
        (incoming: IncomingMessage) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('error', reject);
          incoming.on('end', () => {
            const status = incoming.statusCode ?? 0;
            // Only statuses a Fetch `Response` could carry; anything else is a broken upstream.
            if (status < 200 || status > 599) return reject(new TypeError(`Unusable status ${status}`));
            const answer = incoming.headers;
            resolve({
              status,
              header: (name) => {
                const value = answer[name];
                return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
              },
              // As `Response.text()` reads it: UTF-8, a leading byte-order mark dropped.
              text: decoder.decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)),
            });
          });
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  };
}
