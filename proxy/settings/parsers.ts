/**
 * The parsers the settings registry's rows use (registry.ts): each turns the trimmed text an
 * operator wrote into the setting's value, or adds a problem naming the variable. A list's parser
 * also says what the setting is when unset (`empty`), so resolving a config needs no per-setting code.
 */
import { canonicalOrigin } from '../core/url.js';
import { ID_RE, isLoopback } from '../guards/validate.js';
import type { LimitRule } from '../state/types.js';

/** Turns the trimmed text of a setting (never empty) into its value, or adds a problem naming it. */
export type Parser<T> = (raw: string, name: string, problems: string[]) => T | undefined;

/** A parser of a collection, which is empty (not null) when the setting is unset. */
export type ListParser<T> = Parser<T> & { readonly empty: Readonly<T> };

/** `parse` with the value an unset setting resolves to. */
const withEmpty = <T>(parse: Parser<T>, empty: Readonly<T>): ListParser<T> => Object.assign(parse, { empty });

/** The items of a comma list, trimmed, empty ones dropped. */
const list = (value: string) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** A URL that is http(s) and holds no credentials, or null. */
export function httpUrl(value: string): URL | null {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password ? url : null;
  } catch {
    return null;
  }
}

/** The parsers the rows use; each names the variable in its problem. */
export const parsers = {
  /** A whole number from `min` to `max`. */
  whole:
    (min: number, max: number): Parser<number> =>
    (raw, name, problems) => {
      const value = /^\d+$/.test(raw) ? Number(raw) : NaN;
      if (!(value >= min && value <= max)) problems.push(`${name} must be a whole number from ${min} to ${max}`);
      return value;
    },
  /** A count per window (`windowMs`), as a limit rule. */
  perWindow:
    (min: number, max: number, windowMs: number): Parser<LimitRule> =>
    (raw, name, problems) => {
      const before = problems.length;
      const limit = parsers.whole(min, max)(raw, name, problems);
      return problems.length > before || limit === undefined ? undefined : { limit, windowMs };
    },
  /** A comma list of ids; none when unset. */
  ids: withEmpty<string[]>(
    (raw, name, problems) => {
      const values = list(raw);
      for (const value of values) if (!ID_RE.test(value)) problems.push(`${name}: "${value}" is not an id`);
      return values.length ? values : undefined;
    },
    Object.freeze([] as string[]),
  ),
  /**
   * A comma list of origins (scheme://host[:port]), any spelling (case, a default port, a trailing
   * slash) kept in the canonical form browsers send, which the origin rule and the studio's site
   * list compare (core/url.ts `canonicalOrigin`).
   */
  origins: withEmpty<string[]>(
    (raw, name, problems) => {
      const origins: string[] = [];
      for (const origin of list(raw)) {
        const canonical = canonicalOrigin(origin);
        if (canonical === null || canonical === 'null')
          problems.push(`${name}: "${origin}" is not an origin like https://example.com`);
        else if (!origins.includes(canonical)) origins.push(canonical);
      }
      return origins.length ? origins : undefined;
    },
    Object.freeze([] as string[]),
  ),
  /** An http(s) URL, without its trailing slashes. */
  url: ((raw, name, problems) => {
    if (httpUrl(raw)) return raw.replace(/\/+$/, '');
    problems.push(`${name}: "${raw}" is not an http(s) URL`);
    return undefined;
  }) as Parser<string>,
  /** `on` or `off`. */
  onOff: ((raw, name, problems) => {
    if (raw === 'on' || raw === 'off') return raw === 'on';
    problems.push(`${name} must be on (default) or off`);
    return undefined;
  }) as Parser<boolean>,
  /** Any text (its checks live with the setting that needs them). */
  text: ((raw) => raw) as Parser<string>,
  /** A file's path: at most 1,000 printable characters. */
  path: ((raw, name, problems) => {
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
    if (raw.length <= 1_000 && !/[\u0000-\u001f]/.test(raw)) return raw;
    problems.push(`${name} must be a file's path`);
    return undefined;
  }) as Parser<string>,
  /** At most 100 printable characters. */
  printable: ((raw, name, problems) => {
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
    if (raw.length <= 100 && !/[\u0000-\u001f]/.test(raw)) return raw;
    problems.push(`${name} must be at most 100 printable characters`);
    return undefined;
  }) as Parser<string>,
  /** One URL for every venue, or `venueId=url` pairs; `{venue}` in a URL is replaced by the venue id. */
  returnPages: withEmpty<Record<string, string>>((raw, name, problems) => {
    const pages: Record<string, string> = {};
    for (const item of list(raw)) {
      const [venue, page] = /^[A-Za-z0-9_-]+=/.test(item)
        ? [item.slice(0, item.indexOf('=')), item.slice(item.indexOf('=') + 1)]
        : ['*', item];
      if (!httpUrl(page!.replace('{venue}', 'x'))) problems.push(`${name}: "${page}" is not an http(s) URL`);
      else pages[venue!] = page!;
    }
    return pages;
  }, Object.freeze({})),
  /** The service's base URL: ending in /v4, https unless on loopback. */
  upstream: ((raw, name, problems) => {
    const upstream = raw.replace(/\/+$/, '');
    const url = httpUrl(upstream);
    if (!url || !url.pathname.endsWith('/v4') || url.search)
      problems.push(`${name} must be the service base URL ending in /v4, e.g. https://api.example.com/v4`);
    else if (url.protocol === 'http:' && !isLoopback(url.hostname))
      problems.push(`${name} must use https (the key travels in a header)`);
    return upstream;
  }) as Parser<string>,
  /**
   * An https URL (plain http on loopback only), without credentials in it; never echoed (a
   * receiver's URL may carry its own token in its path).
   */
  hookUrl: ((raw, name, problems) => {
    const url = httpUrl(raw);
    if (!url) problems.push(`${name} must be an https URL, e.g. https://venue.example/hooks/bookings`);
    else if (url.protocol === 'http:' && !isLoopback(url.hostname))
      problems.push(`${name} must use https (plain http only on loopback)`);
    else return raw;
    return undefined;
  }) as Parser<string>,
  /** A secret token: long enough not to be guessed, and never echoed in a problem. */
  token: ((raw, name, problems) => {
    if (/^[A-Za-z0-9._~+/=-]{16,200}$/.test(raw)) return raw;
    problems.push(`${name} must be 16 to 200 letters, digits or . _ ~ + / = - (e.g. from \`openssl rand -hex 32\`)`);
    return undefined;
  }) as Parser<string>,
  /** A header name, lower-cased. */
  header: ((raw, name, problems) => {
    const header = raw.toLowerCase();
    if (/^[a-z0-9!#$%&'*+.^_`|~-]+$/.test(header)) return header;
    problems.push(`${name} must be a header name, e.g. x-forwarded-for`);
    return undefined;
  }) as Parser<string>,
  /** A redis:// or rediss:// URL, never echoed (it may hold a password). */
  redisUrl: ((raw, name, problems) => {
    let url: URL | null = null;
    try {
      url = new URL(raw);
    } catch {
      // Reported below, without echoing a URL that may hold a password.
    }
    if (url && (url.protocol === 'redis:' || url.protocol === 'rediss:') && url.hostname) return raw;
    problems.push(`${name} must be a redis:// or rediss:// URL, e.g. redis://localhost:6379`);
    return undefined;
  }) as Parser<string>,
  /** A key prefix: printable, no spaces. */
  keyPrefix: ((raw, name, problems) => {
    if (/^[\x21-\x7e]{1,100}$/.test(raw)) return raw;
    problems.push(`${name} must be at most 100 printable characters without spaces`);
    return undefined;
  }) as Parser<string>,
  /** A signing secret: 32 to 200 letters, digits or `._~+/=-`; never echoed. */
  secret: ((raw, name, problems) => {
    if (/^[A-Za-z0-9._~+/=-]{32,200}$/.test(raw)) return raw;
    problems.push(`${name} must be 32 to 200 letters, digits or . _ ~ + / = - (e.g. from \`openssl rand -hex 32\`)`);
    return undefined;
  }) as Parser<string>,
  /** An address to listen on: an IPv4 or IPv6 address (brackets dropped) or a host name. */
  listenHost: ((raw, name, problems) => {
    const host = raw.replace(/^\[(.*)\]$/, '$1');
    if (
      /^\d{1,3}(?:\.\d{1,3}){3}$/.test(host) ||
      /^[0-9a-f:.]*:[0-9a-f:.]*$/i.test(host) ||
      /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i.test(host)
    )
      return host;
    problems.push(`${name} must be an IP address or a host name, e.g. 127.0.0.1, ::1 or localhost`);
    return undefined;
  }) as Parser<string>,
  /** A port number. */
  port: ((raw, name, problems) => {
    const port = /^\d+$/.test(raw) ? Number(raw) : NaN;
    if (port >= 0 && port <= 65535) return port;
    problems.push(`${name} must be a port number from 0 to 65535`);
    return undefined;
  }) as Parser<number>,
  /** A binding the runtime hands over (a Worker's Durable Object namespace): never parsed from text. */
  binding: (() => undefined) as Parser<never>,
};
