/**
 * The Node entry's request listener: the proxy's cache (pipeline/fast-path.ts) straight on node:http's
 * request and response, and everything else through @hono/node-server to the full app.
 *
 * A cached read asked again is answered from pre-serialised bytes: no `Request`, no router, no
 * `Response`, no header conversion. Whatever the cache does not answer goes to the app.
 *
 * A request whose body the app did not read (an oversized one refused with 413, a POST refused
 * before its body was looked at) is answered with `Connection: close`: the adapter drops such a
 * connection after the answer, and a client told to keep it alive would send its next request
 * into a closed socket.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { FastAnswer, FastPath, FastRequest } from '../pipeline/fast-path.js';

/** What the listener serves: the app's Fetch handler, and the proxy's fast path when there is one. */
export interface NodeHandler {
  fetch(request: Request, env?: unknown): Promise<Response>;
  fast?: FastPath;
}

// What @hono/node-server passes through as it is, so the fast path's URL is the app's URL. Other
// hosts and targets (absolute-form, encoded, dotted, IPv6 literals) are left to the adapter.
const PLAIN_HOST = /^[a-z0-9._-]+(?::(?:[1-5]\d{3,4}|[6-9]\d{3}))?$/;
const PLAIN_TARGET = /^\/[!#$&-;=?-[\]_a-z~]*$/;
const DOT_SEGMENT = /\/\.\.?(?:[/?#]|$)/;

/** An encoded slash or backslash in a path: one server splits a segment there, another does not. */
const ENCODED_SLASH = /%(?:2f|5c)/i;

/**
 * The path a request target names as the app will route it: parsed as the app's `Request` is (the
 * WHATWG URL parser decodes `%2e` to a dot, resolves dot segments, reads a backslash as a slash),
 * so that `/embed/%2e%2e/api/…` is `/api/…` here as there. Null for a target that is ambiguous (an
 * encoded slash or backslash in its path) or unreadable: a listener that decides by path refuses it.
 */
export function routedPath(target: string): string | null {
  if (ENCODED_SLASH.test(target.split('?', 1)[0]!)) return null;
  try {
    return new URL(target, 'http://listener.invalid').pathname;
  } catch {
    return null;
  }
}

/** The request's headers as `Headers.get` reads them: every value of a name joined with `, `. */
function headersOf(rawHeaders: string[]): Map<string, string> {
  const headers = new Map<string, string>();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    const kept = headers.get(name);
    headers.set(name, kept === undefined ? rawHeaders[i + 1]! : `${kept}, ${rawHeaders[i + 1]!}`);
  }
  return headers;
}

/** The fast path's view of a plain GET, or null when the adapter must build the request. */
function fastRequest(req: IncomingMessage, env: unknown): FastRequest | null {
  if (req.method !== 'GET') return null;
  const target = req.url ?? '';
  // The headers are read once, into a Map (`req.headers` would build Node's object of them too).
  const headers = headersOf(req.rawHeaders);
  // A repeated Host is joined with `, ` here, so it is not plain: the adapter takes it.
  const host = headers.get('host');
  if (!host || !PLAIN_HOST.test(host) || !PLAIN_TARGET.test(target) || DOT_SEGMENT.test(target)) return null;
  const scheme = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  return {
    url: `${scheme}://${host}${target}`,
    header: (name) => headers.get(name) ?? null,
    env,
    plain: { scheme, host, target },
  };
}

/** The request listener of the Node entry. */
export function nodeListener(handler: NodeHandler): (req: IncomingMessage, res: ServerResponse) => void {
  const full = getRequestListener((request, env) => handler.fetch(request, env));
  const slow = (req: IncomingMessage, res: ServerResponse) => {
    // Marks the answer `Connection: close` when the request's body was not read to its end.
    const writeHead = res.writeHead;
    res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
      if (req.method !== 'GET' && req.method !== 'HEAD' && !req.readableEnded && !this.headersSent)
        this.setHeader('connection', 'close');
      return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
    } as typeof res.writeHead;
    void full(req, res);
  };
  const { fast } = handler;
  if (!fast) return slow;
  return (req, res) => {
    const view = fastRequest(req, { incoming: req, outgoing: res });
    if (!view) return slow(req, res);
    const handOver = () => slow(req, res);
    const send = (answer: FastAnswer | null) => {
      if (!answer) return handOver();
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body);
    };
    let answer;
    try {
      answer = fast.answer(view);
    } catch {
      return handOver();
    }
    // A remembered read is answered at once (the memory state's steps are synchronous).
    if (answer instanceof Promise) answer.then(send, handOver);
    else send(answer);
  };
}
