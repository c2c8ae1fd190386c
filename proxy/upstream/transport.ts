/**
 * The seam between the upstream client and the network: one request as plain values in, one
 * answer as plain values out. A host plugs in the fastest way it has (the Node entry's kept-alive
 * node:http, node/transport.ts); everywhere else a Fetch function serves (`fetchTransport`:
 * Workers, the embedded sandbox in the same process, tests).
 */

/** One upstream request as plain values, for a host's own HTTP client (node/transport.ts). */
export interface PlainRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

/** An upstream answer as plain values: the status, a header by lower-case name, the whole body. */
export interface PlainResponse {
  status: number;
  header(name: string): string | null;
  text: string;
}

/**
 * How the upstream client reaches the service: the Node entry's node:http transport, or a Fetch
 * (`fetchTransport`) where there is nothing better (Workers, the embedded sandbox, tests).
 * Redirects are never followed.
 */
export type Transport = (request: PlainRequest) => Promise<PlainResponse>;

/** A transport over a Fetch function. */
export function fetchTransport(fetch: (request: Request) => Promise<Response>): Transport {
  return async ({ method, url, headers, body, signal }) => {
    const response = await fetch(
      // Never followed: a redirect would carry the key to another host (workerd before the
      // 2025-09-01 compatibility date kept Authorization across origins) or serve its answer.
      new Request(url, { method, headers, body, signal, redirect: 'manual' }),
    );
    const text = await response.text();
    return { status: response.status, header: (name) => response.headers.get(name), text };
  };
}
