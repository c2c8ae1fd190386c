/**
 * The Node entry's way to the upstream: node:http(s) over kept-alive connections, in place of the
 * global `fetch` (undici), whose WHATWG streams and per-request machinery cost a relayed read
 * more than the rest of the proxy's work. Only what the proxy's upstream client uses is offered:
 * a `Request` in (method, URL, headers, a small body, an abort signal), a `Response` out with the
 * status, headers and whole body. Redirects are never followed (the client asks for `manual`).
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/** Statuses whose answer has no body (a `Response` refuses one). */
const NULL_BODY = new Set([101, 204, 205, 304]);

/** A fetch over node:http(s) with kept-alive connections; `idleMs` bounds an idle connection's life. */
export function nodeFetch(idleMs = 4_000): (request: Request) => Promise<Response> {
  const options = { keepAlive: true, maxSockets: 64, maxFreeSockets: 16, timeout: idleMs };
  const http = new HttpAgent(options);
  const https = new HttpsAgent(options);
  return async (request) => {
    const url = new URL(request.url);
    const secure = url.protocol === 'https:';
    if (!secure && url.protocol !== 'http:') throw new TypeError(`Unsupported protocol ${url.protocol}`);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => (headers[name] = value));
    if (body) headers['content-length'] = String(body.length);
    return new Promise<Response>((resolve, reject) => {
      const send = secure ? httpsRequest : httpRequest;
      const outgoing = send(
        url,
        { method: request.method, headers, agent: secure ? https : http, signal: request.signal },
        (incoming: IncomingMessage) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('error', reject);
          incoming.on('end', () => {
            const status = incoming.statusCode ?? 502;
            const answer = new Headers();
            const raw = incoming.rawHeaders;
            for (let i = 0; i < raw.length; i += 2) answer.append(raw[i]!, raw[i + 1]!);
            try {
              resolve(
                new Response(NULL_BODY.has(status) ? null : Buffer.concat(chunks), {
                  status,
                  statusText: incoming.statusMessage ?? '',
                  headers: answer,
                }),
              );
            } catch (error) {
              // A status a Response cannot carry (e.g. 1xx or 600+): the upstream is broken.
              reject(error instanceof Error ? error : new TypeError(String(error)));
            }
          });
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  };
}
