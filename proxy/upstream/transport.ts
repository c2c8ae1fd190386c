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
  /**
   * The deadline of the whole exchange in ms, the answer's body included (a slow trickle is as bad
   * as no answer): past it the request is abandoned and the call rejects with a `TimeoutError`.
   * Each transport keeps it the cheapest way it can (node:http: one timer on the request).
   */
  timeoutMs?: number;
  /** Abandons the request when aborted: the call rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** The error a call past its deadline rejects with, as `AbortSignal.timeout` makes `fetch` reject. */
export function timeoutError(): DOMException {
  return new DOMException('The upstream did not answer in time', 'TimeoutError');
}

/** Whether `error` is a transport's deadline passing (`timeoutError`, or `fetch` under `AbortSignal.timeout`). */
export function isTimeout(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'TimeoutError';
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

/**
 * A transport over a Fetch function. The deadline is raced, not only signalled: a Fetch function
 * (a test's, an embedded app's) may never look at its request's signal.
 */
export function fetchTransport(fetch: (request: Request) => Promise<Response>): Transport {
  const exchange = async (
    { method, url, headers, body }: PlainRequest,
    signal: AbortSignal | undefined,
  ): Promise<PlainResponse> => {
    const response = await fetch(
      // Never followed: a redirect would carry the key to another host (workerd before the
      // 2025-09-01 compatibility date kept Authorization across origins) or serve its answer.
      new Request(url, { method, headers, body, signal, redirect: 'manual' }),
    );
    const text = await response.text();
    return { status: response.status, header: (name) => response.headers.get(name), text };
  };
  return async (request) => {
    const { timeoutMs } = request;
    if (timeoutMs === undefined) return exchange(request, request.signal);
    const controller = new AbortController();
    const abort = () => controller.abort(request.signal?.reason);
    if (request.signal?.aborted) abort();
    request.signal?.addEventListener('abort', abort, { once: true });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = timeoutError();
        controller.abort(error);
        reject(error);
      }, timeoutMs);
    });
    try {
      return await Promise.race([exchange(request, controller.signal), deadline]);
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', abort);
    }
  };
}
