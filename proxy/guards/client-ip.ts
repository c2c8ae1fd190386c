/**
 * Who a request comes from, for per-client limits: the rate-limit key. Pure (no `node:` import), so
 * the Node entry and the Worker entry key their limits the same way.
 *
 * A header a reverse proxy writes is only as good as the hop that wrote it: every proxy appends the
 * address it saw to `X-Forwarded-For`, so only the right-most entries were written by proxies we
 * trust, and anything to their left may be the client's own invention. The key is therefore the
 * entry `trustedHops` from the right. IPv6 clients are grouped by /64, the block one subscriber
 * usually gets, so rotating addresses inside it does not open new buckets. Empty or malformed
 * values count as absent (the socket address is used), never as one shared key.
 */

/** How an entry names its client: which header, and how many proxies in front append to it. */
export interface ClientIpOptions {
  /** Lower-case header name, e.g. `x-forwarded-for` or `cf-connecting-ip`; none: the socket address. */
  header?: string;
  /** Reverse proxies in front that append to the header (default 1). */
  trustedHops?: number;
}

const IPV4_RE = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** The eight 16-bit groups of an IPv6 address (embedded IPv4 and `::` expanded), or null. */
function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase().split('%')[0]!;
  const ipv4 = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (ipv4) {
    if (!IPV4_RE.test(ipv4[2]!)) return null;
    const [a, b, c, d] = ipv4[2]!.split('.').map(Number) as [number, number, number, number];
    text = `${ipv4[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string) => (part ? part.split(':') : []);
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  if (!groups.every((group) => /^[0-9a-f]{1,4}$/.test(group))) return null;
  return groups.map((group) => parseInt(group, 16));
}

/**
 * The rate-limit key of one address: an IPv4 address as it is (IPv4-mapped IPv6 too), an IPv6
 * address as its /64 (`2001:db8:1:2::/64`); null for anything that is not an address.
 */
export function addressKey(address: string | null | undefined): string | null {
  const text = address?.trim() ?? '';
  if (!text) return null;
  if (IPV4_RE.test(text)) return text;
  const groups = ipv6Groups(text.replace(/^\[(.*)\]$/, '$1'));
  if (!groups) return null;
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/**
 * The client's address in a header that `trustedHops` proxies appended to: the entry that many
 * from the right. Null when the header is absent, empty, shorter than the trusted chain, or the
 * entry is not an address (then the socket address is all that is known).
 */
export function forwardedClient(value: string | null | undefined, trustedHops = 1): string | null {
  const entries = (value ?? '').split(',').map((entry) => entry.trim());
  if (trustedHops < 1 || entries.length < trustedHops) return null;
  return addressKey(entries[entries.length - trustedHops]);
}

/**
 * The `clientKey` of a proxy: the trusted header's client when there is one, else the socket
 * address the host passed along; both grouped as `addressKey` does.
 */
export function clientKeyFor(
  options: ClientIpOptions,
  socketAddress: (env: unknown) => string | undefined = () => undefined,
): (request: { headers: { get(name: string): string | null } }, env: unknown) => string | undefined {
  const { header, trustedHops = 1 } = options;
  return (request, env) =>
    (header ? forwardedClient(request.headers.get(header), trustedHops) : null) ??
    addressKey(socketAddress(env)) ??
    undefined;
}

/** A host's client key function (node/main.ts, worker.ts): a request's headers and per-request context. */
export type ClientKey = (
  request: { headers: { get(name: string): string | null } },
  env: unknown,
) => string | undefined;

/**
 * The client key of a request for the per-client limits: the host's (socket address, trusted
 * header), else one bucket every client shares. The Hono app and the fast path both ask here.
 */
export function clientOf(
  clientKey: ClientKey | undefined,
  header: (name: string) => string | null,
  env: unknown,
): string {
  return clientKey?.({ headers: { get: header } }, env) ?? 'shared';
}
