/**
 * The Node entry's way to the upstream: node:http(s) over kept-alive connections, in place of the
 * global `fetch` (undici), whose WHATWG streams and per-request machinery cost a relayed read
 * more than the rest of the proxy's work. It is a `Transport` (upstream/transport.ts): plain values in
 * (method, URL, headers, a small body, a deadline), plain values out (status, headers, the
 * whole body as text), with no `Request`, `Headers` or `Response` built on the way, and the
 * deadline kept by one timer on the request (no abort signal, no race of promises). The URL's
 * origin is parsed once (the upstream's base never changes); its path and query, which the
 * upstream client built from validated values, are sent as they are. Redirects are never followed.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { timeoutError, type PlainResponse, type Transport } from '../upstream/transport.js';

/** Options of `nodeTransport`. */
export interface NodeTransportOptions {
  /** How long an idle kept-alive connection lives, in ms (default 4 000). */
  idleMs?: number;
  /** Certificate authorities to trust for an https upstream besides Node's own (tests, private CAs). */
  ca?: string | Buffer | (string | Buffer)[];
}

/** Where the requests to one origin go. */
interface Target {
  secure: boolean;
  hostname: string;
  port: string;
  auth?: string;
}

const decoder = new TextDecoder();

/** The error an aborted request rejects with: the signal's reason, as `fetch` rejects. */
const abortError = (signal: AbortSignal): Error =>
  signal.reason instanceof Error ? signal.reason : new DOMException('This operation was aborted', 'AbortError');

/** The origin of `url` parsed, or a TypeError for a scheme other than http(s). */
function targetOf(origin: string): Target {
  const url = new URL(origin);
  const secure = url.protocol === 'https:';
  if (!secure && url.protocol !== 'http:') throw new TypeError(`Unsupported protocol ${url.protocol}`);
  const auth = url.username || url.password ? decodeURIComponent(`${url.username}:${url.password}`) : undefined;
  return { secure, hostname: url.hostname.replace(/^\[|\]$/g, ''), port: url.port, auth };
}

/** A header of an answer by its lower-case name, every value joined with `, ` as `Headers.get` joins them. */
function headerOf(raw: string[], name: string): string | null {
  let value: string | null = null;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.length === name.length && raw[i]!.toLowerCase() === name)
      value = value === null ? raw[i + 1]! : `${value}, ${raw[i + 1]!}`;
  }
  return value;
}

/** A transport over node:http(s) with kept-alive connections. */
export function nodeTransport({ idleMs = 4_000, ca }: NodeTransportOptions = {}): Transport {
  const options = { keepAlive: true, maxSockets: 64, maxFreeSockets: 16, timeout: idleMs };
  const http = new HttpAgent(options);
  const https = new HttpsAgent(ca === undefined ? options : { ...options, ca });
  const targets = new Map<string, Target>();
  return (request) => {
    const { url, body } = request;
    const slash = url.indexOf('/', url.indexOf('//') + 2);
    const origin = slash < 0 ? url : url.slice(0, slash);
    let target = targets.get(origin);
    if (!target) {
      try {
        target = targetOf(origin);
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new TypeError(String(error)));
      }
      if (targets.size < 16) targets.set(origin, target);
    }
    const headers =
      body === undefined ? request.headers : { ...request.headers, 'content-length': String(Buffer.byteLength(body)) };
    const { secure } = target;
    const { signal, timeoutMs } = request;
    if (signal?.aborted) return Promise.reject(abortError(signal));
    return new Promise<PlainResponse>((resolve, fail) => {
      // The abort signal is watched here, not handed to node:http, which watches the stream's
      // whole life for it (end-of-stream listeners) at a measurable cost per call.
      const abort = () => outgoing.destroy(abortError(signal!));
      signal?.addEventListener('abort', abort, { once: true });
      // One timer for the whole exchange, the answer's body included. It rejects first, so the
      // connection's own error on the way down cannot pass for another fault.
      const timer =
        timeoutMs === undefined
          ? undefined
          : setTimeout(() => {
              reject(timeoutError());
              outgoing.destroy();
            }, timeoutMs);
      const settled = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', abort);
      };
      const reject = (error: Error) => {
        settled();
        fail(error);
      };
      const outgoing = (secure ? httpsRequest : httpRequest)(
        {
          protocol: secure ? 'https:' : 'http:',
          hostname: target.hostname,
          port: target.port,
          auth: target.auth,
          path: slash < 0 ? '/' : url.slice(slash),
          method: request.method,
          headers,
          agent: secure ? https : http,
        },
        (incoming: IncomingMessage) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('error', reject);
          incoming.on('end', () => {
            settled();
            const status = incoming.statusCode ?? 0;
            // Only statuses a Fetch `Response` could carry; anything else is a broken upstream.
            if (status < 200 || status > 599) return fail(new TypeError(`Unusable status ${status}`));
            const raw = incoming.rawHeaders;
            resolve({
              status,
              header: (name) => headerOf(raw, name),
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
